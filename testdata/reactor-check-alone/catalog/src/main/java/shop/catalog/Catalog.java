package shop.catalog;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import shop.model.Product;

/** Uses the model module's Product: resolving it needs this module's own classpath. */
public class Catalog {
  private final Map<Long, Product> products = Collections.synchronizedMap(new HashMap<>());

  public Product product(long id) {
    Product product = products.get(id);
    if (product == null) {
      product = new Product(id, "product " + id);
      products.put(id, product);
    }
    return product;
  }
}
