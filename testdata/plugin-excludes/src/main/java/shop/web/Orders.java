package shop.web;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/** The one finding left: raised to ERROR by the plugin configuration. */
public class Orders {
  private final DataSource dataSource;
  private int writes;

  public Orders(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  public synchronized void cancel(long id) throws SQLException {
    writes++;
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement("UPDATE orders SET state = 'CANCELLED' WHERE id = ?")) {
      s.setLong(1, id);
      s.executeUpdate();
    }
  }

  public synchronized void ship(long id) throws SQLException {
    writes++;
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement("UPDATE orders SET state = 'SHIPPED' WHERE id = ?")) {
      s.setLong(1, id);
      s.executeUpdate();
    }
  }
}
