package io.github.lockjaw.engine.baseline;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.lockjaw.engine.io.IoProblems;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BaselineTest {
  @TempDir Path dir;

  @Test
  void aMissingFileIsAnEmptyBaseline() throws Exception {
    assertEquals(0, Baseline.read(dir.resolve("lockjaw-baseline.json")).size());
  }

  @Test
  void writtenEntriesAreReadBackByFingerprint() throws Exception {
    Path file = dir.resolve("sub/lockjaw-baseline.json");
    Baseline.write(
        file,
        List.of(
            new Baseline.Entry("b2", "SharedMonitorDao", "src/Dao.java", "Dao", "load(String)", 12),
            new Baseline.Entry(
                "a1", "ClassMonitorCache", "src/Info.java", "Info", "of(Class)", 40)));
    Baseline baseline = Baseline.read(file);
    assertTrue(baseline.contains("a1"));
    assertTrue(baseline.contains("b2"));
    assertFalse(baseline.contains("c3"));
    String text = Files.readString(file, UTF_8);
    assertTrue(
        text.indexOf("src/Dao.java") < text.indexOf("src/Info.java"), "entries are sorted by file");
  }

  @Test
  void malformedJsonGetsAMessageThatSaysWhatToDo() throws Exception {
    Path file = dir.resolve("lockjaw-baseline.json");
    Files.writeString(file, "{ \"tool\": \"lockjaw\", \"entries\": [ ", UTF_8);
    Baseline.BaselineException e =
        assertThrows(Baseline.BaselineException.class, () -> Baseline.read(file));
    assertTrue(e.getMessage().contains("is not a valid baseline file"), e.getMessage());
    assertTrue(e.getMessage().contains("mvn lockjaw:baseline"), e.getMessage());
  }

  @Test
  void anotherToolsFileOrAnEntryWithoutFingerprintIsRejected() throws Exception {
    Path other = dir.resolve("other.json");
    Files.writeString(other, "{\"tool\":\"pmd\",\"entries\":[]}", UTF_8);
    assertThrows(Baseline.BaselineException.class, () -> Baseline.read(other));
    Path noFingerprint = dir.resolve("nofp.json");
    Files.writeString(
        noFingerprint, "{\"tool\":\"lockjaw\",\"entries\":[{\"check\":\"X\"}]}", UTF_8);
    Baseline.BaselineException e =
        assertThrows(Baseline.BaselineException.class, () -> Baseline.read(noFingerprint));
    assertTrue(e.getMessage().contains("fingerprint"), e.getMessage());
  }

  @Test
  void aBinaryFileIsNotCalledAPermissionProblem() throws Exception {
    Path file = dir.resolve("lockjaw-baseline.json");
    Files.write(file, new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0, (byte) 0xFF, (byte) 0xFE});
    Baseline.BaselineException e =
        assertThrows(Baseline.BaselineException.class, () -> Baseline.read(file));
    assertTrue(e.getMessage().contains("it is not a text file"), e.getMessage());
    assertFalse(e.getMessage().contains("permissions"), e.getMessage());
  }

  @Test
  void aTruncatedOrWrongSchemaFileGetsNoGsonInternals() throws Exception {
    Path truncated = dir.resolve("t.json");
    Files.writeString(
        truncated,
        "{\"tool\":\"lockjaw\",\"formatVersion\":1,\"entries\":[{\"fingerprint\":\"ab",
        UTF_8);
    Path schema = dir.resolve("s.json");
    Files.writeString(
        schema, "{\"tool\":\"lockjaw\",\"formatVersion\":1,\"entries\":{\"a\":1}}", UTF_8);
    Path entry = dir.resolve("e.json");
    Files.writeString(
        entry,
        "{\"tool\":\"lockjaw\",\"formatVersion\":1,\"entries\":[{\"fingerprint\":7}]}",
        UTF_8);
    for (Path file : List.of(truncated, schema, entry)) {
      String message =
          assertThrows(Baseline.BaselineException.class, () -> Baseline.read(file)).getMessage();
      assertTrue(message.contains("is not a valid baseline file"), message);
      assertFalse(
          message.contains("gson")
              || message.contains("Gson")
              || message.contains("Expected BEGIN"),
          message);
    }
    assertTrue(
        assertThrows(Baseline.BaselineException.class, () -> Baseline.read(schema))
            .getMessage()
            .contains("\"entries\" must be an array"));
    assertTrue(
        assertThrows(Baseline.BaselineException.class, () -> Baseline.read(entry))
            .getMessage()
            .contains("entry 1 has no \"fingerprint\" string"));
    assertTrue(
        assertThrows(Baseline.BaselineException.class, () -> Baseline.read(truncated))
            .getMessage()
            .contains("it is not complete JSON"));
  }

  @Test
  void anUnknownFormatVersionIsRefused() throws Exception {
    Path file = dir.resolve("lockjaw-baseline.json");
    Files.writeString(file, "{\"tool\":\"lockjaw\",\"formatVersion\":99,\"entries\":[]}", UTF_8);
    String message =
        assertThrows(Baseline.BaselineException.class, () -> Baseline.read(file)).getMessage();
    assertTrue(message.contains("format version 99"), message);
    assertTrue(message.contains("a newer lockjaw wrote it"), message);
    Path text = dir.resolve("nv.json");
    Files.writeString(text, "{\"tool\":\"lockjaw\",\"formatVersion\":\"1\",\"entries\":[]}", UTF_8);
    assertTrue(
        assertThrows(Baseline.BaselineException.class, () -> Baseline.read(text))
            .getMessage()
            .contains("\"formatVersion\" must be the number 1"));
  }

  @Test
  void aBaselineThatCannotBeWrittenSaysWhy() throws Exception {
    // a regular file where the directory should be: the write fails for root too (permission
    // bits would not stop root); IoProblemsTest covers the "permission denied" wording
    Path notADirectory = dir.resolve("locked");
    Files.writeString(notADirectory, "a file, not a directory", UTF_8);
    IOException e =
        assertThrows(
            IOException.class, () -> Baseline.write(notADirectory.resolve("b.json"), List.of()));
    String reason = IoProblems.describe(e);
    assertTrue(reason.contains("locked"), "names the path: " + reason);
    assertFalse(reason.isBlank(), reason);
  }
}
