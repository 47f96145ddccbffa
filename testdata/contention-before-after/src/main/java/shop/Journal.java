package shop;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.locks.ReentrantLock;

/** A tamper-evident journal: each entry is chained into a running digest, so appends are serialised. */
public final class Journal {
  private final ReentrantLock lock = new ReentrantLock();
  private final MessageDigest chain;
  private long entries;

  public Journal() {
    try {
      chain = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  public long append(String entry) {
    byte[] bytes = entry.getBytes(StandardCharsets.UTF_8);
    lock.lock();
    try {
      for (int i = 0; i < 200; i++) {
        chain.update(bytes);
      }
      return ++entries;
    } finally {
      lock.unlock();
    }
  }
}
