package io.github.lockjaw.checks.http;

import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Value;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a method does with a client it created, read from the model: whether it sends a request
 * through it, closes it, hands it to other code, or lets it outlive the call (returns it, stores it
 * in a field, captures it in a lambda or anonymous object it gives away). Locals are no values of
 * their own in the model, so a client held in a variable, cast or aliased is the same value.
 */
final class ClientLifetime {
  final Set<Value> client = new HashSet<>();
  boolean sent;
  boolean closed;
  boolean passed;
  boolean escaped;

  /** {@code this.client = <the new client>} or {@code CLIENT = ...} in the creating class. */
  final List<Op> ownFieldStores = new ArrayList<>();

  private ClientLifetime() {}

  static ClientLifetime of(Program program, MethodFacts method, ClientCreation c) {
    ClientLifetime life = new ClientLifetime();
    life.client.add(new Value.Result(c.op().index()));
    for (Op op : method.ops()) {
      if (op.index() <= c.op().index()) {
        continue;
      }
      switch (op.kind()) {
        case RETURN, THROW -> life.escaped |= life.holdsAny(op.args());
        case PUT_FIELD -> {
          if (life.client.contains(op.arg(0))) {
            if (isOwnField(method, op)) {
              life.ownFieldStores.add(op);
            } else {
              life.escaped = true;
            }
          }
        }
        case GET_FIELD -> {
          // nothing to follow
        }
        default -> life.call(program, op);
      }
    }
    if (!life.closed && life.capturedByCodeItGivesAway(program, method, c)) {
      life.escaped = true;
    }
    return life;
  }

  private void call(Program program, Op op) {
    if (op.receiver() != null && client.contains(op.receiver())) {
      if (HttpCalls.isRequest(program, op)) {
        sent = true;
      } else if (HttpCalls.isClose(program, op)) {
        closed = true;
      } else if (HttpCalls.isFluent(program, op)) {
        client.add(new Value.Result(op.index()));
      }
    }
    if (holdsAny(op.args())) {
      if (HttpCalls.isCloseHelper(program, op)) {
        closed = true;
      } else {
        passed = true;
      }
    }
  }

  private boolean holdsAny(List<Value> values) {
    for (Value value : values) {
      if (client.contains(value)) {
        return true;
      }
    }
    return false;
  }

  /** The client is created for the call and dropped after it: the per-request shape. */
  boolean isThrownAway() {
    if (escaped || !ownFieldStores.isEmpty() || (passed && !closed)) {
      return false;
    }
    return sent || (closed && passed);
  }

  /** {@code client} or {@code this.client}: a field of the object or class the method runs in. */
  private static boolean isOwnField(MethodFacts method, Op put) {
    if (!put.field().owner().equals(method.ref().owner())) {
      return false;
    }
    return method.isStatic() ? put.receiver() == null : put.receiver() instanceof Value.This;
  }

  /**
   * Whether a lambda or an anonymous or local object made in the method may hold the client: its
   * code calls a method of the client's type on a value it captured (captured values are unknown in
   * the model). Such code may run after the method returns.
   */
  private boolean capturedByCodeItGivesAway(
      Program program, MethodFacts method, ClientCreation creation) {
    Set<MethodRef> bodies = new HashSet<>();
    for (Op op : method.ops()) {
      for (Value arg : op.args()) {
        if (arg instanceof Value.Lambda lambda && lambda.body().isLambdaBody()) {
          bodies.add(lambda.body());
        }
      }
      if (op.kind() == Op.Kind.NEW && isLocalClass(op.method().owner())) {
        ClassFacts local = program.classFacts(op.method().owner());
        if (local != null) {
          local.methods().forEach(m -> bodies.add(m.ref()));
        }
      }
    }
    for (MethodRef body : bodies) {
      MethodFacts code = program.method(body);
      if (code == null) {
        continue;
      }
      for (Op op : code.ops()) {
        if (op.isCall()
            && op.kind() != Op.Kind.NEW
            && isCaptured(op.receiver())
            && related(program, op.method().owner(), creation.clientType())) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean isCaptured(Value receiver) {
    return receiver instanceof Value.Unknown;
  }

  private static boolean related(Program program, String a, String b) {
    return program.isSubtype(a, b) || program.isSubtype(b, a);
  }

  private static boolean isLocalClass(String name) {
    int dollar = name.lastIndexOf('$');
    return dollar >= 0 && dollar + 1 < name.length() && Character.isDigit(name.charAt(dollar + 1));
  }
}
