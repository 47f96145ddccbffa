package io.github.lockjaw.checks.readmostly;

import io.github.lockjaw.knowledge.Lifecycle;
import io.github.lockjaw.model.FieldRef;
import io.github.lockjaw.model.Guard;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Reachability;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.Value;
import io.github.lockjaw.model.query.ModelFinding;
import io.github.lockjaw.model.query.ModelQuery;
import io.github.lockjaw.model.query.QueryContext;
import io.github.lockjaw.model.query.SharedLock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * ReadMostlyStateUnderLock as a query over the model: a region on a request path that holds a
 * shared monitor only to read or copy state ({@link ReadOnlyCode}: the region and the methods it
 * calls only read), where every method that changes that state outside construction is off the
 * request path by reachability: start-up, configuration, refresh, scheduled or administrative code,
 * whatever its name ({@link Reachability}). The readers then queue behind each other for state that
 * rarely changes.
 *
 * <p>Requests must reach the reader by more than the assumption that any API method may be called
 * per request: through a framework entry point or a call from other analysed code; or, for an API
 * method nothing calls, its state must be published by a writer that registers, refreshes or
 * reloads it ({@code publishing-writer-prefix}: a JavaBean's synchronized getter of a setter's
 * property, a life-cycle flag or a collection built by {@code add*} methods is configuration that
 * nothing shows to be read per request).
 *
 * <p>Silent for an access-ordered map (its {@code get} reorders it), a region that hands out a
 * published snapshot when there is one ({@code if (frozen != null) return frozen;}), and state
 * written on the request path.
 */
public final class ReadMostlyQuery implements ModelQuery {

  /**
   * What the source fix needs: the field reads of the state in the region, and the state's fields.
   */
  record Detail(List<ReadOnlyCode.Read> stateReads, List<FieldRef> state, boolean copies) {}

  @Override
  public String check() {
    return "ReadMostlyStateUnderLock";
  }

  @Override
  public List<ModelFinding> findIn(QueryContext context, MethodFacts method) {
    List<ModelFinding> findings = new ArrayList<>();
    if (method.ref().isConstructor() || method.ref().isStaticInitializer()) {
      return findings;
    }
    for (Region region : method.regions()) {
      Optional<SharedLock> lock = SharedLock.of(region, method);
      if (lock.isEmpty()
          || SharedLock.isHeldAround(region, method)
          || SharedLock.repeatsEarlierRegion(region, method)) {
        continue;
      }
      ReadOnlyCode code = ReadOnlyCode.of(context.program(), method, region);
      if (!code.readOnly()
          || code.reads().isEmpty()
          || handsOutSnapshotFirst(context.program(), method, code)
          || !context.reachability().isOnRequestPath(method.ref())) {
        continue;
      }
      Optional<State> state = state(context, code);
      if (state.isEmpty() || !isReadPerRequest(context, method, state.get())) {
        continue;
      }
      findings.add(finding(context, method, region, lock.get(), code, state.get()));
    }
    return findings;
  }

  /** The fields read that code outside construction changes, and the methods that do. */
  private record State(Map<FieldRef, List<MethodRef>> writers) {
    Set<MethodRef> allWriters() {
      Set<MethodRef> all = new LinkedHashSet<>();
      writers.values().forEach(all::addAll);
      return all;
    }
  }

  /**
   * The state the code reads, when every change of it is off the request path and none of it may
   * hold an access-ordered map; empty otherwise.
   */
  private static Optional<State> state(QueryContext context, ReadOnlyCode code) {
    Program program = context.program();
    Reachability reachability = context.reachability();
    FieldWriters changes = FieldWriters.of(program);
    Map<FieldRef, List<MethodRef>> writers = new LinkedHashMap<>();
    for (ReadOnlyCode.Read read : code.reads()) {
      FieldRef field = read.field();
      if (writers.containsKey(field) || !program.isAnalysed(field.owner())) {
        continue; // read before, or declared outside the analysed code: its writers are unknown
      }
      if (program.matchType(ReadMostlyKnowledge.ACCESS_ORDERED_TYPES, field.type()).isPresent()) {
        return Optional.empty(); // an LRU map: its get() reorders it, the lock guards that
      }
      List<MethodRef> fieldWriters = new ArrayList<>();
      for (FieldWriters.Write write : changes.of(field)) {
        if (write.isAssignment() && holdsAccessOrderedMap(program, write)) {
          return Optional.empty();
        }
        MethodRef writer = write.writer().ref();
        if (isConstruction(write.writer())) {
          continue;
        }
        if (writesPerRequest(reachability, writer)) {
          return Optional.empty(); // written on the request path: the lock guards more
        }
        if (!fieldWriters.contains(writer)) {
          fieldWriters.add(writer);
        }
      }
      if (!fieldWriters.isEmpty()) {
        writers.put(field, fieldWriters);
      }
    }
    return writers.isEmpty() ? Optional.empty() : Optional.of(new State(writers));
  }

  /**
   * Whether a writer runs per request: requests reach it from a framework entry point, or they
   * reach it as API and it is no start-up step itself. A registration, refresh or configuration
   * step that requests reach only through API methods nobody in the analysed code calls (Spring's
   * {@code registerBeanDefinition}, reached from a reader's public {@code loadBeanDefinitions}) is
   * start-up code: the API path is an assumption, the step's role a fact of the model.
   */
  private static boolean writesPerRequest(Reachability reachability, MethodRef writer) {
    return reachability.isReachedFromEntryPoint(writer)
        || (reachability.isOnRequestPath(writer) && !reachability.isStartUpEntry(writer));
  }

  private static boolean holdsAccessOrderedMap(Program program, FieldWriters.Write write) {
    Op producer = write.writer().producer(write.op().arg(0));
    return producer != null
        && producer.kind() == Op.Kind.NEW
        && program
            .matchType(ReadMostlyKnowledge.ACCESS_ORDERED_TYPES, producer.method().owner())
            .isPresent();
  }

  /** A constructor or initialiser, or a lambda written in one: the object is being built. */
  private static boolean isConstruction(MethodFacts writer) {
    MethodRef ref = writer.enclosing() != null ? writer.enclosing() : writer.ref();
    return ref.isConstructor() || ref.isStaticInitializer();
  }

  /**
   * Requests reach the reader through a framework entry point or a call from other analysed code;
   * or it is API nothing calls, and a writer registers, refreshes or reloads the state.
   */
  private static boolean isReadPerRequest(QueryContext context, MethodFacts method, State state) {
    for (MethodRef writer : state.allWriters()) {
      if (ReadMostlyKnowledge.isPublishingWriterName(writer.name())) {
        return true;
      }
    }
    if (context.reachability().isApiEntry(method.ref())) {
      return false;
    }
    for (MethodRef writer : state.allWriters()) {
      if (Lifecycle.isLifecycleName(writer.name())
          || (!ReadMostlyKnowledge.isPropertySetter(writer)
              && isCalledByStartUpCode(context, writer))) {
        return true;
      }
    }
    return false;
  }

  /** Whether start-up, configuration, scheduled or administrative code calls the method. */
  private static boolean isCalledByStartUpCode(QueryContext context, MethodRef method) {
    for (Program.CallSite site : context.program().callersOf(method)) {
      Set<Reachability.Origin> origins = context.reachability().originsOf(site.caller().ref());
      if (origins.contains(Reachability.Origin.LIFECYCLE)
          || origins.contains(Reachability.Origin.BACKGROUND)
          || origins.contains(Reachability.Origin.ADMIN)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the method returns a field the region reads when that field is not null: it hands out a
   * published snapshot, and copies only until there is one (Spring 2.5.2's {@code
   * frozenBeanDefinitionNames}).
   */
  private static boolean handsOutSnapshotFirst(
      Program program, MethodFacts method, ReadOnlyCode code) {
    Set<FieldRef> read = new LinkedHashSet<>();
    code.reads().forEach(r -> read.add(r.field()));
    for (Op op : method.ops()) {
      if (op.kind() != Op.Kind.RETURN || !(op.arg(0) instanceof Value.FieldValue returned)) {
        continue;
      }
      FieldRef field = ReadOnlyCode.declaring(program, returned.field());
      if (!read.contains(field) || (read.size() < 2 && code.copies().isEmpty())) {
        continue; // nothing else to do when it is null: a plain read, not a snapshot first
      }
      for (Guard guard : op.context().guards()) {
        if (guard.subject().equals(returned)
            && guard.test() == Guard.Test.NULL
            && !guard.outcome()) {
          return true;
        }
      }
    }
    return false;
  }

  private ModelFinding finding(
      QueryContext context,
      MethodFacts method,
      Region region,
      SharedLock lock,
      ReadOnlyCode code,
      State state) {
    List<FieldRef> fields = new ArrayList<>(state.writers().keySet());
    List<ReadOnlyCode.Read> stateReads = new ArrayList<>();
    for (ReadOnlyCode.Read read : code.reads()) {
      if (state.writers().containsKey(read.field())) {
        stateReads.add(read);
      }
    }
    Set<String> writerNames = new LinkedHashSet<>();
    for (MethodRef writer : state.allWriters()) {
      writerNames.add(callName(writer, method.ref().owner()));
    }
    String name = callName(method.ref(), method.ref().owner());
    StringBuilder message =
        new StringBuilder()
            .append(region.wholeMethod() ? name : "The synchronized block in " + name)
            .append(" takes ")
            .append(lock.describe())
            .append(" on every call only to ")
            .append(code.copies().isEmpty() ? "read " : "copy ")
            .append(String.join(", ", fields.stream().map(f -> "'" + f.name() + "'").toList()))
            .append(code.copies().isEmpty() ? "" : " (" + String.join(", ", code.copies()) + ")")
            .append(", which only ")
            .append(String.join(", ", writerNames))
            .append(writerNames.size() == 1 ? " writes" : " write")
            .append(": callers queue on that lock to read state that rarely changes. ");
    if (fields.size() == 1 && code.copies().isEmpty()) {
      message
          .append("Make '")
          .append(fields.get(0).name())
          .append("' volatile and read it once without the lock.");
    } else {
      message.append(
          "Publish an immutable snapshot through a volatile field when the writers change it (or"
              + " keep the state in a ConcurrentHashMap), and read that without the lock.");
    }
    return new ModelFinding(
        check(),
        method,
        region.id(),
        -1,
        region.line(),
        message.toString(),
        context.reachability().requestPath(method.ref()),
        null,
        new Detail(stateReads, fields, !code.copies().isEmpty()));
  }

  /** {@code reload()} in the reader's class, {@code Registry.reload()} in another, or a lambda. */
  private static String callName(MethodRef method, String fromClass) {
    if (method.isLambdaBody()) {
      String enclosing = method.name().substring(method.name().indexOf('@') + 1);
      return "a lambda in " + enclosing.substring(0, enclosing.indexOf('(')) + "()";
    }
    return method.owner().equals(fromClass) ? method.name() + "()" : method.display() + "()";
  }
}
