package shop;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Places orders through a commons-dbcp pool. */
public final class Orders {
  private final DataSource pool;

  public Orders(DataSource pool) {
    this.pool = pool;
  }

  public void place(String sku, int quantity) throws SQLException {
    try (Connection connection = pool.getConnection();
        PreparedStatement insert = connection.prepareStatement("INSERT INTO orders (sku, quantity) VALUES (?, ?)")) {
      insert.setString(1, sku);
      insert.setInt(2, quantity);
      insert.executeUpdate();
    }
  }
}
