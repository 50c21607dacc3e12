package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.keys.ShardPlan;
import dev.oneread.local.runner.SampleData;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * The console's fixture import takes only what the API could have written: each item decoded by the key codec
 * and the store's own item mapping. Issue 22 imported a forged hot-tenant report entry, a forged idempotency
 * record and a project with {@code status: BOGUS}, and the API then answered HTML with a cookie, and 500s.
 */
class FixtureImportTest {
    private final TestEngine engine = TestEngine.get();

    /** One refused kind: the item, and a word its reason must hold. */
    private record Refused(Map<String, Object> item, String because) {}

    @Test
    void import_shouldRefuseEveryItemTheApiCouldNotHaveWritten_andChangeNothing() throws Exception {
        // GIVEN a table with a workspace and a project made through the API
        String table = "fixture-refused-" + UUID.randomUUID().toString().substring(0, 8);
        String ws = Api.freshWorkspaceId("fixture");
        try (LocalApi api = LocalApi.start(engine, table, Map.of())) {
            api.send("POST", "/workspaces", "{\"id\":\"" + ws + "\",\"name\":\"Fixture\"}", List.of(), true);
            HttpResponse<String> created =
                    api.send("POST", "/workspaces/" + ws + "/projects", "{\"name\":\"one\"}", List.of(ws), false);
            Map<String, Object> valid = exportedItems(api).stream()
                    .filter(i -> i.toString()
                            .contains("PROJ#" + Json.readObject(created.body()).get("id")))
                    .findFirst()
                    .orElseThrow();
            List<Map<String, AttributeValue>> before = consistentScan(table);
            // AND a file with one item of each kind the API could not have written, and a valid one
            List<Refused> refused = List.of(
                    new Refused(keyOnly("WS#" + ws, "NOTE#1", "name", "note"), "key"),
                    new Refused(keyOnly("ORG#" + ws, "META", "name", "org"), "key"),
                    new Refused(forgedIdempotencyRecord(ws), "bookkeeping"),
                    new Refused(forgedReportEntry(ws), "bookkeeping"),
                    new Refused(project(ws, "01JDQ6V7K4N3M2P1R0S9T8V7A1", p -> p.put("status", s("BOGUS"))), "status"),
                    new Refused(project(ws, "01JDQ6V7K4N3M2P1R0S9T8V7A2", p -> p.remove("createdAt")), "createdAt"),
                    new Refused(project(ws, "01JDQ6V7K4N3M2P1R0S9T8V7A3", p -> p.remove("version")), "version"),
                    new Refused(
                            project(ws, "01JDQ6V7K4N3M2P1R0S9T8V7A4", p -> p.put("name", Map.of("N", "7"))), "name"),
                    new Refused(
                            project(ws, "01JDQ6V7K4N3M2P1R0S9T8V7A5", p -> p.put("name", s("gnp\u202E.exe"))), "name"),
                    new Refused(
                            project(ws, "01JDQ6V7K4N3M2P1R0S9T8V7A6", p -> p.put("description", s("d".repeat(2001)))),
                            "description"),
                    new Refused(
                            project(ws, "01JDQ6V7K4N3M2P1R0S9T8V7A7", p -> p.put("GSI1PK", s("STATUS#PAUSED#01"))),
                            "GSI1PK"),
                    new Refused(project(ws, "01JDQ6V7K4N3M2P1R0S9T8V7A8", p -> p.put("owner", s("mallory"))), "owner"),
                    new Refused(
                            project(ws, "01JDQ6V7K4N3M2P1R0S9T8V7A9", p -> p.put("blob", s("x".repeat(410 * 1024)))),
                            "400 KB"));
            List<Object> items = new ArrayList<>();
            refused.forEach(r -> items.add(r.item()));
            items.add(valid);
            // WHEN it is imported
            HttpResponse<String> response =
                    api.send("POST", "/_console/api/fixtures", Json.write(Map.of("Items", items)), List.of(), false);
            // THEN a problem that names each refused item by key and reason, and not the valid one
            assertThat(response.statusCode()).as(response.body()).isEqualTo(422);
            assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
            Map<String, Object> report = Json.readObject(response.body());
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> named = (List<Map<String, Object>>) report.get("refused");
            assertThat(named).hasSize(refused.size());
            for (int i = 0; i < refused.size(); i++) {
                Map<String, Object> item = refused.get(i).item();
                assertThat(named.get(i))
                        .containsEntry("item", i)
                        .containsEntry("partition", ((Map<?, ?>) item.get("EntityRef")).get("S"))
                        .containsEntry("sort", ((Map<?, ?>) item.get("Detail")).get("S"));
                assertThat((String) named.get(i).get("reason"))
                        .contains(refused.get(i).because());
            }
            System.out.println("refused-items report, as the console returns it:\n" + response.body());
            // AND the table is what it was: a consistent scan, item for item
            assertThat(consistentScan(table)).isEqualTo(before);
        }
    }

    @Test
    void exportOfTheSampleData_shouldImportBackByteForByte() throws Exception {
        // GIVEN the sample data start-api seeds, in a table of its own, exported
        String source = "fixture-sample-" + UUID.randomUUID().toString().substring(0, 8);
        new Api(ShardPlan.none(), source);
        SampleData.seed(engine.client, source, ShardPlan.none(), new PrintStream(OutputStream.nullOutputStream()));
        try (LocalApi from = LocalApi.start(engine, source, Map.of());
                LocalApi into = LocalApi.start(engine, source + "-copy", Map.of())) {
            String exported = from.send("GET", "/_console/api/fixtures", null, List.of(), false)
                    .body();
            // WHEN it is imported into an empty table, and that table exported
            HttpResponse<String> imported = into.send("POST", "/_console/api/fixtures", exported, List.of(), false);
            String again = into.send("GET", "/_console/api/fixtures", null, List.of(), false)
                    .body();
            // THEN every item went in, and the second export is the first, byte for byte
            assertThat(imported.statusCode()).as(imported.body()).isEqualTo(200);
            assertThat(Json.readObject(imported.body())).containsEntry("imported", 3);
            assertThat(again).isEqualTo(exported);
            System.out.println("sample data round trip: " + exported.length() + " bytes exported, "
                    + again.length() + " bytes after import, identical: " + again.equals(exported) + "; report "
                    + imported.body());
        }
    }

    @Test
    void bookkeepingItems_shouldImportOnlyWhenAsked_andOnlyAsTheRecordsTheyAre() throws Exception {
        // GIVEN an export holding an idempotency record the API wrote (a keyed POST)
        String source = "fixture-books-" + UUID.randomUUID().toString().substring(0, 8);
        String ws = Api.freshWorkspaceId("books");
        try (LocalApi from = LocalApi.start(engine, source, Map.of());
                LocalApi into = LocalApi.start(engine, source + "-copy", Map.of())) {
            from.send("POST", "/workspaces", "{\"id\":\"" + ws + "\",\"name\":\"Books\"}", List.of(), true);
            HttpResponse<String> keyed = from.send(
                    "POST",
                    "/workspaces/" + ws + "/projects",
                    "{\"name\":\"keyed\"}",
                    List.of(ws),
                    false,
                    "Idempotency-Key",
                    "books-1");
            assertThat(keyed.statusCode()).isEqualTo(201);
            String exported = from.send("GET", "/_console/api/fixtures", null, List.of(), false)
                    .body();
            assertThat(exported).contains("IDEM#");
            // WHEN imported without the flag: refused, nothing written
            HttpResponse<String> plain = into.send("POST", "/_console/api/fixtures", exported, List.of(), false);
            assertThat(plain.statusCode()).as(plain.body()).isEqualTo(422);
            assertThat(plain.body()).contains("IDEM#").contains("bookkeeping");
            assertThat(consistentScan(source + "-copy")).isEmpty();
            // AND a forged record is refused even with the flag
            Map<String, Object> file = new LinkedHashMap<>(Json.readObject(exported));
            List<Object> withForged = new ArrayList<>((List<?>) file.get("Items"));
            withForged.add(forgedIdempotencyRecord(ws));
            HttpResponse<String> forged = into.send(
                    "POST",
                    "/_console/api/fixtures?bookkeeping=include",
                    Json.write(Map.of("Items", withForged)),
                    List.of(),
                    false);
            assertThat(forged.statusCode()).as(forged.body()).isEqualTo(422);
            assertThat(forged.body())
                    .contains("responseBody is not a JSON object")
                    .doesNotContain("bookkeeping item");
            assertThat(consistentScan(source + "-copy")).isEmpty();
            // THEN with the flag the API's own record imports, and the export comes back as it was
            HttpResponse<String> flagged =
                    into.send("POST", "/_console/api/fixtures?bookkeeping=include", exported, List.of(), false);
            assertThat(flagged.statusCode()).as(flagged.body()).isEqualTo(200);
            assertThat(into.send("GET", "/_console/api/fixtures", null, List.of(), false)
                            .body())
                    .isEqualTo(exported);
        }
    }

    private List<Map<String, AttributeValue>> consistentScan(String table) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse page = engine.client.scan(ScanRequest.builder()
                    .tableName(table)
                    .consistentRead(true)
                    .exclusiveStartKey(from)
                    .build());
            items.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        items.sort(Comparator.comparing(
                        (Map<String, AttributeValue> i) -> i.get("EntityRef").s())
                .thenComparing(i -> i.get("Detail").s()));
        return items;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> exportedItems(LocalApi api) throws Exception {
        return (List<Map<String, Object>>)
                Json.readObject(api.send("GET", "/_console/api/fixtures", null, List.of(), false)
                                .body())
                        .get("Items");
    }

    private static Map<String, Object> s(String value) {
        return Map.of("S", value);
    }

    private static Map<String, Object> keyOnly(String partition, String sort, String attribute, String value) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("EntityRef", s(partition));
        item.put("Detail", s(sort));
        item.put(attribute, s(value));
        return item;
    }

    /** A project as CreateProject writes it, then changed by {@code fault}. */
    private static Map<String, Object> project(
            String ws, String id, java.util.function.Consumer<Map<String, Object>> fault) {
        Map<String, Object> item = dev.oneread.tests.support.Fixtures.projectItem(ws, id);
        item.put("creationToken", s("AAAAAAAAAAAAAAAAAAAAAA"));
        fault.accept(item);
        return item;
    }

    /** The record issue 22 planted: a completed replay of HTML with a cookie. */
    private static Map<String, Object> forgedIdempotencyRecord(String ws) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("EntityRef", s("WS#" + ws));
        item.put("Detail", s("IDEM#" + "ab".repeat(32)));
        item.put("status", s("COMPLETED"));
        item.put("payloadHash", s("cd".repeat(32)));
        item.put("holder", s("AAAAAAAAAAAAAAAAAAAAAA"));
        item.put("inProgressUntil", Map.of("N", "1764579600000"));
        item.put("expiresAt", Map.of("N", "4102444800"));
        item.put("responseStatus", Map.of("N", "200"));
        item.put(
                "responseHeaders",
                Map.of("M", Map.of("content-type", s("text/html"), "set-cookie", s("session=forged"))));
        item.put("responseBody", s("<script>document.cookie</script>"));
        return item;
    }

    /** A hot-tenant report entry no stats run wrote. */
    private static Map<String, Object> forgedReportEntry(String ws) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("EntityRef", s("REPORT#hot-tenants"));
        item.put("Detail", s("WS#" + ws));
        item.put("workspaceId", s(ws));
        item.put("shard", Map.of("N", "0"));
        item.put("projects", Map.of("N", "999999"));
        item.put("bytes", Map.of("N", "1"));
        item.put("currentShards", Map.of("N", "0"));
        item.put("recommendedShards", Map.of("N", "99"));
        item.put("run", s("01JDQ6V7K4N3M2P1R0S9T8V7W6"));
        item.put("asOf", s("2026-12-01T09:00:00Z"));
        return item;
    }
}
