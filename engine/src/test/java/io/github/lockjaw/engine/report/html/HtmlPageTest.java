package io.github.lockjaw.engine.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HtmlPageTest {

  @Test
  void escapesTextAndFetchesNothing() {
    String html =
        new HtmlPage("Findings <shop>")
            .paragraph("synchronized (Foo.class) & \"cache\"")
            .code("at shop.Dao.load(Dao.java:12)\n<init>")
            .render();
    assertTrue(html.contains("<title>Findings &lt;shop&gt;</title>"), html);
    assertTrue(html.contains("synchronized (Foo.class) &amp; &quot;cache&quot;"), html);
    assertTrue(html.contains("&lt;init&gt;"), html);
    assertFalse(html.contains("<script"), html);
    assertFalse(html.contains("http://") && !html.contains("xmlns"), html);
    assertFalse(html.matches("(?s).*(src|href)=\"https?:.*"), html);
  }

  @Test
  void barsAreScaledToTheLargestValueAndCarryTheirFigures() {
    String html =
        new HtmlPage("Contention")
            .barChart(
                "blocked time per site",
                List.of(
                    new HtmlPage.Bar("ClassInfo.getInstance", 3000, true),
                    new HtmlPage.Bar("Journal.append", 750, false)),
                "ms")
            .render();
    Matcher bars =
        Pattern.compile(
                "width=\"([0-9.]+)\" fill=\"[^\"]+\" data-label=\"([^\"]+)\" data-value=\"([0-9.]+)\"")
            .matcher(html);
    assertTrue(bars.find());
    assertEquals("ClassInfo.getInstance", bars.group(2));
    assertEquals(420.0, Double.parseDouble(bars.group(1)), 0.05);
    assertTrue(bars.find());
    assertEquals("Journal.append", bars.group(2));
    assertEquals(105.0, Double.parseDouble(bars.group(1)), 0.05);
    assertEquals(750.0, Double.parseDouble(bars.group(3)), 0.001);
  }

  @Test
  void diffLinesAreMarked() {
    String html =
        new HtmlPage("Fix")
            .diff("@@ -1 +1 @@\n-synchronized (X.class) {\n+cache.computeIfAbsent(k, f);")
            .render();
    assertTrue(html.contains("<span class=\"del\">-synchronized (X.class) {</span>"), html);
    assertTrue(html.contains("<span class=\"add\">+cache.computeIfAbsent(k, f);</span>"), html);
  }
}
