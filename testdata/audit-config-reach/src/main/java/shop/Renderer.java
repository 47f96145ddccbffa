package shop;

import org.apache.commons.pool2.ObjectPool;

/** Renders with a pool of buffers that the Spring context injects (see applicationContext.xml). */
public class Renderer {
  private ObjectPool<StringBuilder> buffers;

  public void setBuffers(ObjectPool<StringBuilder> buffers) {
    this.buffers = buffers;
  }

  public String render(String name) throws Exception {
    StringBuilder buffer = buffers.borrowObject();
    try {
      return buffer.append("hello ").append(name).toString();
    } finally {
      buffers.returnObject(buffer);
    }
  }
}
