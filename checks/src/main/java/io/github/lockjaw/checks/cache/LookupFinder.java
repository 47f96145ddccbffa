package io.github.lockjaw.checks.cache;

import io.github.lockjaw.knowledge.Kind;
import io.github.lockjaw.knowledge.KnowledgeIndex;
import io.github.lockjaw.knowledge.Lifecycle;
import io.github.lockjaw.model.Guard;
import io.github.lockjaw.model.MethodFacts;
import io.github.lockjaw.model.Op;
import io.github.lockjaw.model.Program;
import io.github.lockjaw.model.Region;
import io.github.lockjaw.model.Value;
import io.github.lockjaw.model.query.QueryContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the check-then-act lookups of a method as facts over the model: a put of key K on container
 * C that runs only when a read of K on C missed. "Only when it missed" is a guard of the put (the
 * read's value was null, {@code containsKey} was false, also after an early return, also for the
 * value behind a reference the read found or a field the found value was stored in), a null test of
 * a value the paths assign differently (a found value unwrapped through a conditional), or a return
 * of the found value, before the put, under a hit. Not lookups: registries that hand nothing back,
 * counters ({@code put(k, get(k) + 1)} runs on a hit too), and locks that do more than the lookup
 * (they write other fields, or change the cached value).
 */
final class LookupFinder {
  private static final Guard MERGED_NULL = new Guard(Value.UNKNOWN, Guard.Test.NULL, true);
  private static final List<String> KEY_ACCESSORS = Kind.Maps.KEY_ACCESSOR.values();
  private static final List<String> KEY_ACCESSOR_EXCLUSIONS =
      Kind.Maps.KEY_ACCESSOR_EXCLUSION.values();

  /** Calls that read a collection without changing it ({@code size()}, {@code keySet()}). */
  private static final KnowledgeIndex COLLECTION_READS = Kind.ReadMostly.READ_CALL.index();

  private LookupFinder() {}

  /** The lookups of a method, at most one per put's container and region. */
  static List<Lookup> find(QueryContext context, MethodFacts method) {
    List<MapAccess> accesses = MapAccess.in(context, method);
    List<Lookup> found = new ArrayList<>();
    if (accesses.size() < 2) {
      return found;
    }
    Map<String, Lookup> byPlace = new LinkedHashMap<>();
    for (MapAccess put : accesses) {
      if (!put.isWrite() || !(put.container() instanceof Value.FieldValue)) {
        continue;
      }
      Lookup lookup = lookupOf(context.program(), method, accesses, put);
      if (lookup == null) {
        continue;
      }
      String place =
          put.container()
              + " "
              + (lookup.commonRegions().isEmpty() ? -1 : last(lookup.commonRegions()));
      byPlace.putIfAbsent(place, lookup);
    }
    found.addAll(byPlace.values());
    return found;
  }

  private static Lookup lookupOf(
      Program program, MethodFacts method, List<MapAccess> accesses, MapAccess put) {
    MapAccess best = null;
    int bestShared = -1;
    for (MapAccess read : accesses) {
      if (read.isWrite()
          || read.op().index() >= put.op().index()
          || !read.container().equals(put.container())
          || !sameKey(method, read, put)
          || !fillsOnMiss(method, read, put)) {
        continue;
      }
      int shared = shared(read.op(), put.op()).size();
      if (shared >= bestShared) {
        best = read;
        bestShared = shared;
      }
    }
    if (best == null || !handsBackTheValue(method, accesses, put)) {
      return null;
    }
    List<Integer> common = shared(best.op(), put.op());
    int splitFrom = -1;
    int splitTo = -1;
    if (common.isEmpty()
        && !best.op().context().regions().isEmpty()
        && !put.op().context().regions().isEmpty()) {
      Region from = method.regions().get(last(best.op().context().regions()));
      Region to = method.regions().get(last(put.op().context().regions()));
      if (!from.monitor().isOpaque() && from.monitor().equals(to.monitor())) {
        splitFrom = from.id();
        splitTo = to.id();
      }
    }
    int scope = splitTo >= 0 ? splitTo : common.isEmpty() ? -1 : last(common);
    if (guardsMore(program, method, accesses, best, put, scope)) {
      return null;
    }
    return new Lookup(
        method,
        firstCheck(method, accesses, best, put, common),
        best,
        put,
        common,
        splitFrom,
        splitTo);
  }

  private static int last(List<Integer> list) {
    return list.get(list.size() - 1);
  }

  /** The regions two operations are both in, outermost first. */
  private static List<Integer> shared(Op a, Op b) {
    List<Integer> common = new ArrayList<>();
    for (int region : a.context().regions()) {
      if (b.context().regions().contains(region)) {
        common.add(region);
      }
    }
    return common;
  }

  /** The first read of the key in the regions that hold the lookup: where it starts. */
  private static MapAccess firstCheck(
      MethodFacts method,
      List<MapAccess> accesses,
      MapAccess read,
      MapAccess put,
      List<Integer> common) {
    for (MapAccess other : accesses) {
      if (other.op().index() > read.op().index()) {
        break;
      }
      if (!other.isWrite()
          && other.container().equals(put.container())
          && sameKey(method, other, put)
          && other.op().context().regions().containsAll(common)) {
        return other;
      }
    }
    return read;
  }

  /**
   * Whether a read and a put use one key: the same value (a local followed through its assignments,
   * a parameter, a computed key), or a key the put reads from the value it stores ({@code
   * map.put(user.getName(), user)} after {@code map.get(name)} missed).
   */
  static boolean sameKey(MethodFacts method, MapAccess read, MapAccess put) {
    Value key = read.key();
    if (key instanceof Value.Unknown) {
      return false;
    }
    if (key.equals(put.key())) {
      return true;
    }
    Op readKey = method.producer(key);
    Op getter = method.producer(put.key());
    if (readKey != null
        && getter != null
        && isPropertyRead(readKey)
        && isPropertyRead(getter)
        && readKey.method().equals(getter.method())
        && !readKey.receiver().isOpaque()
        && readKey.receiver().equals(getter.receiver())) {
      return true; // type.getName() for the get and again for the put: one key
    }
    return getter != null
        && isPropertyRead(getter)
        && getter.receiver().equals(put.value())
        && !(put.value() instanceof Value.Unknown);
  }

  /** A call without arguments that reads a property by its name ({@code key-accessor}). */
  private static boolean isPropertyRead(Op call) {
    return call.isCall()
        && call.kind() != Op.Kind.NEW
        && call.args().isEmpty()
        && call.receiver() != null
        && Lifecycle.hasPrefix(call.method().name(), KEY_ACCESSORS)
        && !Lifecycle.hasPrefix(call.method().name(), KEY_ACCESSOR_EXCLUSIONS);
  }

  /** Whether a call may run a method of the analysed code that writes a field of its own object. */
  private static boolean writesItsOwnFields(Program program, Op call) {
    for (MethodFacts target : program.targets(call)) {
      for (Op op : target.ops()) {
        if (op.kind() == Op.Kind.PUT_FIELD && op.receiver() instanceof Value.This) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether the put runs only when the read missed. */
  static boolean fillsOnMiss(MethodFacts method, MapAccess read, MapAccess put) {
    List<Guard> guards = put.op().context().guards();
    for (Guard guard : guards) {
      if (read.isMiss(method, guard)) {
        return true;
      }
    }
    if (read.returnsValue()
        && guards.contains(MERGED_NULL)
        && !read.op().context().guards().contains(MERGED_NULL)) {
      return true; // the found value, unwrapped through a conditional, was null
    }
    for (Op op : method.ops()) {
      if (op.index() <= read.op().index() || op.index() >= put.op().index()) {
        continue;
      }
      if (op.kind() != Op.Kind.RETURN || op.args().isEmpty()) {
        continue;
      }
      for (Guard guard : op.context().guards()) {
        if (read.isHit(method, guard) && !guards.contains(guard)) {
          return true; // a hit returns before the put
        }
      }
    }
    return false;
  }

  /**
   * Whether the method hands the cached value back: a return of what a read of the key found, of a
   * value the paths assign differently (the found one or the new one), or of a value made from what
   * a read found ({@code mapping.get(property)} on a cached mapping, a new list filled from the
   * cached configurations). A registry that throws on a duplicate, or fills a default, returns
   * nothing of the map.
   */
  private static boolean handsBackTheValue(
      MethodFacts method, List<MapAccess> accesses, MapAccess put) {
    List<MapAccess> reads = new ArrayList<>();
    for (MapAccess read : accesses) {
      if (!read.isWrite() && read.returnsValue() && read.container().equals(put.container())) {
        reads.add(read);
      }
    }
    Set<Value> derived = null;
    for (Op op : method.ops()) {
      if (op.kind() != Op.Kind.RETURN || op.args().isEmpty()) {
        continue;
      }
      Value returned = op.arg(0);
      if (returned instanceof Value.Unknown || isFoundByAny(method, reads, returned)) {
        return true;
      }
      if (derived == null) {
        derived = madeFromFound(method, reads);
      }
      if (derived.contains(returned)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isFoundByAny(MethodFacts method, List<MapAccess> reads, Value value) {
    for (MapAccess read : reads) {
      if (read.isFound(method, value)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The values a method makes from what its reads found: the result of a call on a found value (or
   * on a value the paths assign differently: the found one or the new one), of a static method or a
   * constructor given one, and an object the method creates itself that a call hands a found value
   * to (a list it fills). A call on another object that is merely handed the value (a remote
   * invocation with a cached signature) makes nothing from it. Two passes, so a value filled in a
   * loop counts.
   */
  private static Set<Value> madeFromFound(MethodFacts method, List<MapAccess> reads) {
    Set<Value> derived = new HashSet<>();
    for (int pass = 0; pass < 2; pass++) {
      for (Op op : method.ops()) {
        if (!op.isCall()) {
          continue;
        }
        boolean fromFound = false;
        List<Value> inputs = new ArrayList<>();
        if (op.receiver() != null) {
          inputs.add(op.receiver());
        }
        Op receiverMade = method.producer(op.receiver());
        boolean freshReceiver = receiverMade != null && receiverMade.kind() == Op.Kind.NEW;
        if (op.receiver() == null || freshReceiver) {
          // a static function of the value, a constructor, or a new object filled with it; not a
          // service held elsewhere that is merely handed the value (a remote call with it)
          inputs.addAll(op.args());
        }
        for (Value input : inputs) {
          // a value the paths assign differently is the found one or the new one, as for a return
          if (input instanceof Value.Unknown
              || (!input.isOpaque()
                  && (derived.contains(input) || isFoundByAny(method, reads, input)))) {
            fromFound = true;
            break;
          }
        }
        if (!fromFound) {
          continue;
        }
        derived.add(new Value.Result(op.index()));
        if (freshReceiver) {
          derived.add(op.receiver()); // a new object filled from the found value
        }
      }
    }
    return derived;
  }

  /**
   * Whether the lock does more than make the lookup atomic, in the region that holds it (the whole
   * method without one): it writes another field of this object or class on every call (a write
   * only a miss makes, such as the next id a new entry takes, is part of the fill, and a hit still
   * queues on the lock only to read), or changes the cached value ({@code listeners.get(e)} then
   * {@code list.add(l)}: a multimap), or sets up a value that another field handed out (a pooled
   * object). Setting up a value this call has just made is part of the fill, and reading the found
   * value ({@code mapping.size()}, {@code mapping.keySet()}: a {@code read-call}) changes nothing.
   */
  private static boolean guardsMore(
      Program program,
      MethodFacts method,
      List<MapAccess> accesses,
      MapAccess read,
      MapAccess put,
      int scope) {
    Set<Integer> mapCalls = new HashSet<>();
    accesses.forEach(a -> mapCalls.add(a.op().index()));
    for (Op op : method.ops()) {
      if (scope >= 0 && !op.isIn(scope)) {
        continue;
      }
      if (op.kind() == Op.Kind.PUT_FIELD
          && (op.receiver() == null || op.receiver() instanceof Value.This)
          && !op.field().equals(put.field())
          && !runsOnMiss(method, read, op)
          && !read.isFound(method, op.arg(0))
          && !op.arg(0).equals(put.value())
          && !(put.value() instanceof Value.FieldValue stored
              && stored.field().equals(op.field()))) {
        return true;
      }
      if (op.isCall()
          && op.kind() != Op.Kind.NEW
          && op.receiver() != null
          && !mapCalls.contains(op.index())
          && (read.isFound(method, op.receiver())
              || (op.receiver() instanceof Value.Unknown
                  && op.index() > put.op().index()
                  && !runsOnMiss(method, read, op)))
          && writesItsOwnFields(program, op)) {
        return true; // the found value changes under the lock (a reference count it bumps)
      }
      if (!op.isCall()
          || op.kind() == Op.Kind.NEW
          || op.receiver() == null
          || mapCalls.contains(op.index())
          || isPropertyRead(op)
          || program.match(COLLECTION_READS, op.method()).isPresent()
          || isUsed(method, op)) {
        continue;
      }
      Value receiver = op.receiver();
      if (read.isFound(method, receiver)) {
        return true; // the found value is changed under the lock
      }
      if (receiver instanceof Value.Unknown
          && op.index() > put.op().index()
          && !runsOnMiss(method, read, op)) {
        return true; // after the fill: the found value or the new one, changed either way
      }
      if (!receiver.isOpaque() && receiver.equals(put.value()) && !isFresh(method, receiver)) {
        return true; // a value borrowed from shared state is set up under the lock
      }
    }
    return false;
  }

  private static boolean runsOnMiss(MethodFacts method, MapAccess read, Op op) {
    for (Guard guard : op.context().guards()) {
      if (read.isMiss(method, guard) || guard.equals(MERGED_NULL)) {
        return true;
      }
    }
    return false;
  }

  /** Whether another operation uses what a call returned. */
  private static boolean isUsed(MethodFacts method, Op call) {
    Value result = new Value.Result(call.index());
    for (Op op : method.ops()) {
      if (result.equals(op.receiver()) || op.args().contains(result)) {
        return true;
      }
      for (Guard guard : op.context().guards()) {
        if (guard.subject().equals(result)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * A value this call makes: a new object, or what a static method or a method of a parameter or of
   * a value made here returns; not what an object held in a field hands out.
   */
  private static boolean isFresh(MethodFacts method, Value value) {
    Op producer = method.producer(value);
    if (producer == null || !producer.isCall()) {
      return false;
    }
    if (producer.kind() == Op.Kind.NEW || producer.receiver() == null) {
      return true;
    }
    Value receiver = producer.receiver();
    return receiver instanceof Value.Param
        || (receiver instanceof Value.Result && isFresh(method, receiver));
  }
}
