package io.github.lockjaw.checks.cache;

import io.github.lockjaw.knowledge.Kind.Reflection;
import io.github.lockjaw.knowledge.Lifecycle;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.Value;
import io.github.lockjaw.model.query.QueryContext;
import java.util.List;

/**
 * The monitor a cache lookup holds, as both engines tell it from the model: a {@code Class} (a
 * class literal, {@code getClass()}, any {@code Class} value, a {@code static synchronized}
 * method), a shared reflective object (a {@code Method}, {@code Field} or {@code Constructor} held
 * in a field or passed in, locked by every caller of that member like a {@code Class}), or any
 * other object.
 *
 * @param kind what the monitor is
 * @param region the region
 * @param text how a message names it
 * @param holder for a shared reflective monitor, the field or parameter that holds it
 * @param type for a shared reflective monitor, the simple name of its type ({@code Method})
 */
record CacheMonitor(Kind kind, Region region, String text, String holder, String type) {
  private static final List<String> SHARED_REFLECTIVE_TYPES =
      Reflection.SHARED_REFLECTIVE_TYPE.index().typeNames();

  /** What a monitor is. */
  enum Kind {
    CLASS,
    REFLECTIVE,
    OBJECT
  }

  static CacheMonitor of(QueryContext context, MethodFacts method, Region region) {
    String owner = simple(method.ref().owner());
    if (region.wholeMethod()) {
      return method.isStatic()
          ? new CacheMonitor(
              Kind.CLASS,
              region,
              "the class monitor of " + owner + " (static synchronized)",
              null,
              null)
          : new CacheMonitor(
              Kind.OBJECT,
              region,
              "the monitor of the " + owner + " instance (synchronized method)",
              null,
              null);
    }
    Value monitor = region.monitor();
    String name = name(method, monitor);
    if (monitor instanceof Value.ClassLiteral || region.monitorType().equals("java.lang.Class")) {
      return new CacheMonitor(
          Kind.CLASS, region, "the monitor of the Class object " + name, null, null);
    }
    String reflectiveType = reflectiveType(context, region);
    if (reflectiveType != null
        && (monitor instanceof Value.Param || isHeldInAField(monitor))
        && !runsOnce(context, method)) {
      String holder =
          monitor instanceof Value.Param param
              ? method.parameterName(param.index())
              : ((Value.FieldValue) monitor).field().name();
      return new CacheMonitor(
          Kind.REFLECTIVE,
          region,
          "the monitor of the shared " + reflectiveType + " '" + holder + "'",
          holder,
          reflectiveType);
    }
    if (monitor instanceof Value.This) {
      return new CacheMonitor(
          Kind.OBJECT, region, "the monitor of the " + owner + " instance", null, null);
    }
    if (monitor instanceof Value.FieldValue field) {
      return new CacheMonitor(
          Kind.OBJECT, region, "the lock in field '" + field.field().name() + "'", null, null);
    }
    return new CacheMonitor(Kind.OBJECT, region, "an object monitor", null, null);
  }

  private static boolean isHeldInAField(Value monitor) {
    return monitor instanceof Value.FieldValue field
        && (field.base() == null || field.base() instanceof Value.This);
  }

  /** The simple name of the monitor's type when it is a shared reflective type, else null. */
  private static String reflectiveType(QueryContext context, Region region) {
    String type = region.monitorType();
    if (type.isEmpty()) {
      return null;
    }
    return context.program().matchType(SHARED_REFLECTIVE_TYPES, type).isPresent()
        ? simple(type)
        : null;
  }

  /**
   * Whether the method runs once in the life of its object or program (a constructor, an
   * initialiser, a start-up, configuration or shutdown step, or code reached only from such code or
   * tests), so a monitor it takes queues nobody.
   */
  static boolean runsOnce(QueryContext context, MethodFacts method) {
    MethodRef ref = method.ref().isLambdaBody() ? method.enclosing() : method.ref();
    if (ref == null || ref.isConstructor() || ref.isStaticInitializer()) {
      return true;
    }
    return Lifecycle.isLifecycleOrConfiguration(
            ref.name(), ref.parameterCount(), ref.returnType().equals("void"))
        || context.reachability().isReachedOnlyOffRequestPath(ref);
  }

  /** How the monitor's expression reads: {@code 'clazz'}, {@code 'Foo.class'}, {@code 'this'}. */
  private static String name(MethodFacts method, Value monitor) {
    if (monitor instanceof Value.Param param) {
      return "'" + method.parameterName(param.index()) + "'";
    }
    if (monitor instanceof Value.ClassLiteral literal) {
      return "'" + simple(literal.type()) + ".class'";
    }
    if (monitor instanceof Value.FieldValue field) {
      return "'" + field.field().name() + "'";
    }
    Op producer = method.producer(monitor);
    if (producer != null && producer.isCall() && producer.method().name().equals("getClass")) {
      return "'getClass()'";
    }
    return "held in a local";
  }

  static String simple(String binaryName) {
    return binaryName.substring(binaryName.lastIndexOf('.') + 1).replace('$', '.');
  }

  /** Whether the region locks the looked-up map itself. */
  boolean locks(Value container) {
    return !region.wholeMethod() && region.monitor().equals(container);
  }

  /**
   * Whether the region locks the key itself ({@code synchronized (clazz)} around a lookup of it).
   */
  boolean locksTheKey(Value key) {
    return !region.wholeMethod() && !key.isOpaque() && region.monitor().equals(key);
  }
}
