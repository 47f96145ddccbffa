package io.github.lockjaw.engine.analyzer;

import java.util.List;

/**
 * What the forked analyzer is asked to do, written as JSON by the plugin.
 *
 * @param sources the Java files to compile
 * @param classpath the module's classpath
 * @param javacOptions e.g. {@code --release 17}, {@code -encoding UTF-8}
 * @param errorProneFlags {@code -Xep:Name:LEVEL} overrides
 * @param analyze false to only compile (the fix goal's verification)
 * @param output where to write the {@link AnalysisResult} JSON
 * @param resourceDirectories the module's resource directories, where the analyzer looks for the
 *     configuration that runs request handlers on virtual threads ({@link VirtualThreadsSetting}:
 *     it reads lockjaw's knowledge, which needs the analyzer's JDK 21+, so the plugin does not)
 */
public record AnalysisRequest(
    List<String> sources,
    List<String> classpath,
    List<String> javacOptions,
    List<String> errorProneFlags,
    boolean analyze,
    String output,
    List<String> resourceDirectories) {}
