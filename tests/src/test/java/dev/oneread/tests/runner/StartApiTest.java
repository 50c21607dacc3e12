package dev.oneread.tests.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.local.auth.LocalJwt;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code start-api} over real HTTP: every route gives what the integration tests see, costs included. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StartApiTest {
    private final TestEngine engine = TestEngine.get();
    private final HttpClient http = HttpClient.newHttpClient();
    private final String ws = Api.freshWorkspaceId("api");
    private LocalApi server;

    @BeforeAll
    void start() throws IOException {
        server = LocalApi.start(engine);
    }

    @AfterAll
    void stop() {
        server.close();
    }

    private final LocalJwt jwt = new LocalJwt(
            LocalJwt.DEFAULT_ISSUER, LocalJwt.DEFAULT_AUDIENCE, LocalApi.signingKey(engine), Clock.systemUTC());

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        return send(method, path, body, "Bearer " + jwt.issue("tester", List.of(ws), true, Duration.ofMinutes(5)));
    }

    private HttpResponse<String> send(String method, String path, String body, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        request.method(
                method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String header(HttpResponse<?> response, String name) {
        return response.headers().firstValue(name).orElse(null);
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyRoute_shouldAnswerAsTheFunctionsDo() throws Exception {
        // POST /workspaces
        HttpResponse<String> created = send("POST", "/workspaces", "{\"id\":\"" + ws + "\",\"name\":\"Acme\"}");
        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(header(created, "location")).isEqualTo("/workspaces/" + ws);
        assertThat(header(created, "x-dynamo-calls")).isEqualTo("1");
        // GET /workspaces/{id}
        HttpResponse<String> workspace = send("GET", "/workspaces/" + ws, null);
        assertThat(workspace.statusCode()).isEqualTo(200);
        assertThat(Json.readObject(workspace.body())).containsEntry("id", ws).containsEntry("name", "Acme");
        assertThat(header(workspace, "x-dynamo-calls")).isEqualTo("1");
        assertThat(header(workspace, "x-dynamo-capacity")).isEqualTo("0.5");
        // POST /workspaces/{id}/projects, three times
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> project = send("POST", "/workspaces/" + ws + "/projects", "{\"name\":\"p" + i + "\"}");
            assertThat(project.statusCode()).isEqualTo(201);
            // The first reads the workspace and puts; the template lets the next ones reuse that read for a second
            // (WORKSPACE_REUSE_MILLIS), which a slow machine may outlast: WorkspaceReuseTest pins it with a clock.
            assertThat(header(project, "x-dynamo-calls")).isIn(i == 0 ? List.of("2") : List.of("1", "2"));
        }
        // GET /workspaces/{id}/projects, two pages
        HttpResponse<String> page1 = send("GET", "/workspaces/" + ws + "/projects?limit=2", null);
        Map<String, Object> body1 = Json.readObject(page1.body());
        List<Map<String, Object>> items1 = (List<Map<String, Object>>) body1.get("items");
        assertThat(items1).extracting(p -> p.get("name")).containsExactly("p2", "p1");
        assertThat(header(page1, "x-dynamo-calls")).isEqualTo("1");
        HttpResponse<String> page2 =
                send("GET", "/workspaces/" + ws + "/projects?limit=2&cursor=" + body1.get("nextCursor"), null);
        Map<String, Object> body2 = Json.readObject(page2.body());
        assertThat((List<Map<String, Object>>) body2.get("items"))
                .extracting(p -> p.get("name"))
                .containsExactly("p0");
        assertThat(body2.get("nextCursor")).isNull();
        assertThat(header(page2, "x-dynamo-calls")).isEqualTo("1");
        // GET /workspaces/{id}/projects/{projectId}
        String projectId = (String) items1.get(0).get("id");
        HttpResponse<String> project = send("GET", "/workspaces/" + ws + "/projects/" + projectId, null);
        assertThat(project.statusCode()).isEqualTo(200);
        assertThat(header(project, "etag")).isEqualTo("\"1\"");
        assertThat(header(project, "x-dynamo-capacity")).isEqualTo("0.5");
        // GET /workspaces/{id}/collection
        HttpResponse<String> collection = send("GET", "/workspaces/" + ws + "/collection", null);
        Map<String, Object> all = Json.readObject(collection.body());
        assertThat((Map<String, Object>) all.get("workspace")).containsEntry("id", ws);
        assertThat((List<Object>) all.get("projects")).hasSize(3);
        assertThat(header(collection, "x-dynamo-calls")).isEqualTo("1");
    }

    @Test
    void percentEncodedHash_shouldBeDecodedLikeApiGatewayAndRejected() throws Exception {
        HttpResponse<String> response = send("GET", "/workspaces/acme%2301", null);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(header(response, "content-type")).isEqualTo("application/problem+json");
        assertThat(header(response, "x-dynamo-calls")).isEqualTo("0");
        assertThat(response.body()).doesNotContain("WS#");
    }

    @Test
    void repeatedQueryKeys_shouldArriveJoinedWithCommas() throws Exception {
        // API Gateway joins ?limit=2&limit=3 into "2,3", which is not a valid limit.
        HttpResponse<String> response = send("GET", "/workspaces/" + ws + "/projects?limit=2&limit=3", null);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(Json.readObject(response.body()).get("detail")).asString().contains("limit");
    }

    @Test
    void missingExpiredOrForgedTokens_shouldGet401BeforeAnyFunctionRuns() throws Exception {
        String valid = jwt.issue("tester", List.of(ws), false, Duration.ofMinutes(5));
        String expired = new LocalJwt(
                        LocalJwt.DEFAULT_ISSUER,
                        LocalJwt.DEFAULT_AUDIENCE,
                        LocalApi.signingKey(engine),
                        Clock.offset(Clock.systemUTC(), Duration.ofHours(-2)))
                .issue("tester", List.of(ws), false, Duration.ofHours(1));
        String otherIssuer = new LocalJwt(
                        "https://evil.example/",
                        LocalJwt.DEFAULT_AUDIENCE,
                        LocalApi.signingKey(engine),
                        Clock.systemUTC())
                .issue("tester", List.of(ws), true, Duration.ofMinutes(5));
        String forged =
                valid.substring(0, valid.lastIndexOf('.') + 1) + "AAAA" + valid.substring(valid.lastIndexOf('.') + 5);

        for (String authorization : new String[] {
            null,
            "Bearer",
            "Basic dXNlcjpwYXNz",
            "Bearer " + expired,
            "Bearer " + otherIssuer,
            "Bearer " + forged,
            "Bearer a.b.c"
        }) {
            HttpResponse<String> response = send("GET", "/workspaces/" + ws, null, authorization);
            assertThat(response.statusCode()).as(String.valueOf(authorization)).isEqualTo(401);
            assertThat(response.body()).isEqualTo("{\"message\":\"Unauthorized\"}");
            assertThat(header(response, "x-dynamo-calls")).isNull();
        }
        assertThat(send("GET", "/workspaces/" + ws, null, "Bearer " + valid).statusCode())
                .isIn(200, 404);
    }

    /** One raw HTTP/1.1 exchange: {@code request} as the bytes of the request line and headers. */
    private String raw(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "GET /workspaces/acme/projects?cursor=%%% HTTP/1.1", // java.net.URI cannot parse it: the JDK server
                // answered text/html
                "GET /workspaces/%%%/projects HTTP/1.1", // rejected by the server itself, before any handler
                "GET /workspaces/acme/projects?limit=%2 HTTP/1.1",
                "GARBAGE"
            })
    void unparseableRequests_shouldGet400ProblemJson_likeEvery400(String requestLine) throws IOException {
        // WHEN the request line arrives on a raw socket, with no token (it never gets as far as the authorizer)
        String response = raw(requestLine + "\r\nHost: 127.0.0.1:" + server.port() + "\r\nConnection: close\r\n\r\n");
        // THEN
        String head = response.substring(0, response.indexOf("\r\n\r\n"));
        String body = response.substring(response.indexOf("\r\n\r\n") + 4);
        assertThat(head).startsWith("HTTP/1.1 400 ");
        assertThat(head.lines()).anyMatch(h -> h.equalsIgnoreCase("content-type: application/problem+json"));
        assertThat(Json.readObject(body))
                .containsEntry("status", 400)
                .containsEntry("title", "Bad Request")
                .containsKey("detail");
        assertThat(body).doesNotContain("URISyntaxException", "Jetty", "<html");
    }

    @Test
    void unmatchedRequests_shouldGet404Or405() throws Exception {
        HttpResponse<String> noRoute = send("GET", "/nothing/here", null);
        HttpResponse<String> wrongMethod = send("PUT", "/workspaces/acme", null);

        assertThat(noRoute.statusCode()).isEqualTo(404);
        assertThat(wrongMethod.statusCode()).isEqualTo(405);
        assertThat(header(wrongMethod, "allow")).isEqualTo("GET, PATCH, DELETE"); // DELETE: operators delete one
    }
}
