package shop;

import java.util.HashMap;
import java.util.Map;

/** Old code the team accepts for now. */
public class LegacyTypeRegistry {
  private static final Map<String, StringBuilder> DESCRIPTIONS = new HashMap<>();

  public static synchronized StringBuilder describe(String type) {
    StringBuilder description = DESCRIPTIONS.get(type);
    if (description == null) {
      description = new StringBuilder(type);
      DESCRIPTIONS.put(type, description);
    }
    return description;
  }
}
