package io.github.lockjaw.checks.heavyweight;

import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.Guard;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Value;
import io.github.lockjaw.model.query.KeyedAccess;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Creations that run once, or once per key, although the method runs on every call: under a test of
 * a field the method then sets ({@code if (factory == null) { ... factory = ...; }}), or after a
 * map read missed, with a put of the same key ({@code if (!drivers.containsKey(name)) {
 * Class.forName(name); drivers.put(name, ...); }}).
 */
final class OnceOnly {
  private static final Set<String> PUTS = Set.of("put", "putIfAbsent");

  private OnceOnly() {}

  /** The creation runs only while a field the method writes is unset (or still false). */
  static boolean isOneTimeInitialisation(MethodFacts method, Op creation) {
    Set<FieldRef> written = new HashSet<>();
    for (Op op : method.ops()) {
      if (op.kind() == Op.Kind.PUT_FIELD
          && (op.receiver() == null || op.receiver() instanceof Value.This)) {
        written.add(op.field());
      }
    }
    for (Guard guard : creation.context().guards()) {
      if (guard.subject() instanceof Value.FieldValue field
          && (field.base() == null || field.base() instanceof Value.This)
          && written.contains(field.field())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The creation runs only when a map read missed, and the method puts that key into the same map
   * under the same conditions: once per key.
   */
  static boolean isMemoisedPerKey(Program program, MethodFacts method, Op creation) {
    List<KeyedAccess> accesses = KeyedAccess.in(program, method);
    for (KeyedAccess read : accesses) {
      if (read.isWrite() || !read.guardsAsMiss(creation) || read.key() instanceof Value.Unknown) {
        continue;
      }
      for (Op write : method.ops()) {
        if (write.isCall()
            && PUTS.contains(write.method().name())
            && read.container().equals(write.receiver())
            && read.key().equals(write.arg(0))
            && write.context().guards().stream().anyMatch(read::isMiss)) {
          return true;
        }
      }
    }
    return false;
  }
}
