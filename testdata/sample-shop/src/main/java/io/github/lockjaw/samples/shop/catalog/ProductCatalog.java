package io.github.lockjaw.samples.shop.catalog;

import io.github.lockjaw.samples.shop.dao.ProductDao;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/** The product pages' view of the catalog: products by SKU, cached after the first database read. */
public class ProductCatalog {

  private final Map<String, Product> cache = new HashMap<>();
  private final ProductDao productDao;

  public ProductCatalog(ProductDao productDao) {
    this.productDao = productDao;
  }

  /** Returns the product with this SKU, reading it from the database on first use. */
  public synchronized Product findBySku(String sku) throws SQLException {
    Product product = cache.get(sku);
    if (product == null) {
      product = productDao.loadProduct(sku);
      cache.put(sku, product);
    }
    return product;
  }
}
