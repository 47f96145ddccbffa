package shop;

import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.apache.commons.pool2.impl.GenericObjectPool;

/** Render buffers shared by the request threads, pooled with commons-pool2. */
public class Buffers {
  private final GenericObjectPool<StringBuilder> pool =
      new GenericObjectPool<>(
          new BasePooledObjectFactory<StringBuilder>() {
            @Override
            public StringBuilder create() {
              return new StringBuilder(8192);
            }

            @Override
            public PooledObject<StringBuilder> wrap(StringBuilder buffer) {
              return new DefaultPooledObject<>(buffer);
            }

            @Override
            public void passivateObject(PooledObject<StringBuilder> pooled) {
              pooled.getObject().setLength(0);
            }
          });

  public String render(String name) throws Exception {
    StringBuilder buffer = pool.borrowObject();
    try {
      return buffer.append("Hello, ").append(name).toString();
    } finally {
      pool.returnObject(buffer);
    }
  }
}
