package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ConsoleHttp;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Bad input to the console's table tools (the item editor, scan and query, saved queries): each gets a 4xx
 * problem+json that names the fault, never a 500 nor the runner's internals, and the table is the same item for item
 * afterwards. Then the queries' keeping: by name across a restart on the same data directory, and the last 20 reads.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleToolsInputTest {
    private static final String JSON = "application/json";

    private final TestEngine engine = TestEngine.get();
    private final String table = "tools-input-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("toolsin");
    private Path dataDir;
    private LocalApi api;
    private String project;

    @BeforeAll
    void start() throws Exception {
        dataDir = Files.createTempDirectory("console-queries");
        api = LocalApi.start(engine, table, Map.of(), dataDir);
        api.send("POST", "/workspaces", "{\"id\":\"" + ws + "\",\"name\":\"Input\"}", List.of(), true);
        HttpResponse<String> created = api.createProject(ws, "{\"name\":\"one\"}");
        project = (String) Json.readObject(created.body()).get("id");
    }

    @AfterAll
    void stop() {
        api.close();
    }

    private String meta(String attributes) {
        return "{\"partition\":\"WS#" + ws + "\",\"sort\":\"META\",\"version\":1,\"attributes\":" + attributes + "}";
    }

    private String workspaceAttributes(String name, String extra) {
        return "{\"name\":{\"S\":\"" + name + "\"},\"settings\":{\"M\":{}},"
                + "\"createdAt\":{\"S\":\"2026-01-01T00:00:00Z\"}" + extra + "}";
    }

    /** method, path, content type, body, the status expected, and a word of the detail. */
    Stream<Arguments> badInputs() {
        String big = "x".repeat(420 * 1024);
        String read = "/_console/api/read";
        String statement = "/_console/api/statement";
        String query = "\"mode\":\"query\",\"partition\":\"WS#" + ws + "\"";
        return Stream.of(
                Arguments.of("GET", "/_console/api/item", null, null, 400, "partition is required"),
                Arguments.of(
                        "GET", "/_console/api/item?partition=WS%23" + ws + "&sort=NOPE", null, null, 404, "no item"),
                post("/_console/api/item", "{}", 405, "takes GET"),
                Arguments.of("GET", "/_console/api/item/edit", null, null, 405, "takes POST"),
                Arguments.of("POST", "/_console/api/item/edit", "text/plain", "{}", 415, "application/json"),
                post("/_console/api/item/edit", "[]", 400, "JSON object"),
                post("/_console/api/item/edit", "{}", 400, "partition is required"),
                post(
                        "/_console/api/item/edit",
                        "{\"partition\":\"WS#a\",\"sort\":\"META\"}",
                        400,
                        "version is required"),
                post(
                        "/_console/api/item/edit",
                        "{\"partition\":\"WS#a\",\"sort\":\"META\",\"version\":\"one\"}",
                        400,
                        "version must be a whole number"),
                post(
                        "/_console/api/item/edit",
                        "{\"partition\":\"WS#a\",\"sort\":\"META\",\"version\":0}",
                        400,
                        "version must be a whole number"),
                post(
                        "/_console/api/item/edit",
                        "{\"partition\":\"" + "p".repeat(3000) + "\",\"sort\":\"META\",\"version\":1}",
                        400,
                        "2,048"),
                post("/_console/api/item/edit", meta("\"x\""), 400, "JSON object"),
                post("/_console/api/item/edit", meta("{}"), 400, "DynamoDB JSON"),
                post("/_console/api/item/edit", meta("{\"name\":{\"X\":\"1\"}}"), 400, "DynamoDB JSON"),
                post(
                        "/_console/api/item/edit",
                        meta("{\"EntityRef\":{\"S\":\"WS#other\"}}"),
                        400,
                        "EntityRef is the item's key"),
                post(
                        "/_console/api/item/edit",
                        meta("{\"createdAt\":{\"S\":\"2026-01-01T00:00:00Z\"}}"),
                        422,
                        "name is missing"),
                post(
                        "/_console/api/item/edit",
                        meta(workspaceAttributes("ok", ",\"evil\":{\"S\":\"x\"}")),
                        422,
                        "no workspace item has an attribute evil"),
                post("/_console/api/item/edit", meta(workspaceAttributes("bad\\u0000name", "")), 422, "name"),
                post("/_console/api/item/edit", meta(workspaceAttributes(big, "")), 422, "400 KB"),
                post(
                        "/_console/api/item/edit",
                        "{\"partition\":\"WS#" + ws + "\",\"sort\":\"IDEM#" + "0".repeat(64)
                                + "\",\"version\":1,\"attributes\":{\"a\":{\"S\":\"b\"}}}",
                        422,
                        "bookkeeping"),
                // A bookkeeping record has no version to give: its refusal names it all the same (the side panel
                // offers Edit and Delete on every row, an idempotency record's too).
                post(
                        "/_console/api/item/edit",
                        "{\"partition\":\"WS#" + ws + "\",\"sort\":\"IDEM#" + "0".repeat(64)
                                + "\",\"attributes\":{\"a\":{\"S\":\"b\"}}}",
                        422,
                        "bookkeeping item (idempotency record)"),
                post(
                        "/_console/api/item/delete",
                        "{\"partition\":\"WS#" + ws + "\",\"sort\":\"IDEM#" + "0".repeat(64) + "\"}",
                        422,
                        "bookkeeping item"),
                post(
                        "/_console/api/item/duplicate",
                        "{\"partition\":\"WS#" + ws + "\",\"sort\":\"META\"}",
                        422,
                        "only a project can be duplicated"),
                post(
                        "/_console/api/item/duplicate",
                        "{\"partition\":\"WS#" + ws + "\",\"sort\":\"PROJ#01ARZ3NDEKTSV4RRFFQ69G5FAV\"}",
                        404,
                        "no item"),
                post(
                        "/_console/api/item/delete",
                        "{\"partition\":\"WS#" + ws + "\",\"sort\":\"META\",\"version\":1}",
                        422,
                        "DELETE /workspaces/{id}"),
                post(
                        "/_console/api/item/delete",
                        "{\"partition\":\"nope\",\"sort\":\"x\",\"version\":1}",
                        422,
                        "codec"),
                post(
                        "/_console/api/item/delete",
                        "{\"partition\":\"WS#" + ws + "\",\"sort\":\"PROJ#01ARZ3NDEKTSV4RRFFQ69G5FAV\",\"version\":1}",
                        409,
                        "nothing was written"),
                Arguments.of("GET", read, null, null, 405, "takes POST"),
                post(read, "{\"mode\":\"bogus\"}", 400, "mode must be query or scan"),
                post(read, "{\"target\":\"GSI2\"}", 400, "target must be table or GSI1"),
                post(read, "{\"mode\":\"query\"}", 400, "a query needs partition"),
                post(read, "{" + query + ",\"limit\":0}", 400, "limit"),
                post(read, "{" + query + ",\"limit\":1001}", 400, "limit"),
                // the read budget: a whole number of items from 1 to 100,000, or nothing is read
                post(read, "{" + query + ",\"budget\":0}", 400, "budget must be a whole number from 1 to 100000"),
                post(read, "{" + query + ",\"budget\":-5}", 400, "budget must be a whole number"),
                post(read, "{" + query + ",\"budget\":100001}", 400, "budget must be a whole number"),
                post(read, "{" + query + ",\"budget\":1e999999999}", 400, "budget must be a whole number"),
                post(read, "{" + query + ",\"budget\":\"many\"}", 400, "budget must be a whole number"),
                post(read, "{" + query + ",\"budget\":2.5}", 400, "budget must be a whole number"),
                post(read + "/snippets", "{" + query + ",\"budget\":0}", 400, "budget must be a whole number"),
                // PartiQL: a SELECT only (the console writes through its checked item tools), DynamoDB's bounds
                post(statement, "{}", 400, "statement is required"),
                post(statement, "{\"statement\":\"" + "x".repeat(8_193) + "\"}", 400, "statement is required"),
                post(
                        statement,
                        "{\"statement\":\"INSERT INTO \\\"" + table + "\\\" VALUE {'EntityRef':'WS#x','Detail':'y'}\"}",
                        400,
                        "only a SELECT runs here"),
                post(
                        statement,
                        "{\"statement\":\"DELETE FROM \\\"" + table + "\\\" WHERE \\\"EntityRef\\\" = 'WS#" + ws
                                + "' AND \\\"Detail\\\" = 'META'\"}",
                        400,
                        "only a SELECT runs here"),
                post(statement, "{\"statement\":\"SELECT * FROM \\\"" + table + "\\\"\",\"limit\":0}", 400, "limit"),
                post(
                        statement,
                        "{\"statement\":\"SELECT * FROM \\\"" + table + "\\\"\",\"nextToken\":\"forged\"}",
                        400,
                        "the engine refused the statement"),
                post(statement + "/snippets", "{\"statement\":\"UPDATE x SET a = 1\"}", 400, "only a SELECT"),
                post(read, "{" + query + ",\"filters\":\"x\"}", 400, "JSON array"),
                post(read, "{" + query + ",\"filters\":[1]}", 400, "must be an object"),
                post(read, "{" + query + ",\"filters\":[{\"attribute\":\"a b\"}]}", 400, "attribute name"),
                post(
                        read,
                        "{" + query + ",\"filters\":[{\"attribute\":\"name\",\"operator\":\"LIKE\",\"value\":\"x\"}]}",
                        400,
                        "operator"),
                post(
                        read,
                        "{" + query + ",\"filters\":[{\"attribute\":\"version\",\"value\":\"abc\",\"type\":\"N\"}]}",
                        400,
                        "not a number"),
                post(
                        read,
                        "{" + query + ",\"filters\":[{\"attribute\":\"x\",\"value\":\"yes\",\"type\":\"BOOL\"}]}",
                        400,
                        "true or false"),
                post(
                        read,
                        "{" + query + ",\"filters\":[{\"attribute\":\"x\",\"value\":\"1\",\"type\":\"SS\"}]}",
                        400,
                        "type must be"),
                post(
                        read,
                        "{" + query + ",\"filters\":[{\"attribute\":\"EntityRef\",\"value\":\"WS#x\"}]}",
                        400,
                        "EntityRef is a key attribute"),
                post(
                        read,
                        "{\"target\":\"GSI1\",\"mode\":\"query\",\"partition\":\"STATUS#ACTIVE#01\","
                                + "\"filters\":[{\"attribute\":\"GSI1SK\",\"value\":\"x\"}]}",
                        400,
                        "GSI1SK is a key attribute"),
                post(
                        read,
                        "{" + query + ",\"filters\":[" + "{\"attribute\":\"a\",\"value\":\"b\"},".repeat(10)
                                + "{\"attribute\":\"a\",\"value\":\"b\"}]}",
                        400,
                        "at most 10 filters"),
                post(read, "{" + query + ",\"projection\":[\"#n\"]}", 400, "attribute name"),
                post(read, "{" + query + ",\"projection\":[7]}", 400, "attribute name"),
                post(read, "{" + query + ",\"sortOperator\":\"BETWEEN\",\"sortValue\":\"z\"}", 400, "BETWEEN"),
                post(read, "{" + query + ",\"sortOperator\":\"LIKE\"}", 400, "sortOperator"),
                post(read, "{" + query + ",\"cursor\":\"garbage\"}", 400, "cursor"),
                post(read, "{" + query + ",\"cursor\":\"eyJHU0kxUEsiOnsiUyI6IngifX0\"}", 400, "cursor"),
                Arguments.of("PUT", "/_console/api/queries", JSON, "{}", 405, "takes GET or POST or DELETE"),
                post(
                        "/_console/api/queries",
                        "{\"name\":\"../etc/passwd\",\"query\":{" + query + "}}",
                        400,
                        "name must be"),
                post("/_console/api/queries", "{\"name\":\"ok\",\"query\":7}", 400, "JSON object"),
                post("/_console/api/queries", "{\"name\":\"ok\",\"query\":{\"mode\":\"bogus\"}}", 400, "mode"),
                Arguments.of("DELETE", "/_console/api/queries?name=nobody", null, null, 404, "no saved query"),
                Arguments.of("DELETE", "/_console/api/queries?name=%3Cb%3E", null, null, 400, "name must be"));
    }

    /** A bad input POSTed as JSON. */
    private static Arguments post(String path, String body, int status, String detail) {
        return Arguments.of("POST", path, JSON, body, status, detail);
    }

    @ParameterizedTest(name = "{0} {1} -> {4}")
    @MethodSource("badInputs")
    void badInput_shouldBe4xxProblem_andChangeNothing(
            String method, String path, String type, String body, int status, String detail) throws Exception {
        // GIVEN the table and the kept queries as they are
        String before = export();
        String queries = send("GET", "/_console/api/queries", null, null).body();
        // WHEN
        HttpResponse<String> response = send(method, path, type, body);
        // THEN a problem that names the fault, none of the runner's internals, and nothing changed
        ConsoleHttp.assertProblem(response, status, detail);
        assertThat(export()).isEqualTo(before);
        assertThat(send("GET", "/_console/api/queries", null, null).body()).isEqualTo(queries);
    }

    @Test
    void editAtAStaleVersion_shouldBe409_andLeaveTheProject() throws Exception {
        // GIVEN the project at version 1
        String before = export();
        String body = "{\"partition\":\"WS#" + ws + "\",\"sort\":\"PROJ#" + project + "\",\"version\":7,"
                + "\"attributes\":{\"name\":{\"S\":\"x\"},\"status\":{\"S\":\"ACTIVE\"},"
                + "\"createdAt\":{\"S\":\"2026-01-01T00:00:00Z\"}}}";
        // WHEN edited as if read at version 7
        HttpResponse<String> response = send("POST", "/_console/api/item/edit", JSON, body);
        // THEN a 409, and nothing written
        assertThat(response.statusCode()).as(response.body()).isEqualTo(409);
        assertThat(response.body()).contains("not at version 7");
        assertThat(export()).isEqualTo(before);
    }

    @Test
    void projectWrites_whileItsWorkspaceMovesIntoShards_shouldBe409_andWriteNothing() throws Exception {
        // GIVEN the workspace under a migration lease (a move into shards in progress), set with the test's client
        Map<String, AttributeValue> meta =
                Map.of("EntityRef", AttributeValue.fromS("WS#" + ws), "Detail", AttributeValue.fromS("META"));
        engine.client.updateItem(UpdateItemRequest.builder()
                .tableName(table)
                .key(meta)
                .updateExpression("SET migrationRun = :r, migrationUntil = :u")
                .expressionAttributeValues(Map.of(
                        ":r", AttributeValue.fromS("01ARZ3NDEKTSV4RRFFQ69G5FAV"),
                        ":u", AttributeValue.fromN(Long.toString(System.currentTimeMillis() + 600_000))))
                .build());
        try {
            String before = export();
            String key = "\"partition\":\"WS#" + ws + "\",\"sort\":\"PROJ#" + project + "\"";
            String edit = "{" + key + ",\"version\":1,\"attributes\":{\"name\":{\"S\":\"x\"},"
                    + "\"status\":{\"S\":\"ACTIVE\"},\"createdAt\":{\"S\":\"2026-01-01T00:00:00Z\"}}}";
            // WHEN the project is edited, deleted and duplicated
            for (Map.Entry<String, String> action : List.of(
                    Map.entry("edit", edit),
                    Map.entry("delete", "{" + key + ",\"version\":1}"),
                    Map.entry("duplicate", "{" + key + "}"))) {
                HttpResponse<String> response =
                        send("POST", "/_console/api/item/" + action.getKey(), JSON, action.getValue());
                // THEN each is a 409 that says why, and nothing is written
                assertThat(response.statusCode())
                        .as(action.getKey() + ": " + response.body())
                        .isEqualTo(409);
                assertThat(response.body()).contains("moving into shards");
            }
            assertThat(export()).isEqualTo(before);
        } finally {
            engine.client.updateItem(UpdateItemRequest.builder()
                    .tableName(table)
                    .key(meta)
                    .updateExpression("REMOVE migrationRun, migrationUntil")
                    .build());
        }
    }

    @Test
    void queries_shouldBeKeptInTheDataDirectory_acrossARestart_andOnlyTheLast20Reads() throws Exception {
        // GIVEN 25 different reads run, and one saved by name
        for (int limit = 1; limit <= 25; limit++) {
            HttpResponse<String> read = send(
                    "POST",
                    "/_console/api/read",
                    JSON,
                    "{\"mode\":\"query\",\"partition\":\"WS#" + ws + "\",\"limit\":" + limit + "}");
            assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        }
        HttpResponse<String> saved = send(
                "POST",
                "/_console/api/queries",
                JSON,
                "{\"name\":\"my projects\",\"query\":{\"mode\":\"query\",\"partition\":\"WS#" + ws + "\"}}");
        assertThat(saved.statusCode()).as(saved.body()).isEqualTo(200);
        // WHEN start-api is started again on the same data directory
        api.close();
        api = LocalApi.start(engine, table, Map.of(), dataDir);
        // THEN the saved query is there, and the last 20 reads, newest first
        Map<String, Object> queries =
                Json.readObject(send("GET", "/_console/api/queries", null, null).body());
        assertThat((List<?>) queries.get("saved")).hasSize(1);
        assertThat(((Map<?, ?>) ((List<?>) queries.get("saved")).get(0)).get("name"))
                .isEqualTo("my projects");
        List<?> recent = (List<?>) queries.get("recent");
        assertThat(recent).hasSize(20);
        assertThat(((Number) ((Map<?, ?>) recent.get(0)).get("limit")).intValue())
                .isEqualTo(25);
        assertThat(((Number) ((Map<?, ?>) recent.get(19)).get("limit")).intValue())
                .isEqualTo(6);
        assertThat(dataDir.resolve("console-queries.json")).exists();
    }

    private HttpResponse<String> send(String method, String path, String type, String body) throws Exception {
        return ConsoleHttp.send(api, method, path, type, body);
    }

    private String export() throws Exception {
        return ConsoleHttp.export(api);
    }
}
