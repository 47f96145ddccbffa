package io.github.lockjaw.samples.shop.catalog;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Reflective metadata about a bean or record class: its readable properties and their accessors.
 * Built once per class and cached, the way iBATIS 2's {@code com.ibatis.common.beans.ClassInfo}
 * does it. The JSON writer of the payment client calls it on every request.
 */
public final class ClassInfo {

  private static final Map CLASS_INFO_MAP = Collections.synchronizedMap(new HashMap());

  private final String className;
  private final Map<String, Method> readers;

  private ClassInfo(Class clazz) {
    className = clazz.getName();
    Map<String, Method> found = new LinkedHashMap<>();
    if (clazz.isRecord()) {
      for (RecordComponent component : clazz.getRecordComponents()) {
        found.put(component.getName(), component.getAccessor());
      }
    } else {
      for (Method method : clazz.getMethods()) {
        String property = propertyName(method);
        if (property != null) {
          found.put(property, method);
        }
      }
    }
    readers = Collections.unmodifiableMap(found);
  }

  /** Returns the metadata of {@code clazz}, building it on first use. */
  public static ClassInfo getInstance(Class clazz) {
    synchronized (clazz) {
      ClassInfo cached = (ClassInfo) CLASS_INFO_MAP.get(clazz);
      if (cached == null) {
        cached = new ClassInfo(clazz);
        CLASS_INFO_MAP.put(clazz, cached);
      }
      return cached;
    }
  }

  public String getClassName() {
    return className;
  }

  public Set<String> getReadablePropertyNames() {
    return readers.keySet();
  }

  public Object getValue(Object bean, String property) {
    Method reader = readers.get(property);
    if (reader == null) {
      throw new IllegalArgumentException("No readable property '" + property + "' in " + className);
    }
    try {
      return reader.invoke(bean);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("Cannot read '" + property + "' of " + className, e);
    }
  }

  private static String propertyName(Method method) {
    if (Modifier.isStatic(method.getModifiers())
        || method.getParameterCount() != 0
        || method.getDeclaringClass() == Object.class) {
      return null;
    }
    String name = method.getName();
    if (name.startsWith("get") && name.length() > 3 && method.getReturnType() != void.class) {
      return Character.toLowerCase(name.charAt(3)) + name.substring(4);
    }
    if (name.startsWith("is") && name.length() > 2 && method.getReturnType() == boolean.class) {
      return Character.toLowerCase(name.charAt(2)) + name.substring(3);
    }
    return null;
  }
}
