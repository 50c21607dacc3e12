package dev.oneread.tests.support;

import dev.oneread.local.ProjectRoot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The console's and the engine's source files as the tests that scan them read them: which files, and their code
 * without comments, so that a file may say a name it must not write.
 *
 * <pre>{@code assertThat(ConsoleSources.files(ConsoleSources.CONSOLE, ".js")).noneMatch(f -> ConsoleSources.code(f).contains("Detail"));}</pre>
 */
public final class ConsoleSources {
    /** The console page's folder: its HTML, style and scripts, served from the runner jar. */
    public static final Path CONSOLE = ProjectRoot.find().resolve("local/src/main/resources/console");
    /** A line comment, a block comment, or an HTML comment: what a file may say about a name without writing it. */
    private static final Pattern COMMENT = Pattern.compile("//[^\\n]*|/\\*[\\s\\S]*?\\*/|<!--[\\s\\S]*?-->");

    private ConsoleSources() {}

    /** The files directly in {@code folder} whose names end in one of {@code endings}, in name order. */
    public static List<Path> files(Path folder, String... endings) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(
                            f -> Stream.of(endings).anyMatch(e -> f.toString().endsWith(e)))
                    .sorted()
                    .toList();
        }
    }

    /** A file's text without its comments. */
    public static String code(Path file) {
        try {
            return COMMENT.matcher(Files.readString(file)).replaceAll("");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
