package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ConsoleHttp;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input to the console's own endpoints: each gets a 4xx problem+json that names the fault and nothing of
 * the runner's internals, and the table is the same item for item afterwards.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleInputTest {
    private final TestEngine engine = TestEngine.get();
    private final String table = "console-input-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("input");
    private LocalApi api;

    @BeforeAll
    void start() throws Exception {
        api = LocalApi.start(engine, table, Map.of());
        api.send("POST", "/workspaces", "{\"id\":\"" + ws + "\",\"name\":\"Input\"}", List.of(), true);
        api.send("POST", "/workspaces/" + ws + "/projects", "{\"name\":\"one\"}", List.of(ws), false);
    }

    @AfterAll
    void stop() {
        api.close();
    }

    private static final String JSON = "application/json";
    private static final String GOOD_ITEM = "{\"EntityRef\":{\"S\":\"WS#imported\"},\"Detail\":{\"S\":\"META\"}}";

    /** method, path, content type, body, the status expected, and a word of the detail. */
    Stream<Arguments> badInputs() {
        String longFilter = "f".repeat(201);
        return Stream.of(
                Arguments.of("GET", "/_console/api/nope", null, null, 404, "no such console endpoint"),
                Arguments.of("GET", "/_console/static/secret.txt", null, null, 404, "no such console file"),
                Arguments.of("GET", "/_console/static/..%2F..%2Fpom.xml", null, null, 404, "no such console file"),
                Arguments.of("GET", "/_console/elsewhere", null, null, 404, "no such console page"),
                Arguments.of("POST", "/_console/api/partitions", JSON, "{}", 405, "takes GET"),
                Arguments.of("DELETE", "/_console/api/fixtures", null, null, 405, "takes GET or POST"),
                Arguments.of("GET", "/_console/api/partitions?filter=" + longFilter, null, null, 400, "filter"),
                Arguments.of("GET", "/_console/api/collection", null, null, 400, "tenant or partition"),
                Arguments.of(
                        "GET", "/_console/api/collection?tenant=a&partition=b", null, null, 400, "tenant or partition"),
                Arguments.of("GET", "/_console/api/collection?tenant=a&limit=100000", null, null, 400, "limit"),
                Arguments.of("GET", "/_console/api/collection?tenant=a&limit=-1", null, null, 400, "limit"),
                Arguments.of("GET", "/_console/api/collection?tenant=a&limit=ten", null, null, 400, "limit"),
                Arguments.of("GET", "/_console/api/collection?tenant=a&offset=-5", null, null, 400, "offset"),
                Arguments.of("POST", "/_console/api/expr", "text/plain", "{}", 415, "application/json"),
                Arguments.of("POST", "/_console/api/expr", JSON, "not json", 400, "JSON object"),
                Arguments.of("POST", "/_console/api/expr", JSON, "[1,2]", 400, "JSON object"),
                Arguments.of("POST", "/_console/api/expr", JSON, "{\"pattern\":\"scan\"}", 400, "pattern"),
                Arguments.of(
                        "POST",
                        "/_console/api/expr",
                        JSON,
                        "{\"pattern\":\"list-projects\",\"workspace\":\"Bad Id!\"}",
                        400,
                        "workspace"),
                Arguments.of(
                        "POST",
                        "/_console/api/expr",
                        JSON,
                        "{\"pattern\":\"project\",\"workspace\":\"acme\",\"projectId\":\"nope\"}",
                        400,
                        "projectId"),
                Arguments.of(
                        "POST",
                        "/_console/api/expr/run",
                        JSON,
                        "{\"pattern\":\"custom\",\"partition\":\"WS#acme\",\"limit\":100000}",
                        400,
                        "limit"),
                Arguments.of(
                        "POST",
                        "/_console/api/expr/run",
                        JSON,
                        "{\"pattern\":\"custom\",\"partition\":\"WS#acme\",\"limit\":0}",
                        400,
                        "limit"),
                Arguments.of(
                        "POST",
                        "/_console/api/expr",
                        JSON,
                        "{\"pattern\":\"custom\",\"partition\":\"WS#acme\",\"operator\":\"LIKE\",\"value\":\"x\"}",
                        400,
                        "operator"),
                Arguments.of(
                        "POST",
                        "/_console/api/expr",
                        JSON,
                        "{\"pattern\":\"custom\",\"partition\":\"WS#a\",\"operator\":\"BETWEEN\",\"value\":\"z\","
                                + "\"high\":\"a\"}",
                        400,
                        "BETWEEN"),
                Arguments.of("POST", "/_console/api/expr", JSON, "{\"pattern\":\"custom\"}", 400, "partition"),
                Arguments.of(
                        "POST", "/_console/api/expr", JSON, "{\"pattern\":\"custom\",\"partition\":7}", 400, "string"),
                Arguments.of("POST", "/_console/api/fixtures", JSON, "{\"Items\":\"x\"}", 400, "Items"),
                Arguments.of("POST", "/_console/api/fixtures", JSON, "{}", 400, "Items"),
                Arguments.of(
                        "POST",
                        "/_console/api/fixtures",
                        JSON,
                        "{\"Items\":[" + GOOD_ITEM + ",{\"Detail\":{\"S\":\"META\"}}]}",
                        400,
                        "item 1"),
                Arguments.of(
                        "POST",
                        "/_console/api/fixtures",
                        JSON,
                        "{\"Items\":[" + GOOD_ITEM + ",{\"EntityRef\":{\"X\":\"1\"},\"Detail\":{\"S\":\"META\"}}]}",
                        400,
                        "unknown attribute type"),
                Arguments.of(
                        "POST",
                        "/_console/api/fixtures",
                        JSON,
                        "{\"Items\":[" + GOOD_ITEM + "," + GOOD_ITEM + "]}",
                        400,
                        "twice"),
                Arguments.of(
                        "POST",
                        "/_console/api/fixtures",
                        JSON,
                        "{\"Items\":[" + GOOD_ITEM.replace("}}", "},\"n\":{\"N\":\"many\"}}") + "]}",
                        400,
                        "number"),
                Arguments.of(
                        "POST",
                        "/_console/api/fixtures",
                        JSON,
                        "{\"Items\":[{\"EntityRef\":{\"S\":\"\"},\"Detail\":{\"S\":\"META\"}}]}",
                        400,
                        "non-empty strings"),
                Arguments.of(
                        "POST",
                        "/_console/api/fixtures",
                        JSON,
                        "{\"Items\":[" + GOOD_ITEM.replace("\"S\":\"META\"", "\"N\":\"1\"") + "]}",
                        400,
                        "non-empty strings"),
                Arguments.of("GET", "/_console/api/rescan", null, null, 405, "takes POST"));
    }

    @ParameterizedTest(name = "{0} {1} -> {4}")
    @MethodSource("badInputs")
    void badInput_shouldBe4xxProblem_andChangeNothing(
            String method, String path, String type, String body, int status, String detail) throws Exception {
        // GIVEN the table as it is
        String before = export();
        // WHEN
        HttpResponse<String> response = ConsoleHttp.send(api, method, path, type, body);
        // THEN a problem that names the fault, none of the runner's internals, and the same table
        ConsoleHttp.assertProblem(response, status, detail);
        assertThat(export()).isEqualTo(before);
    }

    @org.junit.jupiter.api.Test
    void aFunctionsProblem_shouldBeInItsLogEntry_titleAndDetailOnly() throws Exception {
        // GIVEN a project id that is not one (a 400 problem)
        String path = "/workspaces/" + ws + "/projects/no-such-project";
        // WHEN it is read
        HttpResponse<String> response = api.send("GET", path, null, List.of(ws), false);
        // THEN its log entry carries the problem's title and detail, and nothing else of the body
        assertThat(response.statusCode()).isEqualTo(400);
        Map<String, Object> problem = dev.oneread.json.Json.readObject(response.body());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> entries = (List<Map<String, Object>>)
                dev.oneread.json.Json.readObject(api.send("GET", "/_console/api/requests", null, List.of(), false)
                                .body())
                        .get("requests");
        Map<String, Object> entry = entries.stream()
                .filter(e -> path.equals(e.get("path")))
                .findFirst()
                .orElseThrow();
        assertThat(entry.get("problem"))
                .isEqualTo(Map.of("title", problem.get("title"), "detail", problem.get("detail")));
    }

    private String export() throws Exception {
        return ConsoleHttp.export(api);
    }
}
