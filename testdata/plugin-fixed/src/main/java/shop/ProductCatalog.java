package shop;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/** Products by SKU, loaded once; readers never queue behind each other. */
public class ProductCatalog {
  public record Product(String sku, String name) {}

  private static final Map<Class<?>, String> TABLES = new ConcurrentHashMap<>();
  private final Map<String, Product> cache = new ConcurrentHashMap<>();
  private final Function<String, Product> loader;

  public ProductCatalog(Function<String, Product> loader) {
    this.loader = loader;
  }

  public Product findBySku(String sku) {
    return cache.computeIfAbsent(sku, loader);
  }

  static String tableOf(Class<?> entity) {
    return TABLES.computeIfAbsent(entity, type -> type.getSimpleName().toLowerCase());
  }
}
