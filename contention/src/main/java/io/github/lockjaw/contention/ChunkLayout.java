package io.github.lockjaw.contention;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The chunks of a JFR file, read from their headers, and the recordings they belong to. A JFR file
 * is a sequence of self-contained chunks; one recording's chunks follow each other in time and its
 * last one is marked final. Chunks of different recordings joined into one file (with {@code cat})
 * cannot be read as one: the JDK's reader carries constants from one chunk to the next, and frames
 * of one program then appear in the other's events. So each recording is read on its own.
 *
 * @param recordings the whole recordings, in file order, each a run of complete chunks
 * @param damage a note that says where the file was cut or damaged; null when it is whole
 */
record ChunkLayout(List<Recording> recordings, String damage) {
  /**
   * Chunk header: magic, version, size, offsets, start nanos at 32, duration at 40, flags at 67.
   */
  private static final int HEADER_SIZE = 68;

  private static final int FINAL_CHUNK_FLAG = 2;

  /** Consecutive chunks of one recording start where the one before ended, within this. */
  private static final long SAME_RECORDING_TOLERANCE_NANOS = 1_000_000_000L;

  /** One chunk: where it is, when it started and how long it covers. */
  record Chunk(long position, long size, long startNanos, long durationNanos, boolean last) {}

  /** One recording: its chunks' byte range in the file and the time they cover. */
  record Recording(long position, long size, long durationNanos, int chunks) {}

  /** Whether the file is one whole recording (it can be read as it is). */
  boolean isOneWholeRecording(long fileSize) {
    return damage == null
        && recordings.size() == 1
        && recordings.get(0).position() == 0
        && recordings.get(0).size() == fileSize;
  }

  /**
   * Walks the chunk headers. Throws when the file does not start like a recording at all; a file
   * cut or damaged after some complete chunks keeps those, with a note.
   */
  static ChunkLayout of(Path file) throws EvidenceException {
    List<Chunk> chunks = new ArrayList<>();
    String damage = null;
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      long position = 0;
      ByteBuffer header = ByteBuffer.allocate(HEADER_SIZE);
      while (position < size) {
        header.clear();
        int n = readFully(channel, header, position);
        if (n < 16
            || header.get(0) != 'F'
            || header.get(1) != 'L'
            || header.get(2) != 'R'
            || header.get(3) != 0) {
          if (chunks.isEmpty()) {
            throw new EvidenceException(
                file
                    + " is not a JFR recording: it does not start with a JFR chunk header."
                    + " Pass a .jfr file written by -XX:StartFlightRecording or jcmd PID JFR.dump, or a thread dump.");
          }
          damage =
              file
                  + " is damaged after its first "
                  + chunks.size()
                  + " chunk(s) (at byte "
                  + position
                  + " of "
                  + size
                  + "); lockjaw used what precedes it.";
          break;
        }
        long chunkSize = header.getLong(8);
        if (chunkSize <= 0 || position + chunkSize > size) {
          if (chunkSize == 0 || chunks.isEmpty() && chunkSize < 0) {
            damage =
                file
                    + " is a recording that was still being written (its chunk is not finished): copy it with"
                    + " jcmd PID JFR.dump filename=... or stop the recording first.";
          } else {
            damage =
                file
                    + " is truncated: its chunk "
                    + (chunks.size() + 1)
                    + " needs "
                    + chunkSize
                    + " bytes from byte "
                    + position
                    + " but the file has "
                    + size
                    + "; the file was cut off while being copied or written."
                    + (chunks.isEmpty()
                        ? ""
                        : " lockjaw used the " + chunks.size() + " complete chunk(s) before it.");
          }
          break;
        }
        boolean whole = n >= HEADER_SIZE;
        chunks.add(
            new Chunk(
                position,
                chunkSize,
                whole ? header.getLong(32) : 0,
                whole ? header.getLong(40) : 0,
                whole && (header.get(67) & FINAL_CHUNK_FLAG) != 0));
        position += chunkSize;
      }
    } catch (IOException e) {
      String message = e.getMessage();
      throw new EvidenceException(
          "lockjaw cannot read "
              + file
              + ": "
              + (message == null ? e.getClass().getSimpleName() : message)
              + ".",
          e);
    }
    return new ChunkLayout(group(chunks), damage);
  }

  private static int readFully(FileChannel channel, ByteBuffer buffer, long position)
      throws IOException {
    int total = 0;
    while (buffer.hasRemaining()) {
      int n = channel.read(buffer, position + total);
      if (n < 0) {
        break;
      }
      total += n;
    }
    return total;
  }

  /**
   * Groups chunks into recordings: a new one starts after a final chunk, or where a chunk does not
   * start when the one before it ended.
   */
  static List<Recording> group(List<Chunk> chunks) {
    List<Recording> recordings = new ArrayList<>();
    int first = 0;
    for (int i = 1; i <= chunks.size(); i++) {
      boolean split = i == chunks.size();
      if (!split) {
        Chunk before = chunks.get(i - 1);
        Chunk next = chunks.get(i);
        long gap = next.startNanos() - (before.startNanos() + before.durationNanos());
        split = before.last() || Math.abs(gap) > SAME_RECORDING_TOLERANCE_NANOS;
      }
      if (split) {
        Chunk start = chunks.get(first);
        Chunk end = chunks.get(i - 1);
        long duration = 0;
        for (int c = first; c < i; c++) {
          duration += Math.max(0, chunks.get(c).durationNanos());
        }
        recordings.add(
            new Recording(
                start.position(),
                end.position() + end.size() - start.position(),
                duration,
                i - first));
        first = i;
      }
    }
    return recordings;
  }
}
