package shop;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/** No method lock: the connection pool behind the DataSource handles concurrency. */
public class ProductDao {
  private final DataSource dataSource;

  public ProductDao(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  public String loadName(String sku) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement("SELECT name FROM product WHERE sku = ?")) {
      statement.setString(1, sku);
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next() ? rows.getString(1) : null;
      }
    }
  }
}
