package shop.legacy;

import java.util.Hashtable;

/** Legacy code the team excluded from lockjaw. */
public class OldRegistry {
  private final Hashtable<String, Object> entries = new Hashtable<>();

  public Object entry(String name) {
    Object entry = entries.get(name);
    if (entry == null) {
      entry = new Object();
      entries.put(name, entry);
    }
    return entry;
  }
}
