package io.github.lockjaw.contention;

import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Joins, within one recording, the waits on a monitor with the samples of the thread that held it:
 * each {@code jdk.JavaMonitorEnter} names the monitor's previous owner, and the execution and
 * native method samples of that thread taken while the waiter waited show what the holder was
 * running. Memory is bounded: at most {@link #MAX_INTERVALS_PER_SITE} waits per site and {@link
 * #MAX_SAMPLES} samples are kept (each a uniform sample of all, seeded, so runs repeat), and a
 * sample keeps a reference to its stack, converted to frames only when a wait matches it.
 *
 * @param <S> the recorded stack (the JDK's {@code RecordedStackTrace}), converted on demand
 */
final class HolderSampler<S> {
  static final int MAX_INTERVALS_PER_SITE = 4096;
  static final int MAX_SAMPLES = 200_000;

  private static final class Intervals {
    long seen;
    int size;
    long[] owner = new long[16];
    long[] start = new long[16];
    long[] end = new long[16];

    void add(long ownerId, long from, long to, SplittableRandom random) {
      seen++;
      int slot;
      if (size < MAX_INTERVALS_PER_SITE) {
        if (size == owner.length) {
          owner = Arrays.copyOf(owner, size * 2);
          start = Arrays.copyOf(start, size * 2);
          end = Arrays.copyOf(end, size * 2);
        }
        slot = size++;
      } else {
        long pick = random.nextLong(seen);
        if (pick >= MAX_INTERVALS_PER_SITE) {
          return;
        }
        slot = (int) pick;
      }
      owner[slot] = ownerId;
      start[slot] = from;
      end[slot] = to;
    }
  }

  private final Map<ObservedSite, Intervals> intervals = new IdentityHashMap<>();
  private final Map<Long, String> ownerNames = new HashMap<>();
  private final SplittableRandom random = new SplittableRandom(42);
  private long samplesSeen;
  private int samples;
  private long[] sampleThread = new long[1024];
  private long[] sampleTime = new long[1024];
  private Object[] sampleStack = new Object[1024];

  /**
   * A wait at {@code site} from {@code from} to {@code to} (epoch nanos) on a monitor {@code owner}
   * held.
   */
  void wait(ObservedSite site, long owner, String ownerName, long from, long to) {
    intervals.computeIfAbsent(site, s -> new Intervals()).add(owner, from, to, random);
    if (ownerName != null && !ownerName.isEmpty() && ownerNames.size() < 10_000) {
      ownerNames.putIfAbsent(owner, ownerName);
    }
  }

  /** A sample of thread {@code thread} at {@code time} (epoch nanos) running {@code stack}. */
  void sample(long thread, long time, S stack) {
    if (stack == null) {
      return;
    }
    samplesSeen++;
    int slot;
    if (samples < MAX_SAMPLES) {
      if (samples == sampleThread.length) {
        int grown = Math.min(MAX_SAMPLES, samples * 2);
        sampleThread = Arrays.copyOf(sampleThread, grown);
        sampleTime = Arrays.copyOf(sampleTime, grown);
        sampleStack = Arrays.copyOf(sampleStack, grown);
      }
      slot = samples++;
    } else {
      long pick = random.nextLong(samplesSeen);
      if (pick >= MAX_SAMPLES) {
        return;
      }
      slot = (int) pick;
    }
    sampleThread[slot] = thread;
    sampleTime[slot] = time;
    sampleStack[slot] = stack;
  }

  boolean hasSamples() {
    return samples > 0;
  }

  /**
   * Adds to each site the holders seen: every sample of a wait's owner inside the wait counts once
   * for the holder frames it shows.
   */
  @SuppressWarnings("unchecked")
  void resolve(Function<S, List<Frame>> frames) {
    if (samples == 0 || intervals.isEmpty()) {
      return;
    }
    Integer[] order = new Integer[samples];
    for (int i = 0; i < samples; i++) {
      order[i] = i;
    }
    Arrays.sort(
        order,
        (a, b) ->
            sampleThread[a] != sampleThread[b]
                ? Long.compare(sampleThread[a], sampleThread[b])
                : Long.compare(sampleTime[a], sampleTime[b]));
    long[] threads = new long[samples];
    long[] times = new long[samples];
    for (int i = 0; i < samples; i++) {
      threads[i] = sampleThread[order[i]];
      times[i] = sampleTime[order[i]];
    }
    Map<Object, Holder> holders = new IdentityHashMap<>();
    for (Map.Entry<ObservedSite, Intervals> entry : intervals.entrySet()) {
      ObservedSite site = entry.getKey();
      Intervals waits = entry.getValue();
      // counted per holder and owner first: the tally is told each once, with its weight
      Map<Holder, Map<Long, long[]>> counts = new IdentityHashMap<>();
      for (int w = 0; w < waits.size; w++) {
        long owner = waits.owner[w];
        int from = lowerBound(threads, times, owner, waits.start[w]);
        for (int i = from; i < samples && threads[i] == owner && times[i] <= waits.end[w]; i++) {
          Object stack = sampleStack[order[i]];
          Holder holder = holders.computeIfAbsent(stack, s -> Holder.of(frames.apply((S) s), -1));
          if (!holder.frames().isEmpty()) {
            counts.computeIfAbsent(holder, h -> new HashMap<>())
                .computeIfAbsent(owner, o -> new long[1])[0]++;
          }
        }
      }
      counts.forEach(
          (holder, byOwner) ->
              byOwner.forEach(
                  (owner, n) -> site.addHolder(holder, ownerNames.getOrDefault(owner, ""), n[0])));
    }
  }

  /** The first index whose (thread, time) is at or after (thread, time). */
  private static int lowerBound(long[] threads, long[] times, long thread, long time) {
    int low = 0;
    int high = threads.length;
    while (low < high) {
      int mid = (low + high) >>> 1;
      boolean before = threads[mid] < thread || threads[mid] == thread && times[mid] < time;
      if (before) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }
}
