package shop;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Products and stock levels in the shop database. Every method is {@code synchronized}, "to be
 * safe": each request queues on this one DAO while another request waits for the database.
 */
public class ProductDao {

  private final DataSource dataSource;

  public ProductDao(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  public synchronized Product loadProduct(String sku) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT sku, name, price, units_in_stock FROM product WHERE sku = ?")) {
      statement.setString(1, sku);
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next() ? toProduct(rows) : null;
      }
    }
  }

  public synchronized List<Product> listByCategory(String category) throws SQLException {
    Connection connection = dataSource.getConnection();
    try {
      PreparedStatement statement =
          connection.prepareStatement(
              "SELECT sku, name, price, units_in_stock FROM product WHERE category = ? ORDER BY name");
      statement.setString(1, category);
      ResultSet rows = statement.executeQuery();
      List<Product> products = new ArrayList<>();
      while (rows.next()) {
        products.add(toProduct(rows));
      }
      rows.close();
      statement.close();
      return products;
    } finally {
      connection.close();
    }
  }

  public synchronized boolean reserveStock(String sku, int units) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(
                "UPDATE product SET units_in_stock = units_in_stock - ?"
                    + " WHERE sku = ? AND units_in_stock >= ?")) {
      statement.setInt(1, units);
      statement.setString(2, sku);
      statement.setInt(3, units);
      return statement.executeUpdate() == 1;
    }
  }

  private static Product toProduct(ResultSet rows) throws SQLException {
    return new Product(
        rows.getString("sku"),
        rows.getString("name"),
        rows.getBigDecimal("price"),
        rows.getInt("units_in_stock"));
  }
}
