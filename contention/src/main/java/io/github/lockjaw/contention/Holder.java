package io.github.lockjaw.contention;

import java.util.ArrayList;
import java.util.List;

/**
 * What the thread that held a contended lock was doing: its frames, top first, down to its second
 * frame outside the runtime. From a thread dump, the holder's frames down to the one that took the
 * lock (the work done under it); from JFR, the samples of the monitor's previous owner taken while
 * the others waited. What the frames show (the activity) is worked out once.
 */
public final class Holder {
  /** At most this many frames are kept: a socket read is 15 frames deep below the DAO method. */
  static final int MAX_FRAMES = 24;

  private final List<Frame> frames;
  private final String activity;
  private final List<Frame> applicationFrames;
  private final String groupKey;

  public Holder(List<Frame> frames) {
    this.frames = List.copyOf(frames);
    this.activity = RuntimeFrames.activity(this.frames);
    this.applicationFrames = this.frames.stream().filter(f -> !RuntimeFrames.isRuntime(f)).toList();
    StringBuilder key = new StringBuilder(activity);
    for (Frame frame : applicationFrames) {
      key.append('|').append(frame.method());
    }
    if (applicationFrames.isEmpty() && !this.frames.isEmpty()) {
      key.append('|').append(this.frames.get(0).method());
    }
    this.groupKey = key.toString();
  }

  /**
   * Holders doing the same thing in the same methods are one group, whatever the lines: the
   * activity and the application frames' methods.
   */
  String groupKey() {
    return groupKey;
  }

  /** The holder's frames, top first. */
  public List<Frame> frames() {
    return frames;
  }

  /**
   * The holder's frames from the top down to {@code lockDepth} (the frame that took the lock; -1
   * when unknown), and always down to its second frame outside the runtime, at most {@link
   * #MAX_FRAMES}.
   */
  static Holder of(List<Frame> stack, int lockDepth) {
    List<Frame> kept = new ArrayList<>();
    int application = 0;
    for (int i = 0; i < stack.size() && kept.size() < MAX_FRAMES; i++) {
      Frame frame = stack.get(i);
      kept.add(frame);
      if (!RuntimeFrames.isRuntime(frame)) {
        application++;
      }
      if (i >= lockDepth && application >= 2) {
        break;
      }
    }
    return new Holder(kept);
  }

  /**
   * What the holder was doing in words, e.g. {@code socket read}; empty when lockjaw cannot say.
   */
  public String activity() {
    return activity;
  }

  /** The holder's frames outside the runtime, top first. */
  public List<Frame> applicationFrames() {
    return applicationFrames;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Holder h && h.frames.equals(frames);
  }

  @Override
  public int hashCode() {
    return frames.hashCode();
  }

  @Override
  public String toString() {
    return summary();
  }

  /**
   * One line: {@code socket read (Socket$SocketInputStream.read) in OrderDao.roundTrip(OrderDao
   * .java:40) < OrderDao.findOrder(OrderDao.java:25)}: the activity and the runtime frame that
   * shows it, then the application frames, callers after the {@code <}.
   */
  public String summary() {
    if (frames.isEmpty()) {
      return "";
    }
    StringBuilder line = new StringBuilder();
    String activity = activity();
    Frame top = frames.get(0);
    List<Frame> application = applicationFrames();
    if (!activity.isEmpty()) {
      Frame shown = activityFrame();
      line.append(activity).append(" (").append(shortName(shown)).append(")");
    } else if (RuntimeFrames.isRuntime(top)) {
      line.append("in ").append(shortName(top));
    } else {
      line.append("running");
    }
    if (!application.isEmpty()) {
      line.append(" in ");
      for (int i = 0; i < application.size() && i < 3; i++) {
        if (i > 0) {
          line.append(" < ");
        }
        line.append(application.get(i).display());
      }
    }
    return line.toString();
  }

  /** Short, for a table cell: {@code socket read in OrderDao.roundTrip}. */
  public String shortSummary() {
    if (frames.isEmpty()) {
      return "";
    }
    String activity = activity();
    List<Frame> application = applicationFrames();
    String where = application.isEmpty() ? "" : shortName(application.get(0));
    if (activity.isEmpty()) {
      return where.isEmpty() ? "in " + shortName(frames.get(0)) : "running " + where;
    }
    return where.isEmpty() ? activity : activity + " in " + where;
  }

  /** The deepest frame above the first application frame that still names the activity. */
  private Frame activityFrame() {
    Frame shown = frames.get(0);
    for (Frame frame : frames) {
      if (!RuntimeFrames.isRuntime(frame)) {
        break;
      }
      if (RuntimeFrames.activity(List.of(frame)).equals(activity)) {
        shown = frame;
      }
    }
    return shown;
  }

  private static String shortName(Frame frame) {
    String simple = frame.className().substring(frame.className().lastIndexOf('.') + 1);
    return simple + "." + frame.methodName();
  }
}
