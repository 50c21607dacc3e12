package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.local.catalogue.Catalogue;
import dev.oneread.operations.Descriptor;
import dev.oneread.operations.Operation;
import dev.oneread.tests.support.ConsoleHttp;
import dev.oneread.tests.support.ConsoleSources;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The expression builder's access patterns are the list of operations' (what {@link Catalogue} offers the console),
 * served to the page ({@code GET /_console/api/patterns}, which builder.js loads before any view starts); the page's
 * files write none of them. ConsolePatternsBrowserTest holds the rendered list to the same catalogue.
 */
class ConsolePatternsTest {
    private static final Path CONSOLE = ConsoleSources.CONSOLE;

    @Test
    void patterns_shouldServeTheOperationsTheCatalogueOffersTheConsole() throws Exception {
        try (LocalApi api = LocalApi.start(
                TestEngine.get(),
                "console-patterns-" + UUID.randomUUID().toString().substring(0, 8),
                Map.of())) {
            HttpResponse<String> response = ConsoleHttp.send(api, "GET", "/_console/api/patterns", null, null);

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            List<Map<String, Object>> expected = Catalogue.offeredIn(Catalogue.Tool.CONSOLE).stream()
                    .map(Operation::descriptor)
                    .map(ConsolePatternsTest::served)
                    .toList();
            assertThat(Json.readObject(response.body()))
                    .as("GET /_console/api/patterns against the catalogue's console operations, in their order")
                    .isEqualTo(Map.of("patterns", expected));
            // The one pattern that reads a project id is the one whose form shows that field.
            assertThat(expected)
                    .filteredOn(p -> p.get("name").equals("project"))
                    .singleElement()
                    .extracting(p -> p.get("inputs"))
                    .isEqualTo(List.of("project", "workspace"));
        }
    }

    @Test
    void page_shouldWriteNoAccessPatternOfItsOwn() throws IOException {
        // GIVEN the page: its pattern list holds the key condition alone, the rest comes from the server
        String page = ConsoleSources.code(CONSOLE.resolve("index.html"));
        int start = page.indexOf("<select id=\"pattern\">");
        String select = page.substring(start, page.indexOf("</select>", start));
        assertThat(Pattern.compile("<option value=\"([^\"]+)\"")
                        .matcher(select)
                        .results()
                        .map(match -> match.group(1)))
                .as("index.html's access patterns: only the key condition, the others are served")
                .containsExactly("custom");
        // AND no script names a pattern of the list: builder.js reads each one's inputs instead
        List<Path> scripts = ConsoleSources.files(CONSOLE, ".js");
        for (Operation operation : Catalogue.offeredIn(Catalogue.Tool.CONSOLE)) {
            String name = operation.descriptor().name();
            Pattern written = Pattern.compile("['\"`]" + Pattern.quote(name) + "['\"`]");
            assertThat(scripts)
                    .as(
                            "console scripts that name the pattern %s instead of taking it from GET /_console/api/patterns",
                            name)
                    .noneMatch(
                            file -> written.matcher(ConsoleSources.code(file)).find());
        }
        assertThat(ConsoleSources.code(CONSOLE.resolve("builder.js"))).contains("call('patterns')", "inputs.includes(");
    }

    /** What the console serves of an operation: its name, its route as the README writes it, its form fields. */
    private static Map<String, Object> served(Descriptor descriptor) {
        return Map.of(
                "name",
                descriptor.name(),
                "route",
                descriptor.route().toString(),
                "inputs",
                descriptor.inputs().stream()
                        .map(input -> input.name().toLowerCase(Locale.ROOT))
                        .sorted()
                        .toList());
    }
}
