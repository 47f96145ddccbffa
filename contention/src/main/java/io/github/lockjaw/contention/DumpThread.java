package io.github.lockjaw.contention;

import java.util.ArrayList;
import java.util.List;

/**
 * One thread of a thread dump as a reader parsed it, whatever the format (HotSpot's text, {@code
 * jcmd Thread.dump_to_file} text or JSON, an OpenJ9 javacore): its state, its frames, the lock it
 * waits for and the locks it holds. Filled by the reader, judged by {@link DumpAssembler}.
 */
final class DumpThread {
  /** What a thread waits for: a monitor to enter, a notification, a lock to park on. */
  enum Wait {
    ENTER,
    WAIT,
    PARK
  }

  /** A lock the thread holds, and the depth of the frame that took it (-1 when unknown). */
  record Held(String identity, int depth) {}

  String name = "";
  String tid = "";

  /** HotSpot's state name (BLOCKED, WAITING, ...); empty when the format gives none (JDK 21). */
  String state = "";

  /** HotSpot's detail after the state: {@code on object monitor}, {@code sleeping}, ... */
  String stateDetail = "";

  final List<Frame> frames = new ArrayList<>();
  Wait wait;

  /** The identity of the object waited for: an address, or {@code java.lang.Class@6587524c}. */
  String waitIdentity = "";

  /** The class of the object waited for, e.g. {@code java.lang.Class for shop.Catalog}. */
  String waitClass = "";

  /** The thread id of a java.util.concurrent lock's owner, when the dump names it. */
  String ownerTid = "";

  /** The owner's name, when the dump names it (OpenJ9: {@code Owned by: "Worker Thread 0"}). */
  String ownerName = "";

  final List<Held> held = new ArrayList<>();

  /** Records the first lock line of a thread: what it waits for. */
  void waitsFor(Wait kind, String identity, String className) {
    if (wait == null) {
      wait = kind;
      waitIdentity = identity == null ? "" : identity;
      waitClass = className == null || className.isEmpty() ? classOf(waitIdentity) : className;
    }
  }

  /** A lock taken by the frame read last. */
  void holds(String identity) {
    held.add(new Held(identity, frames.size() - 1));
  }

  /** A lock held by the thread, taken by a frame the dump does not name (ownable synchronizers). */
  void holdsSomewhere(String identity) {
    held.add(new Held(identity, -1));
  }

  /**
   * The class of an identity {@code java.lang.Class@6587524c} or {@code
   * java/lang/Object@0xB56658D8}; empty for a bare address.
   */
  static String classOf(String identity) {
    int at = identity.lastIndexOf('@');
    return at <= 0 ? "" : identity.substring(0, at).replace('/', '.');
  }
}
