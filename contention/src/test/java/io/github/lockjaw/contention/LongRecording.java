package io.github.lockjaw.contention;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Builds a long recording from a short one, for scripts/benchmark-contention.sh: the seed's chunk
 * written again and again, each copy's start moved on by the chunk's duration and only the last
 * marked final, as a recording that rotated its chunks for that long holds them. Every event is a
 * real one; the reader sees one recording of many chunks.
 *
 * <pre>java -cp ... io.github.lockjaw.contention.LongRecording seed.jfr long.jfr 200</pre>
 */
public final class LongRecording {
  private LongRecording() {}

  public static void main(String[] args) throws IOException {
    byte[] seed = Files.readAllBytes(Path.of(args[0]));
    long megabytes = Long.parseLong(args[2]);
    ByteBuffer header = ByteBuffer.wrap(seed);
    if (header.getLong(8) != seed.length) {
      throw new IllegalArgumentException(args[0] + " must be one chunk");
    }
    long start = header.getLong(32);
    long duration = Math.max(1, header.getLong(40));
    long copies = (megabytes * 1_000_000 + seed.length - 1) / seed.length;
    try (OutputStream out = Files.newOutputStream(Path.of(args[1]))) {
      for (long k = 0; k < copies; k++) {
        byte[] chunk = seed.clone();
        ByteBuffer patch = ByteBuffer.wrap(chunk);
        patch.putLong(32, start + k * duration);
        chunk[67] = (byte) (k == copies - 1 ? chunk[67] | 2 : chunk[67] & ~2);
        out.write(chunk);
      }
    }
    System.out.println(copies + " chunks of " + seed.length + " bytes");
  }
}
