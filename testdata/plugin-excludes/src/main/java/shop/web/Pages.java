package shop.web;

import java.util.Hashtable;

/** A reviewed exception, suppressed where it is, and a busy-wait the build switched off. */
public class Pages {
  private final Hashtable<String, String> rendered = new Hashtable<>();

  @SuppressWarnings("SynchronizedMapCache") // low traffic admin page, reviewed
  public String page(String path) {
    String page = rendered.get(path);
    if (page == null) {
      page = "<html>" + path + "</html>";
      rendered.put(path, page);
    }
    return page;
  }

  public void waitFor(Thread renderer) throws InterruptedException {
    while (renderer.isAlive()) {
      Thread.sleep(5);
    }
  }
}
