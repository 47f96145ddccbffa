package shop;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/** An append-only journal; its lock guards the list and is right as it is. */
public final class Journal {
  private final ReentrantLock lock = new ReentrantLock();
  private final List<String> entries = new ArrayList<>();

  public int append(String entry) {
    lock.lock();
    try {
      entries.add(entry);
      return entries.size();
    } finally {
      lock.unlock();
    }
  }
}
