package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ConsoleHttp;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The console holds numbers and bookkeeping to the API's rules, through the one validation path (issue 37): a
 * number is read in time linear in its text before anything parses it (a Scan filter of {@code 1e999999999} took
 * the runner to 2.76 GB), a number the API stores is one the console edits and imports back, and a lease, a quota, a
 * purge mark or counts out of the API's bounds are refused with the attribute and the rule named, nothing written.
 * How fast the refusal is, and what memory it takes, is measured in bench/java's NumberGuardBench, not here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleNumbersTest {
    private static final String JSON = "application/json";
    /** Words of DynamoDB's magnitude rule, which every refusal of a number names. */
    private static final String MAGNITUDE = "1E-130";

    private final TestEngine engine = TestEngine.get();
    private final String table = "numbers-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("numbers");
    private LocalApi api;

    @BeforeAll
    void start() throws Exception {
        api = LocalApi.start(engine, table, Map.of());
        api.send("POST", "/workspaces", "{\"id\":\"" + ws + "\",\"name\":\"Numbers\"}", List.of(), true);
    }

    @AfterAll
    void stop() {
        api.close();
    }

    static Stream<String> outOfRange() {
        return Stream.of("1e999999999", "1e10000000", "1e126", "-1e-131", "1" + "0".repeat(126));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("outOfRange")
    void numbersOutOfRange_inAFilterAnImportAndAnEdit_shouldBe4xxNamingTheRule_andChangeNothing(String number)
            throws Exception {
        // GIVEN the table as it is
        String before = ConsoleHttp.export(api);
        String fresh = Api.freshWorkspaceId("numin");
        // WHEN the number is a Scan filter's value, a setting of an imported workspace, and a setting in an edit
        HttpResponse<String> filter = send(
                "/_console/api/read",
                "{\"mode\":\"scan\",\"filters\":[{\"attribute\":\"version\",\"value\":\"" + number
                        + "\",\"type\":\"N\"}]}");
        HttpResponse<String> imported = send(
                "/_console/api/fixtures",
                Json.write(Map.of("Items", List.of(workspaceItem(fresh, w -> w.put("settings", settingsOf(number)))))));
        HttpResponse<String> edited =
                send("/_console/api/item/edit", edit(ws, 1, w -> w.put("settings", settingsOf(number))));
        // THEN each is a problem that states DynamoDB's rule, magnitude included, and nothing changed
        ConsoleHttp.assertProblem(filter, 400, MAGNITUDE);
        ConsoleHttp.assertProblem(imported, 400, MAGNITUDE);
        ConsoleHttp.assertProblem(edited, 400, MAGNITUDE);
        assertThat(ConsoleHttp.export(api)).isEqualTo(before);
    }

    /** The API's own refusal of a settings number states the whole rule: the magnitude as well as the digits. */
    @Test
    void theApisRefusalOfASettingsNumber_shouldStateTheMagnitudeRule() throws Exception {
        // WHEN a workspace is created with a setting beyond DynamoDB's magnitude
        String tenant = Api.freshWorkspaceId("magnitude");
        HttpResponse<String> refused = api.send(
                "POST",
                "/workspaces",
                "{\"id\":\"" + tenant + "\",\"name\":\"M\",\"settings\":{\"a\":1e126}}",
                List.of(),
                true);
        // THEN a 400 whose detail says what range a number must be in
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        assertThat(refused.body()).contains("1E-130").contains("9.9999999999999999999999999999999999999E+125");
    }

    /** A past bug: 1e40 was stored as its 41 digits, whose trailing zeros the console counted as precision. */
    @Test
    void aSettingOf1e40_storedByTheApi_shouldBeEditableInTheConsole() throws Exception {
        // GIVEN a workspace whose tenant stored the setting 1e40 through the API
        String tenant = Api.freshWorkspaceId("big");
        HttpResponse<String> created =
                api.send("POST", "/workspaces", "{\"id\":\"" + tenant + "\",\"name\":\"Big\"}", List.of(), true);
        HttpResponse<String> patched = api.send(
                "PATCH",
                "/workspaces/" + tenant,
                "{\"settings\":{\"a\":1e40}}",
                List.of(tenant),
                false,
                "If-Match",
                created.headers().firstValue("ETag").orElseThrow());
        assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
        // WHEN the console edits its name, keeping every attribute as stored
        Map<String, Object> stored = exported(api, "WS#" + tenant, "META");
        Map<String, Object> attributes = new LinkedHashMap<>(stored);
        attributes.remove("EntityRef");
        attributes.remove("Detail");
        attributes.put("name", Map.of("S", "Big, renamed"));
        HttpResponse<String> edited = send(
                "/_console/api/item/edit",
                Json.write(
                        Map.of("partition", "WS#" + tenant, "sort", "META", "version", 2, "attributes", attributes)));
        // THEN it is written, and the API reads the setting back as it was
        assertThat(edited.statusCode()).as(edited.body()).isEqualTo(200);
        assertThat(Json.readObject(edited.body())).containsEntry("version", 3);
        HttpResponse<String> read = api.send("GET", "/workspaces/" + tenant, null, List.of(tenant), false);
        assertThat(read.body()).contains("\"name\":\"Big, renamed\"").contains("\"a\":1" + "0".repeat(40));
    }

    /** An attribute out of the API's bounds, the attribute's name, and a word of the rule its refusal states. */
    static Stream<Arguments> outOfBounds() {
        long now = System.currentTimeMillis();
        return Stream.of(
                Arguments.of("projectQuota", Map.of("N", "0"), "from 1 to 2147483647"),
                Arguments.of("projectQuota", Map.of("N", "-5"), "from 1 to 2147483647"),
                Arguments.of("projectQuota", Map.of("N", "-2147483648"), "from 1 to 2147483647"),
                Arguments.of("migrationUntil", Map.of("N", "999999999999999999"), "minutes from now"),
                Arguments.of("migrationUntil", Map.of("N", Long.toString(now + 3_600_000)), "minutes from now"),
                Arguments.of("migrationRun", Map.of("S", "01ARZ3NDEKTSV4RRFFQ69G5FAV"), "without migrationUntil"),
                Arguments.of("stats", stats("-5", "0", "0", "-5", "2026-01-01T00:00:00Z"), "stats job"),
                Arguments.of("stats", stats("1", "1", "0", "7", "2026-01-01T00:00:00Z"), "stats job"),
                Arguments.of("stats", stats("1", "0", "0", "1", "2999-01-01T00:00:00Z"), "stats job"));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("outOfBounds")
    void bookkeepingOutOfBounds_shouldBeRefusedByEditAndImport_namingTheAttributeAndTheRule(
            String attribute, Map<String, Object> value, String rule) throws Exception {
        // GIVEN a workspace of its own at version 1, and the table as it is
        String own = Api.freshWorkspaceId("bounded");
        api.send("POST", "/workspaces", "{\"id\":\"" + own + "\",\"name\":\"Bounded\"}", List.of(), true);
        String before = ConsoleHttp.export(api);
        String fresh = Api.freshWorkspaceId("bounds");
        // WHEN an edit and an import (of a new workspace) carry the attribute
        HttpResponse<String> edited = send("/_console/api/item/edit", edit(own, 1, w -> w.put(attribute, value)));
        HttpResponse<String> imported = send(
                "/_console/api/fixtures",
                Json.write(Map.of("Items", List.of(workspaceItem(fresh, w -> w.put(attribute, value))))));
        // THEN both are refused, naming the attribute and its rule, and nothing changed
        ConsoleHttp.assertProblem(edited, 422, attribute);
        ConsoleHttp.assertProblem(imported, 422, attribute);
        assertThat(edited.body()).contains(rule);
        assertThat(imported.body()).contains(rule);
        assertThat(ConsoleHttp.export(api)).isEqualTo(before);
        HttpResponse<String> gone = api.send("GET", "/workspaces/" + fresh, null, List.of(fresh), false);
        assertThat(gone.statusCode()).isEqualTo(404);
    }

    @Test
    void aPurgeMarkInTheFuture_shouldNotImport() throws Exception {
        // GIVEN a workspace being purged, marked as deleted in a year
        String fresh = Api.freshWorkspaceId("marked");
        Map<String, Object> item = workspaceItem(fresh, w -> {
            w.put("purgeRun", Map.of("S", "01ARZ3NDEKTSV4RRFFQ69G5FAV"));
            w.put("deletedAt", Map.of("S", "2999-01-01T00:00:00Z"));
        });
        String before = ConsoleHttp.export(api);
        // WHEN it is imported
        HttpResponse<String> imported = send("/_console/api/fixtures", Json.write(Map.of("Items", List.of(item))));
        // THEN refused, naming the mark and its rule
        ConsoleHttp.assertProblem(imported, 422, "deletedAt");
        assertThat(imported.body()).contains("not in the future");
        assertThat(ConsoleHttp.export(api)).isEqualTo(before);
    }

    /**
     * Every kind of value the API stores, written through the API, exports and imports back byte for byte: numbers
     * at DynamoDB's limits (1e40 among them), text in many scripts, nesting, an operator's quota, a keyed create's
     * idempotency record, and a hot tenant's project in its shard.
     */
    @Test
    void everyValueTheApiStores_shouldExportAndImportBack_byteForByte() throws Exception {
        // GIVEN a table written through the API only, one tenant of it sharded
        String source = "numbers-trip-" + UUID.randomUUID().toString().substring(0, 8);
        String plain = Api.freshWorkspaceId("trip");
        String hot = Api.freshWorkspaceId("triphot");
        Map<String, String> overrides = Map.of("HotTenantShards", hot + "=4");
        try (LocalApi from = LocalApi.start(engine, source, overrides);
                LocalApi into = LocalApi.start(engine, source + "-copy", overrides)) {
            String settings = "{\"big\":1e40,\"max\":9.9999999999999999999999999999999999999E+125,"
                    + "\"min\":1E-130,\"negativeMin\":-1e-130,\"tiny\":-0.0000000000000000000000000000012345,"
                    + "\"digits\":12345678901234567890123456789012345678,\"fraction\":0.12345678901234567890123456789012345678,"
                    + "\"zero\":0,\"negativeZero\":-0.0,\"int\":-42,\"long\":9007199254740993,\"flag\":true,\"none\":null,"
                    + "\"text\":\"caf\u00e9 \u65e5\u672c \u0645\u0631\u062d\u0628\u0627 \ud83d\ude00\","
                    + "\"\u00fcnic\u00f8de \ud83d\udd11\":\"k\",\"nested\":{\"list\":[1,\"two\",[3.5,{\"four\":false}],{}],"
                    + "\"map\":{\"deep\":{\"deeper\":[]}}}}";
            created(from.send(
                    "POST",
                    "/workspaces",
                    "{\"id\":\"" + plain + "\",\"name\":\"Trip \u00e9\u00e8 \ud83d\ude80\",\"settings\":" + settings
                            + ",\"projectQuota\":2147483647}",
                    List.of(),
                    true));
            HttpResponse<String> hotCreated =
                    from.send("POST", "/workspaces", "{\"id\":\"" + hot + "\",\"name\":\"Hot\"}", List.of(), true);
            created(hotCreated);
            HttpResponse<String> patched = from.send(
                    "PATCH",
                    "/workspaces/" + hot,
                    "{\"settings\":{\"a\":1e40,\"b\":-1E+125}}",
                    List.of(hot),
                    false,
                    "If-Match",
                    hotCreated.headers().firstValue("ETag").orElseThrow());
            assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
            for (String workspace : List.of(plain, hot)) {
                created(from.createProject(
                        workspace,
                        "{\"name\":\"\u0391\u03b8\u03ae\u03bd\u03b1\",\"description\":"
                                + "\"d\u00e9j\u00e0 vu \u2014 \ud83c\udf0d\"}"));
                created(from.createProject(
                        workspace,
                        "{\"name\":\"keyed\",\"status\":\"PAUSED\"}",
                        "Idempotency-Key",
                        "trip-" + workspace));
            }
            String exported = ConsoleHttp.export(from);
            assertThat(exported).contains("WS#" + hot + "#0").contains("IDEM#").contains("1" + "0".repeat(40));
            // WHEN it is imported into an empty table (bookkeeping included), and that table exported
            HttpResponse<String> imported =
                    into.send("POST", "/_console/api/fixtures?bookkeeping=include", exported, List.of(), false);
            String again = ConsoleHttp.export(into);
            // THEN every item went in, and the second export is the first, byte for byte
            assertThat(imported.statusCode()).as(imported.body()).isEqualTo(200);
            assertThat(Json.readObject(imported.body()).get("imported"))
                    .isEqualTo(Json.readObject(exported).get("Count"));
            assertThat(again).isEqualTo(exported);
            // AND the API serves the copy's values as it served the original's
            assertThat(into.send("GET", "/workspaces/" + plain, null, List.of(plain), false)
                            .body())
                    .isEqualTo(from.send("GET", "/workspaces/" + plain, null, List.of(plain), false)
                            .body());
        }
    }

    private static void created(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    }

    private HttpResponse<String> send(String path, String body) throws Exception {
        return ConsoleHttp.send(api, "POST", path, JSON, body);
    }

    private static Map<String, Object> settingsOf(String number) {
        return Map.of("M", Map.of("n", Map.of("N", number)));
    }

    private static Map<String, Object> stats(String active, String paused, String archived, String total, String asOf) {
        return Map.of(
                "M",
                Map.of(
                        "ACTIVE", Map.of("N", active),
                        "PAUSED", Map.of("N", paused),
                        "ARCHIVED", Map.of("N", archived),
                        "total", Map.of("N", total),
                        "asOf", Map.of("S", asOf)));
    }

    /** A workspace item as the API writes one, changed by {@code change}. */
    private static Map<String, Object> workspaceItem(String id, Consumer<Map<String, Object>> change) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("EntityRef", Map.of("S", "WS#" + id));
        item.put("Detail", Map.of("S", "META"));
        item.putAll(workspaceAttributes(1));
        change.accept(item);
        return item;
    }

    private static Map<String, Object> workspaceAttributes(long version) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        attributes.put("name", Map.of("S", "Numbers"));
        attributes.put("settings", Map.of("M", Map.of()));
        attributes.put("createdAt", Map.of("S", "2026-01-01T00:00:00Z"));
        attributes.put("updatedAt", Map.of("S", "2026-01-01T00:00:00Z"));
        attributes.put("version", Map.of("N", Long.toString(version)));
        return attributes;
    }

    /** An edit of a workspace read at {@code version}, its attributes changed by {@code change}. */
    private static String edit(String workspace, long version, Consumer<Map<String, Object>> change) {
        Map<String, Object> attributes = workspaceAttributes(version);
        change.accept(attributes);
        return Json.write(
                Map.of("partition", "WS#" + workspace, "sort", "META", "version", version, "attributes", attributes));
    }

    /** One item of the console's export, by key. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> exported(LocalApi api, String partition, String sort) throws Exception {
        List<Map<String, Object>> items = (List<Map<String, Object>>)
                Json.readObject(ConsoleHttp.export(api)).get("Items");
        return new ArrayList<>(items)
                .stream()
                        .filter(i -> Map.of("S", partition).equals(i.get("EntityRef"))
                                && Map.of("S", sort).equals(i.get("Detail")))
                        .findFirst()
                        .orElseThrow();
    }
}
