package io.github.lockjaw.checks.http;

import io.github.lockjaw.model.ClassFacts;
import io.github.lockjaw.model.Effects;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Connections a method opens and ends within the call, so that no connection outlives a request: an
 * {@code HttpURLConnection} that is {@code disconnect()}ed, which closes its socket instead of
 * returning it to the JDK's keep-alive cache, and a socket connected per call and closed. The end
 * may come in the method (a {@code finally} included), in a helper it hands the connection to, or
 * in a method ({@code close()}, {@code destroy()}) of an object it wraps the connection in.
 */
final class PerCallConnections {
  private static final int DEPTH = 3;

  /** What opens the connection. */
  enum Kind {
    URL_CONNECTION,
    SOCKET
  }

  /**
   * How a connection ends: the calls from the opening method to the one that disconnects or closes
   * it (one step when the method does it itself).
   */
  record Release(List<Effects.Step> chain) {
    boolean isDirect() {
      return chain.size() == 1;
    }

    /** {@code UrlResponse.close() → HttpURLConnection.disconnect()}. */
    String text() {
      List<String> calls = new ArrayList<>();
      for (Effects.Step step : chain) {
        calls.add(step.call());
      }
      return String.join(" → ", calls);
    }
  }

  private final Program program;

  PerCallConnections(Program program) {
    this.program = program;
  }

  /**
   * What {@code op} opens, or {@code null}: an {@code openConnection()} or a socket, or a call of a
   * helper that opens one and returns it on every path ({@code createConnection(url)} that only
   * returns {@code url.openConnection()}; every override, for an overridable helper).
   */
  Kind opens(Op op) {
    return opens(op, 0);
  }

  private Kind opens(Op op, int depth) {
    if (HttpCalls.isUrlConnectionOpen(program, op)) {
      return Kind.URL_CONNECTION;
    }
    if (HttpCalls.isSocketOpen(program, op)) {
      return Kind.SOCKET;
    }
    if (!op.isCall() || depth >= DEPTH || !HttpCalls.returnsConnectionType(program, op.method())) {
      return null;
    }
    List<MethodFacts> targets = program.targets(op);
    Kind kind = null;
    for (MethodFacts target : targets) {
      Kind returned = returnsWhatItOpens(target, depth + 1);
      if (returned == null || (kind != null && kind != returned)) {
        return null;
      }
      kind = returned;
    }
    return kind;
  }

  /**
   * What a method opens and returns on every return (each returns a connection it opened itself,
   * never a field, a parameter or {@code null}), or {@code null}.
   */
  private Kind returnsWhatItOpens(MethodFacts method, int depth) {
    Kind kind = null;
    for (Op op : method.ops()) {
      if (op.kind() != Op.Kind.RETURN) {
        continue;
      }
      if (op.args().isEmpty() || !(op.arg(0) instanceof Value.Result opened)) {
        return null;
      }
      Kind one = opens(method.ops().get(opened.op()), depth);
      if (one == null || (kind != null && kind != one)) {
        return null;
      }
      kind = one;
    }
    return kind;
  }

  /** How the connection {@code value} of {@code method} ends within the call, if it does. */
  Optional<Release> releaseOf(MethodFacts method, Value value, Kind kind) {
    return releaseOf(method, value, kind, 0);
  }

  private Optional<Release> releaseOf(MethodFacts method, Value value, Kind kind, int depth) {
    if (depth > DEPTH) {
      return Optional.empty();
    }
    for (Op op : method.ops()) {
      if (!op.isCall() || op.context().inHandler()) {
        continue; // dropping a broken connection on a failure path is fine
      }
      if (value.equals(op.receiver()) && ends(op, kind)) {
        return Optional.of(new Release(List.of(step(method, op))));
      }
      int index = op.args().indexOf(value);
      if (index < 0) {
        continue;
      }
      if (kind == Kind.SOCKET && HttpCalls.isCloseHelper(program, op)) {
        return Optional.of(new Release(List.of(step(method, op))));
      }
      if (op.kind() == Op.Kind.NEW) {
        Optional<Release> wrapper = endedByWrapper(op, index, kind, depth);
        if (wrapper.isPresent()) {
          return Optional.of(prefixed(method, op, wrapper.get()));
        }
        continue;
      }
      for (MethodFacts target : program.targets(op)) {
        Optional<Release> inner = releaseOf(target, new Value.Param(index), kind, depth + 1);
        if (inner.isPresent()) {
          return Optional.of(prefixed(method, op, inner.get()));
        }
      }
    }
    return Optional.empty();
  }

  private boolean ends(Op op, Kind kind) {
    return kind == Kind.URL_CONNECTION
        ? HttpCalls.isDisconnect(program, op)
        : HttpCalls.isClose(program, op);
  }

  /**
   * {@code new Wrapper(connection)}: the constructor keeps its argument in a field, and a method of
   * the wrapper ({@code close()}, {@code destroy()}) ends what that field holds.
   */
  private Optional<Release> endedByWrapper(Op creation, int index, Kind kind, int depth) {
    MethodFacts constructor = program.resolve(creation.method());
    if (constructor == null) {
      return Optional.empty();
    }
    ClassFacts wrapper = program.classFacts(constructor.ref().owner());
    if (wrapper == null) {
      return Optional.empty();
    }
    for (Op op : constructor.ops()) {
      if (op.kind() != Op.Kind.PUT_FIELD
          || !(op.receiver() instanceof Value.This)
          || !new Value.Param(index).equals(op.arg(0))) {
        continue;
      }
      FieldRef field = op.field();
      for (MethodFacts method : wrapper.methods()) {
        if (method.ref().isConstructor()) {
          continue;
        }
        Optional<Release> ended =
            releaseOf(method, new Value.FieldValue(field, Value.THIS), kind, depth + 1);
        if (ended.isPresent()) {
          return Optional.of(
              new Release(
                  prepend(
                      new Effects.Step(
                          method.ref(),
                          -1,
                          method.line(),
                          method.ref(),
                          method.ref().display() + "()"),
                      ended.get().chain())));
        }
      }
    }
    return Optional.empty();
  }

  /** Whether the method reads or writes through the socket, or hands it on to code that may. */
  boolean exchangesThrough(MethodFacts method, Value socket) {
    for (Op op : method.ops()) {
      if (socket.equals(op.receiver()) && HttpCalls.isSocketExchange(program, op)) {
        return true;
      }
      if (op.isCall() && op.args().contains(socket) && !HttpCalls.isCloseHelper(program, op)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the method lets the connection outlive the call: returns it or stores it. */
  static boolean escapes(MethodFacts method, Value connection) {
    for (Op op : method.ops()) {
      if ((op.kind() == Op.Kind.RETURN || op.kind() == Op.Kind.PUT_FIELD)
          && op.args().contains(connection)) {
        return true;
      }
    }
    return false;
  }

  private static Effects.Step step(MethodFacts method, Op op) {
    return new Effects.Step(
        method.ref(), op.index(), op.line(), op.method(), Effects.display(op.method()));
  }

  private static Release prefixed(MethodFacts method, Op op, Release inner) {
    return new Release(prepend(step(method, op), inner.chain()));
  }

  private static List<Effects.Step> prepend(Effects.Step first, List<Effects.Step> rest) {
    List<Effects.Step> chain = new ArrayList<>(rest.size() + 1);
    chain.add(first);
    chain.addAll(rest);
    return chain;
  }
}
