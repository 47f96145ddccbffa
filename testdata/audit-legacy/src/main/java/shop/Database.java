package shop;

import javax.sql.DataSource;
import org.apache.commons.dbcp.BasicDataSource;

/** The shop's connection pool, on commons-dbcp 1.x. */
public class Database {
  public static DataSource pool(String url) {
    BasicDataSource pool = new BasicDataSource();
    pool.setUrl(url);
    pool.setMaxActive(50);
    return pool;
  }
}
