package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ConsoleHttp;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's kept reads ({@code console-queries.json}) stay small, private and whole. Issue 37: unknown form
 * fields were kept, so five reads made the file 99 MB; it was created 0644; and it was rewritten whole on every
 * read. The file keeps only the fields a read has, each bounded, at most 1 MiB (the bound docs/console.md states),
 * owner-only from its creation, and replaced by a rename.
 */
class SavedQueriesFileTest {
    private static final String JSON = "application/json";
    /** The file's bound, as docs/console.md states it. */
    private static final long MAX_FILE_BYTES = 1024 * 1024;

    private final TestEngine engine = TestEngine.get();
    private final String table = "saved-queries-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("kept");

    @TempDir
    Path dataDir;

    private LocalApi api;

    @BeforeEach
    void start() throws Exception {
        api = LocalApi.start(engine, table, Map.of(), dataDir);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    private Path file() {
        return dataDir.resolve("console-queries.json");
    }

    /** A query of the workspace's partition, with {@code extra} fields beside the read's own. */
    private HttpResponse<String> read(int limit, Map<String, Object> extra) throws Exception {
        Map<String, Object> form = new LinkedHashMap<>();
        form.put("mode", "query");
        form.put("partition", "WS#" + ws);
        form.put("limit", limit);
        form.putAll(extra);
        HttpResponse<String> read = ConsoleHttp.send(api, "POST", "/_console/api/read", JSON, Json.write(form));
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        return read;
    }

    private Map<String, Object> kept() throws Exception {
        return Json.readObject(ConsoleHttp.send(api, "GET", "/_console/api/queries", null, null)
                .body());
    }

    @Test
    void unknownFields_shouldNotBeKept_norTheTextOfAFilterThatTakesNone() throws Exception {
        // GIVEN a read that carries a field no read has, and an exists filter with a value it never reads
        Map<String, Object> filter = new LinkedHashMap<>();
        filter.put("attribute", "name");
        filter.put("operator", "exists");
        filter.put("value", "v".repeat(4_000));
        filter.put("payload", "p".repeat(1_000));
        read(7, Map.of("junk", "j".repeat(200_000), "filters", List.of(filter)));
        // THEN what is kept is the read: its own fields, none of the unknown ones, no over-long text
        @SuppressWarnings("unchecked")
        Map<String, Object> newest = (Map<String, Object>) ((List<?>) kept().get("recent")).get(0);
        assertThat(newest).containsOnlyKeys("mode", "partition", "limit", "filters");
        assertThat(newest.get("filters")).isEqualTo(List.of(Map.of("attribute", "name", "operator", "exists")));
        String written = Files.readString(file(), StandardCharsets.UTF_8);
        assertThat(written).doesNotContain("junk").doesNotContain("payload").doesNotContain("vvvv");
        assertThat(Files.size(file())).isLessThan(1_024);
    }

    @Test
    void manyLargeReads_shouldKeepTheFileWithinItsBound_andAtMost20Recent() throws Exception {
        // GIVEN 30 different reads, each as large as a read may be (10 filters of 1,024-character values), and each
        // carrying 300 KB of unknown fields, as the issue's five reads did
        for (int limit = 1; limit <= 30; limit++) {
            List<Map<String, Object>> filters = new ArrayList<>();
            for (int f = 0; f < 10; f++) {
                filters.add(Map.of(
                        "attribute", "a" + f + "x".repeat(200), "operator", "=", "value", "\u00e9".repeat(1_024)));
            }
            read(limit, Map.of("filters", filters, "junk", "j".repeat(300_000)));
            // THEN after every read the file is within its bound
            assertThat(Files.size(file())).as("after read " + limit).isLessThanOrEqualTo(MAX_FILE_BYTES);
        }
        List<?> recent = (List<?>) kept().get("recent");
        assertThat(recent).hasSizeLessThanOrEqualTo(20).isNotEmpty();
        assertThat(((Number) ((Map<?, ?>) recent.get(0)).get("limit")).intValue())
                .isEqualTo(30);
        System.out.println("saved queries after 30 maximal reads: " + Files.size(file()) + " bytes, " + recent.size()
                + " recent kept");
    }

    /** A read as large as the console keeps one: 10 filters of long names and 1,024-character values. */
    private static Map<String, Object> maximalRead(String ws, int limit) {
        List<Map<String, Object>> filters = new ArrayList<>();
        for (int f = 0; f < 10; f++) {
            filters.add(
                    Map.of("attribute", "a" + f + "x".repeat(200), "operator", "=", "value", "\u00e9".repeat(1_024)));
        }
        Map<String, Object> form = new LinkedHashMap<>();
        form.put("mode", "query");
        form.put("partition", "WS#" + ws);
        form.put("limit", limit);
        form.put("filters", filters);
        return form;
    }

    @Test
    void savesPastTheBound_shouldBeRefused_andARecentReadNeverPushTheFileOverIt() throws Exception {
        // GIVEN maximal reads saved by name until the file's bound refuses one
        List<String> accepted = new ArrayList<>();
        String refused = null;
        for (int n = 0; n < 100 && refused == null; n++) {
            String name = String.format("q%03d", n);
            HttpResponse<String> save = ConsoleHttp.send(
                    api,
                    "POST",
                    "/_console/api/queries",
                    JSON,
                    Json.write(Map.of("name", name, "query", maximalRead(ws, 1 + n))));
            if (save.statusCode() == 422) {
                // THEN the refusal says why, and the file stays within its bound
                assertThat(save.body()).contains("bytes");
                assertThat(save.headers().firstValue("content-type")).hasValue("application/problem+json");
                refused = name;
            } else {
                assertThat(save.statusCode()).as(save.body()).isEqualTo(200);
                accepted.add(name);
            }
            assertThat(Files.size(file())).as("after save " + name).isLessThanOrEqualTo(MAX_FILE_BYTES);
        }
        assertThat(refused).as("a save past 1 MiB refused before 100 saves").isNotNull();
        // WHEN a maximal read runs beside the full file
        read(99, maximalRead(ws, 99));
        // THEN the file is still within its bound, and after a restart every accepted save is read back
        assertThat(Files.size(file())).isLessThanOrEqualTo(MAX_FILE_BYTES);
        api.close();
        api = LocalApi.start(engine, table, Map.of(), dataDir);
        List<?> saved = (List<?>) kept().get("saved");
        assertThat(saved.stream().map(q -> String.valueOf(((Map<?, ?>) q).get("name"))))
                .containsExactlyElementsOf(accepted)
                .doesNotContain(refused);
    }

    @Test
    void theFile_shouldBeOwnerOnly_evenWhenAnOlderRunnerLeftItReadableByOthers() throws Exception {
        // GIVEN a first read: the file is created owner-only
        read(1, Map.of());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file())))
                .isEqualTo("rw-------");
        // AND made readable by others (as an older runner created it)
        Files.setPosixFilePermissions(file(), PosixFilePermissions.fromString("rw-r--r--"));
        // WHEN another read is kept
        read(2, Map.of());
        // THEN the file is owner-only again, and no temporary file is left beside it
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file())))
                .isEqualTo("rw-------");
        try (Stream<Path> beside = Files.list(dataDir)) {
            assertThat(beside.map(p -> p.getFileName().toString()))
                    .noneMatch(name -> name.startsWith("console-queries.json") && name.endsWith(".tmp"));
        }
    }

    @Test
    void aWrite_shouldReplaceTheFileByARename_neverRewriteItInPlace() throws Exception {
        // GIVEN the file, and a second name (a hard link) for it as it is now
        read(1, Map.of());
        Path before = dataDir.resolve("before.json");
        Files.createLink(before, file());
        String old = Files.readString(before, StandardCharsets.UTF_8);
        Object inode = Files.getAttribute(file(), "unix:ino");
        // WHEN another read is kept
        read(2, Map.of());
        // THEN the file is a new one (a rename put it in place), and the old one was never written into: a reader
        // of the file sees the old content or the new, never a part
        assertThat(Files.getAttribute(file(), "unix:ino")).isNotEqualTo(inode);
        assertThat(Files.readString(before, StandardCharsets.UTF_8)).isEqualTo(old);
        assertThat(Json.readObject(Files.readString(file(), StandardCharsets.UTF_8)))
                .containsKey("recent");
    }

    @Test
    void aFileOverItsBound_shouldNotBeRead_andBeReplacedByABoundedOne() throws Exception {
        // GIVEN start-api stopped, and a 3 MB file of an older runner in the data directory
        api.close();
        Map<String, Object> huge = Map.of(
                "recent", List.of(Map.of("mode", "scan", "junk", "j".repeat(3 * 1024 * 1024))), "saved", Map.of());
        Files.writeString(file(), Json.write(huge), StandardCharsets.UTF_8);
        // WHEN start-api starts on it, and a read is kept
        api = LocalApi.start(engine, table, Map.of(), dataDir);
        assertThat((List<?>) kept().get("recent")).isEmpty();
        read(3, Map.of());
        // THEN the file holds that read alone
        assertThat(Files.size(file())).isLessThan(1_024);
        assertThat((List<?>) kept().get("recent")).hasSize(1);
    }
}
