package shop;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Product descriptions, built once per product by reflection and kept; every lookup takes the class monitor. */
public final class ProductCatalog {
  private static final Map<Integer, ProductCatalog> DESCRIPTIONS = new HashMap<>();

  private final List<String> properties = new ArrayList<>();

  /** The properties of the product's type: reflection over a JDK class chosen by the product. */
  private ProductCatalog(int product) {
    Class<?>[] types = {String.class, ArrayList.class, HashMap.class, Thread.class, StringBuilder.class};
    Class<?> type = types[Math.floorMod(product, types.length)];
    for (int round = 0; round < 20; round++) {
      for (Method method : type.getMethods()) {
        if (method.getName().startsWith("get") && method.getParameterCount() == 0) {
          properties.add(product + "." + method.getName().substring(3));
        }
      }
    }
  }

  public static synchronized ProductCatalog describe(int product) {
    ProductCatalog description = DESCRIPTIONS.get(product);
    if (description == null) {
      description = new ProductCatalog(product);
      DESCRIPTIONS.put(product, description);
    }
    return description;
  }

  public List<String> properties() {
    return properties;
  }
}
