package io.github.lockjaw.samples.shop.web;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/** Exports an order as XML for the warehouse system. */
public class OrderExportHandler implements HttpHandler {

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    String orderId = exchange.getRequestURI().getPath().substring("/export/".length());
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    try {
      XMLStreamWriter xml = XMLOutputFactory.newInstance().createXMLStreamWriter(body, "UTF-8");
      xml.writeStartDocument("UTF-8", "1.0");
      xml.writeStartElement("order");
      xml.writeAttribute("id", orderId);
      xml.writeEndElement();
      xml.writeEndDocument();
      xml.close();
    } catch (XMLStreamException e) {
      throw new IOException("cannot export order " + orderId, e);
    }
    exchange.getResponseHeaders().set("Content-Type", "application/xml");
    exchange.sendResponseHeaders(200, body.size());
    try (OutputStream out = exchange.getResponseBody()) {
      body.writeTo(out);
    }
  }
}
