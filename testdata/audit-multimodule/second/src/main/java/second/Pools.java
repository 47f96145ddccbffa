package second;

/** Uses commons-pool 1.3, whose pool-wide monitor is a known problem. */
public class Pools {
  public Object pool() {
    return new org.apache.commons.pool.impl.GenericObjectPool();
  }
}
