package shop;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/** Reflection metadata per entity class, iBATIS style. */
public class EntityInfo {
  private static final Map<Class<?>, EntityInfo> INFOS = Collections.synchronizedMap(new HashMap<>());
  private static final Map<Integer, StringBuilder> LABELS = Collections.synchronizedMap(new HashMap<>());
  private final String table;

  private EntityInfo(Class<?> type) {
    table = type.getSimpleName().toLowerCase();
  }

  public static EntityInfo of(Class<?> type) {
    synchronized (type) {
      EntityInfo info = INFOS.get(type);
      if (info == null) {
        info = new EntityInfo(type);
        INFOS.put(type, info);
      }
      return info;
    }
  }

  /** A second cache in the same file: its fix also edits the imports, so it lands in a second pass. */
  public static synchronized StringBuilder label(int code) {
    StringBuilder label = LABELS.get(code);
    if (label == null) {
      label = new StringBuilder("code-" + code);
      LABELS.put(code, label);
    }
    return label;
  }

  public String table() {
    return table;
  }
}
