package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.ProjectRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The console's JavaScript modules, read as files: their {@code import} lines form a graph without a cycle, every
 * import names a module of the folder, and every module is reached from the page's one script, console.js. A cycle
 * is how one 1,000-line script and its tools came to lean on each other; one module per view keeps each readable
 * alone.
 */
class ConsoleModulesTest {
    /** A static import: {@code import { a, b } from './x.js';} or {@code import './x.js';}, over one or more lines. */
    private static final Pattern IMPORT =
            Pattern.compile("^import\\s+(?:[^'\";]*?\\s+from\\s+)?['\"]([^'\"]+)['\"];?", Pattern.MULTILINE);

    private static final Pattern DYNAMIC_IMPORT = Pattern.compile("\\bimport\\s*\\(");

    private static final String ENTRY = "console.js";

    private final Path folder = ProjectRoot.find().resolve("local/src/main/resources/console");

    @Test
    void modules_shouldImportEachOtherWithoutACycle() throws IOException {
        Map<String, List<String>> graph = graph();

        assertThat(cycle(graph))
                .as("an import cycle among the console's modules")
                .isEmpty();
        // The check reads what it should: the entry imports the views, and the views import the DOM helper.
        assertThat(graph.get(ENTRY)).contains("collection.js", "heat.js", "tools.js");
        assertThat(graph.get("collection.js")).contains("dom.js");
    }

    @Test
    void cycle_shouldBeFound_whenTwoModulesImportEachOther() {
        Map<String, List<String>> graph = Map.of(
                "console.js", List.of("tools.js", "dom.js"), "tools.js", List.of("console.js"), "dom.js", List.of());

        assertThat(cycle(graph)).containsExactly("console.js", "tools.js", "console.js");
    }

    @Test
    void imports_shouldNameModulesOfTheFolder_andReachEveryModuleFromTheEntry() throws IOException {
        Map<String, List<String>> graph = graph();

        assertThat(graph.values().stream().flatMap(List::stream))
                .as("imported modules")
                .allSatisfy(module -> assertThat(graph).containsKey(module));
        assertThat(reached(graph, ENTRY)).as("modules the page loads").isEqualTo(graph.keySet());
        assertThat(Files.readString(folder.resolve("index.html")))
                .contains("<script type=\"module\" src=\"/_console/static/" + ENTRY + "\"></script>");
    }

    @Test
    void domHelper_shouldImportNothing() throws IOException {
        assertThat(graph().get("dom.js")).as("dom.js's imports").isEmpty();
    }

    /** Each module of the folder and the modules it imports, by file name. */
    private Map<String, List<String>> graph() throws IOException {
        Map<String, List<String>> graph = new TreeMap<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".js")).toList()) {
                String text = Files.readString(file);
                String name = file.getFileName().toString();
                assertThat(DYNAMIC_IMPORT.matcher(text).find())
                        .as("%s imports at run time, out of this test's sight", name)
                        .isFalse();
                List<String> imports = new ArrayList<>();
                Matcher matcher = IMPORT.matcher(text);
                while (matcher.find()) {
                    String target = matcher.group(1);
                    assertThat(target).as("an import of %s", name).matches("\\./[a-z]+\\.js");
                    imports.add(target.substring(2));
                }
                graph.put(name, imports);
            }
        }
        assertThat(graph).as("the console's modules").containsKey(ENTRY);
        return graph;
    }

    /** One cycle as the modules along it, the first repeated at the end; empty when there is none. */
    static List<String> cycle(Map<String, List<String>> graph) {
        Set<String> done = new HashSet<>();
        for (String start : new TreeMap<>(graph).keySet()) {
            List<String> found = cycleFrom(graph, start, new ArrayList<>(), done);
            if (!found.isEmpty()) {
                return found;
            }
        }
        return List.of();
    }

    private static List<String> cycleFrom(
            Map<String, List<String>> graph, String module, List<String> path, Set<String> done) {
        int at = path.indexOf(module);
        if (at >= 0) {
            List<String> cycle = new ArrayList<>(path.subList(at, path.size()));
            cycle.add(module);
            return cycle;
        }
        if (done.contains(module)) {
            return List.of();
        }
        path.add(module);
        for (String next : graph.getOrDefault(module, List.of())) {
            List<String> found = cycleFrom(graph, next, path, done);
            if (!found.isEmpty()) {
                return found;
            }
        }
        path.remove(path.size() - 1);
        done.add(module);
        return List.of();
    }

    private static Set<String> reached(Map<String, List<String>> graph, String entry) {
        Set<String> reached = new HashSet<>();
        Deque<String> queue = new ArrayDeque<>(List.of(entry));
        while (!queue.isEmpty()) {
            String module = queue.remove();
            if (reached.add(module)) {
                queue.addAll(graph.getOrDefault(module, List.of()));
            }
        }
        return reached;
    }
}
