package shop;

import javax.sql.DataSource;
import org.apache.commons.dbcp2.BasicDataSource;

/** The shop's connection pool, on commons-dbcp2. */
public class Database {
  public static DataSource pool(String url) {
    BasicDataSource pool = new BasicDataSource();
    pool.setUrl(url);
    pool.setMaxTotal(50);
    return pool;
  }
}
