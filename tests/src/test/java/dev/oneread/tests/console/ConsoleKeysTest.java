package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.keys.KeyCodec;
import dev.oneread.local.ProjectRoot;
import dev.oneread.model.PartitionCapacity;
import dev.oneread.tests.support.ConsoleHttp;
import dev.oneread.tests.support.ConsoleSources;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The key attribute names and the partition limits are each declared once, on the Java side ({@link KeyCodec},
 * {@link PartitionCapacity}), and served: the names to the page ({@code GET /_console/api/keys}, which keys.js
 * loads before any view starts), the limits to the engine (engine.js's options) and through its heat frames to the
 * Heat tab. The page's and the engine's files write neither; the Java classes that once wrote the limits read them.
 */
class ConsoleKeysTest {
    private static final Path ROOT = ProjectRoot.find();

    @Test
    void keys_shouldServeTheKeyCodecNames() throws Exception {
        try (LocalApi api = LocalApi.start(
                TestEngine.get(), "console-keys-" + UUID.randomUUID().toString().substring(0, 8), Map.of())) {
            HttpResponse<String> response = ConsoleHttp.send(api, "GET", "/_console/api/keys", null, null);

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(Json.readObject(response.body()))
                    .isEqualTo(Map.of(
                            "partition", KeyCodec.PARTITION_KEY,
                            "sort", KeyCodec.SORT_KEY,
                            "index", KeyCodec.INDEX_NAME,
                            "indexPartition", KeyCodec.INDEX_PARTITION_KEY,
                            "indexSort", KeyCodec.INDEX_SORT_KEY));
        }
    }

    @Test
    void page_shouldWriteNoKeyAttributeName() throws IOException {
        List<Path> files = ConsoleSources.files(ROOT.resolve("local/src/main/resources/console"), ".js", ".html");

        // GSI1 stands for the index's key names too (GSI1PK, GSI1SK): each contains it.
        for (String name : List.of(KeyCodec.PARTITION_KEY, KeyCodec.SORT_KEY, KeyCodec.INDEX_NAME)) {
            Pattern written = Pattern.compile("\\b" + Pattern.quote(name));
            assertThat(files)
                    .as("console files that write %s instead of taking it from GET /_console/api/keys", name)
                    .noneMatch(
                            file -> written.matcher(ConsoleSources.code(file)).find());
        }
        // The scan reads what it should: the page fills the names it shows from the served ones.
        assertThat(ConsoleSources.code(ROOT.resolve("local/src/main/resources/console/index.html")))
                .contains("data-key-name=\"partition\"", "data-key-name=\"sort\"", "data-key-name=\"index\"");
        assertThat(ConsoleSources.code(ROOT.resolve("local/src/main/resources/console/tools.js")))
                .contains("keys.partition", "keys.sort", "keys.index");
    }

    @Test
    void partitionLimits_shouldBeWrittenOnlyInPartitionCapacity() throws IOException {
        List<Path> files = new ArrayList<>(ConsoleSources.files(ROOT.resolve("local/engine"), ".js"));
        files.add(ROOT.resolve("local/engine.js"));
        files.addAll(ConsoleSources.files(ROOT.resolve("local/src/main/resources/console"), ".js"));
        files.add(ROOT.resolve("shared/store/src/main/java/dev/oneread/store/calls/JobPace.java"));
        files.add(ROOT.resolve("local/src/main/java/dev/oneread/local/engine/PartitionLimits.java"));
        // 3,000 read units; the write limit's 1,000 as a constant (a bare 1000 is also milliseconds in a second).
        Pattern written = Pattern.compile("\\b3_?000\\b|UNITS\\s*=\\s*[0-9]|\\b1_000\\b");

        assertThat(files)
                .as("files that write a partition limit instead of reading PartitionCapacity.DYNAMODB")
                .allSatisfy(
                        file -> assertThat(Files.exists(file)).as("%s", file).isTrue())
                .noneMatch(file -> written.matcher(ConsoleSources.code(file)).find());
        assertThat(ConsoleSources.code(ROOT.resolve("local/engine.js")))
                .contains("argv['partition-read-units']", "argv['partition-write-units']");
        assertThat(PartitionCapacity.DYNAMODB).isEqualTo(new PartitionCapacity(3_000, 1_000));
    }
}
