package shop;

import java.util.HashMap;
import java.util.Map;

/** Product descriptions, loaded once per SKU and kept; every lookup takes the class monitor. */
public final class ProductCatalog {
  private static final Map<String, String> DESCRIPTIONS = new HashMap<>();

  private ProductCatalog() {}

  public static synchronized String describe(String sku) {
    String description = DESCRIPTIONS.get(sku);
    if (description == null) {
      description = load(sku);
      DESCRIPTIONS.put(sku, description);
    }
    return description;
  }

  private static String load(String sku) {
    return "Product " + sku;
  }
}
