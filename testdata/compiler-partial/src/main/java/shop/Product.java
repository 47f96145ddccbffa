package shop;

import java.math.BigDecimal;

/** A product as the shop's pages and the payment service see it. */
public record Product(String sku, String name, BigDecimal price, int unitsInStock) {

  public boolean isAvailable() {
    return unitsInStock > 0;
  }
}
