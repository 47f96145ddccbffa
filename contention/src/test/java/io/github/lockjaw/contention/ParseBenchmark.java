package io.github.lockjaw.contention;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Parse throughput of the contention readers on large evidence (run by
 * scripts/benchmark-contention.sh): lockjaw's reader against a bare {@link RecordingFile} loop that
 * only reads the events (the floor any JFR consumer pays), side by side, with the heap's peak.
 *
 * <pre>
 * java -Xmx64m -cp ... io.github.lockjaw.contention.ParseBenchmark big.jfr [dumps.log [joined.jfr]]
 * </pre>
 */
public final class ParseBenchmark {
  private ParseBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path recording = Path.of(args[0]);
    double mb = Files.size(recording) / 1e6;
    System.out.printf(
        Locale.ROOT,
        "recording %s: %.1f MB, max heap %d MB%n",
        recording.getFileName(),
        mb,
        Runtime.getRuntime().maxMemory() >> 20);

    long start = System.nanoTime();
    long events = 0;
    try (RecordingFile file = new RecordingFile(recording)) {
      while (file.hasMoreEvents()) {
        RecordedEvent event = file.readEvent();
        if (event.getEventType() != null) {
          events++;
        }
      }
    }
    double bare = (System.nanoTime() - start) / 1e9;
    resetPeaks();

    start = System.nanoTime();
    Observations seen = Evidence.read(List.of(recording));
    double lockjaw = (System.nanoTime() - start) / 1e9;
    long peak = peakHeap();

    System.out.printf(Locale.ROOT, "%-34s %10s %10s %12s%n", "", "seconds", "MB/s", "events");
    System.out.printf(
        Locale.ROOT,
        "%-34s %10.2f %10.1f %,12d%n",
        "bare RecordingFile loop",
        bare,
        mb / bare,
        events);
    System.out.printf(
        Locale.ROOT,
        "%-34s %10.2f %10.1f %,12d%n",
        "lockjaw JFR reader (lock events)",
        lockjaw,
        mb / lockjaw,
        seen.lockEvents());
    System.out.printf(
        Locale.ROOT,
        "lockjaw / bare time: %.2f; %d site(s); peak heap while reading %d MB%n",
        lockjaw / bare,
        seen.sites().size(),
        peak >> 20);
    System.out.printf(
        Locale.ROOT,
        "goal: 200 MB in <= 20 s -> %s (%.1f s for %.0f MB)%n",
        lockjaw * 200 / mb <= 20 ? "met" : "NOT met",
        lockjaw,
        mb);

    if (args.length > 1) {
      Path dumps = Path.of(args[1]);
      double dumpMb = Files.size(dumps) / 1e6;
      resetPeaks();
      start = System.nanoTime();
      Observations dumped = Evidence.read(List.of(dumps));
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "thread dumps %s: %.1f MB, %,d dumps in %.2f s = %.1f MB/s, %d site(s), peak heap %d MB%n",
          dumps.getFileName(),
          dumpMb,
          dumped.dumps(),
          seconds,
          dumpMb / seconds,
          dumped.sites().size(),
          peakHeap() >> 20);
    }

    if (args.length > 2) {
      Path joined = Path.of(args[2]);
      double joinedMb = Files.size(joined) / 1e6;
      resetPeaks();
      start = System.nanoTime();
      Observations read = Evidence.read(List.of(joined));
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "recordings joined with cat %s: %.1f MB, %d recordings read one by one in %.2f s = %.1f"
              + " MB/s, %,d lock events, peak heap %d MB%n",
          joined.getFileName(),
          joinedMb,
          ChunkLayout.of(joined).recordings().size(),
          seconds,
          joinedMb / seconds,
          read.lockEvents(),
          peakHeap() >> 20);
    }
  }

  private static void resetPeaks() {
    System.gc();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      pool.resetPeakUsage();
    }
  }

  /** The sum of the heap pools' peaks since the last reset: an upper bound of the live heap. */
  private static long peakHeap() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak;
  }
}
