package dev.oneread.tests.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.auth.LocalJwt;
import dev.oneread.local.auth.SigningKey;
import dev.oneread.local.engine.DynaliteEngine;
import dev.oneread.local.runner.LocalQueues;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.StartsProcesses;
import dev.oneread.tests.support.TestEngine;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.sqs.model.GetQueueAttributesRequest;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * The local stack is closed to web pages: a page the developer opens can reach loopback ports, and through DNS
 * rebinding can even be same-origin under a name of its own. Each request here is what such a page would send,
 * written byte for byte on a socket (the JDK's HTTP client will not set Host), and each is refused without effect.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@StartsProcesses
class LocalStackExposureTest {
    private static final String LIST_TABLES = "{}";
    private final TestEngine engine = TestEngine.get();
    private DynaliteEngine dynalite;
    private LocalApi api;
    private LocalQueues queues;

    @BeforeAll
    void start() throws IOException {
        // The engine and the queues as start-api starts them (whatever engine DYNAMODB_ENDPOINT gives the others)
        dynalite = DynaliteEngine.start(engine.root, null);
        api = LocalApi.start(engine);
        queues = LocalQueues.start(SamTemplate.load(engine.root.resolve("template.yaml")), "exposure", null);
    }

    @AfterAll
    void stop() {
        queues.close();
        api.close();
        dynalite.close();
    }

    /** One HTTP/1.1 exchange as written: the status line, the headers lower-cased, and the body. */
    record Exchange(int status, Map<String, String> headers, String body) {}

    static Exchange raw(int port, String method, String path, Map<String, String> headers, String body)
            throws IOException {
        StringBuilder request = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
        headers.forEach((k, v) -> request.append(k).append(": ").append(v).append("\r\n"));
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        request.append("Content-Length: ").append(content.length).append("\r\nConnection: close\r\n\r\n");
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(content);
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int end = response.indexOf("\r\n\r\n");
            String[] lines = response.substring(0, end).split("\r\n");
            Map<String, String> parsed = new java.util.LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                parsed.put(
                        lines[i].substring(0, colon).toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).strip());
            }
            return new Exchange(Integer.parseInt(lines[0].split(" ")[1]), parsed, response.substring(end + 4));
        }
    }

    private Exchange toEngine(String host, String origin, String method) throws IOException {
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        headers.put("Host", host);
        if (origin != null) {
            headers.put("Origin", origin);
        }
        headers.put("Content-Type", "application/x-amz-json-1.0");
        headers.put("X-Amz-Target", "DynamoDB_20120810.ListTables");
        headers.put("X-Amz-Date", "20260101T000000Z");
        headers.put(
                "Authorization",
                "AWS4-HMAC-SHA256 Credential=x/20260101/us-east-1/dynamodb/aws4_request, "
                        + "SignedHeaders=host, Signature=00");
        return raw(dynalite.port(), method, "/", headers, method.equals("POST") ? LIST_TABLES : null);
    }

    @Test
    void engine_shouldAnswerAClientWithItsOwnHostAndNoOrigin() throws IOException {
        Exchange listed = toEngine("127.0.0.1:" + dynalite.port(), null, "POST");
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.body()).contains("TableNames");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://evil.example", "null", "http://127.0.0.1:1"})
    void engine_shouldRefuseARequestWithAnOrigin_andSendNoCors(String origin) throws IOException {
        Exchange refused = toEngine("127.0.0.1:" + dynalite.port(), origin, "POST");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.body()).doesNotContain("TableNames");
        assertThat(refused.headers().keySet()).noneMatch(h -> h.startsWith("access-control-"));
        Exchange preflight = toEngine("127.0.0.1:" + dynalite.port(), origin, "OPTIONS");
        assertThat(preflight.status()).isEqualTo(403);
        assertThat(preflight.headers().keySet()).noneMatch(h -> h.startsWith("access-control-"));
    }

    @Test
    void engine_shouldRefuseAForeignHost() throws IOException {
        for (String host : List.of(
                "evil.example:" + dynalite.port(),
                "127.0.0.1.nip.io:" + dynalite.port(),
                "localhost.evil.example:" + dynalite.port(),
                "")) {
            Exchange refused = toEngine(host, null, "POST");
            assertThat(refused.status()).as(host).isEqualTo(403);
            assertThat(refused.body()).doesNotContain("TableNames");
        }
    }

    private String operatorToken() {
        return api.stack().authorizer().issue("page", List.of(), true, Duration.ofMinutes(5));
    }

    private Exchange createWorkspace(String host, String origin, String token, String id) throws IOException {
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        headers.put("Host", host);
        if (origin != null) {
            headers.put("Origin", origin);
        }
        headers.put("Authorization", "Bearer " + token);
        headers.put("Content-Type", "application/json");
        return raw(api.port(), "POST", "/workspaces", headers, "{\"id\":\"" + id + "\",\"name\":\"Page\"}");
    }

    private int workspaceStatus(String id) throws Exception {
        return api.send("GET", "/workspaces/" + id, null, List.of(id), false).statusCode();
    }

    @Test
    void startApi_shouldAnswer421ToAForeignHost_andCreateNothing() throws Exception {
        String id = Api.freshWorkspaceId("rebound");
        for (String host : List.of("evil.example", "evil.example:" + api.port(), "127.0.0.1:1")) {
            Exchange refused = createWorkspace(host, null, operatorToken(), id);
            assertThat(refused.status()).as(host).isEqualTo(421);
            assertThat(refused.headers()).containsEntry("content-type", "application/problem+json");
        }
        Exchange console = raw(api.port(), "GET", "/_console/api/partitions", Map.of("Host", "evil.example"), null);
        assertThat(console.status()).isEqualTo(421);
        assertThat(workspaceStatus(id)).isEqualTo(404);
    }

    @Test
    void startApi_shouldRefuseAForeignOrigin_andServeItsOwn() throws Exception {
        String id = Api.freshWorkspaceId("origin");
        String host = "127.0.0.1:" + api.port();
        for (String origin :
                List.of("http://evil.example", "null", "http://localhost:1", "https://127.0.0.1:" + api.port())) {
            Exchange refused = createWorkspace(host, origin, operatorToken(), id);
            assertThat(refused.status()).as(origin).isEqualTo(403);
            assertThat(refused.headers().keySet()).noneMatch(h -> h.startsWith("access-control-"));
        }
        Exchange console = raw(
                api.port(),
                "POST",
                "/_console/api/fixtures",
                Map.of("Host", host, "Origin", "http://evil.example", "Content-Type", "application/json"),
                "{\"Items\":[{\"EntityRef\":{\"S\":\"WS#" + id + "\"},\"Detail\":{\"S\":\"META\"}}]}");
        assertThat(console.status()).isEqualTo(403);
        assertThat(workspaceStatus(id)).isEqualTo(404);
        // AND the console's own page, on its own origin, is served
        assertThat(createWorkspace(host, "http://" + host, operatorToken(), id).status())
                .isEqualTo(201);
    }

    /** A request to the local queues as a page would send it: SQS's JSON protocol, or its query protocol. */
    private Exchange toQueues(
            String method, String pathAndQuery, String host, String origin, String target, String body)
            throws IOException {
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        headers.put("Host", host);
        if (origin != null) {
            headers.put("Origin", origin);
        }
        if (target != null) {
            headers.put("Content-Type", "application/x-amz-json-1.0");
            headers.put("X-Amz-Target", "AmazonSQS." + target);
        } else if (body != null) {
            headers.put("Content-Type", "application/x-www-form-urlencoded");
        }
        return raw(queues.endpoint().getPort(), method, pathAndQuery, headers, body);
    }

    private String queueHost() {
        return "127.0.0.1:" + queues.endpoint().getPort();
    }

    private int pendingMessages(String logicalId) {
        return Integer.parseInt(queues.client()
                .getQueueAttributes(GetQueueAttributesRequest.builder()
                        .queueUrl(queues.url(logicalId))
                        .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)
                        .build())
                .attributes()
                .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
    }

    @Test
    void queues_shouldAnswerAClientWithTheirOwnHostAndNoOrigin_atTheUrlsTheyHandOut() throws IOException {
        // GIVEN the SQS client the functions get, and a raw JSON-protocol ListQueues as the SDK sends it
        Exchange listed = toQueues("POST", "/", queueHost(), null, "ListQueues", "{}");
        // THEN both are served, and every queue URL names the guarded port (no way around the guard)
        assertThat(listed.status()).as(listed.body()).isEqualTo(200);
        assertThat(listed.body()).contains("exposure-JobQueue");
        assertThat(queues.urls().values())
                .allSatisfy(url -> assertThat(java.net.URI.create(url).getPort())
                        .isEqualTo(queues.endpoint().getPort()));
        assertThat(queues.client().listQueues().queueUrls())
                .containsAll(queues.urls().values());
    }

    @Test
    void queues_shouldRefuseAForeignHost() throws IOException {
        for (String host : List.of(
                "evil.example:" + queues.endpoint().getPort(),
                "127.0.0.1.nip.io:" + queues.endpoint().getPort(),
                "127.0.0.1:1")) {
            Exchange refused = toQueues("POST", "/", host, null, "ListQueues", "{}");
            assertThat(refused.status()).as(host).isEqualTo(421);
            assertThat(refused.headers()).containsEntry("content-type", "application/problem+json");
            assertThat(refused.body()).doesNotContain("exposure-JobQueue");
        }
        // AND an empty Host is no HTTP/1.1 request at all: Jetty refuses it before the guard
        Exchange empty = toQueues("POST", "/", "", null, "ListQueues", "{}");
        assertThat(empty.status()).isEqualTo(400);
        assertThat(empty.headers()).containsEntry("content-type", "application/problem+json");
        assertThat(empty.body()).doesNotContain("exposure-JobQueue");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://evil.example", "null", "http://127.0.0.1:1"})
    void queues_shouldRefuseEveryRequestWithAnOrigin_andSendNoCors(String origin) throws IOException {
        // GIVEN what a page sends: a JSON-protocol call, a form POST (no preflight needed) and a preflight
        String jobQueue = queues.url("JobQueue");
        for (Exchange refused : List.of(
                toQueues("POST", "/", queueHost(), origin, "ListQueues", "{}"),
                toQueues(
                        "POST",
                        "/",
                        queueHost(),
                        origin,
                        null,
                        "Action=PurgeQueue&QueueUrl=" + java.net.URLEncoder.encode(jobQueue, StandardCharsets.UTF_8)),
                toQueues("OPTIONS", "/", queueHost(), origin, null, null))) {
            // THEN each is refused, and nothing tells the browser it may read an answer
            assertThat(refused.status()).isEqualTo(403);
            assertThat(refused.body()).doesNotContain("exposure-JobQueue");
            assertThat(refused.headers().keySet()).noneMatch(h -> h.startsWith("access-control-"));
        }
    }

    @Test
    void queues_shouldRefuseAGet_soThatAnImageTagSendsNoMessage() throws IOException {
        // GIVEN an empty queue, and the URL an <img src> on any page could point at (no Origin on such a GET)
        String jobQueue = queues.url("JobQueue");
        assertThat(pendingMessages("JobQueue")).isZero();
        String query = "/?Action=SendMessage&MessageBody=forged&QueueUrl="
                + java.net.URLEncoder.encode(jobQueue, StandardCharsets.UTF_8);
        // WHEN it is fetched, with the queues' own Host (DNS rebinding aside, that is what the browser sends)
        Exchange refused = toQueues("GET", query, queueHost(), null, null, null);
        Exchange listed = toQueues("GET", "/?Action=ListQueues", queueHost(), null, null, null);
        // THEN both are refused as a problem, and no message was sent
        assertThat(refused.status()).isEqualTo(405);
        assertThat(refused.headers()).containsEntry("content-type", "application/problem+json");
        assertThat(listed.status()).isEqualTo(405);
        assertThat(listed.body()).doesNotContain("exposure-JobQueue");
        assertThat(pendingMessages("JobQueue")).isZero();
        // AND the client's own POST still sends
        queues.client()
                .sendMessage(SendMessageRequest.builder()
                        .queueUrl(jobQueue)
                        .messageBody("{}")
                        .build());
        assertThat(pendingMessages("JobQueue")).isEqualTo(1);
        queues.client().purgeQueue(b -> b.queueUrl(jobQueue));
    }

    @Test
    void tokenSignedWithTheOldPublicKey_shouldBe401() throws Exception {
        byte[] oldPublicKey = "oneread-local-development-key-never-use-in-aws".getBytes(StandardCharsets.UTF_8);
        String forged = new LocalJwt(
                        LocalJwt.DEFAULT_ISSUER, LocalJwt.DEFAULT_AUDIENCE, oldPublicKey, Clock.systemUTC())
                .issue("page", List.of(), true, Duration.ofMinutes(5));
        String id = Api.freshWorkspaceId("forged");
        Exchange refused = createWorkspace("127.0.0.1:" + api.port(), null, forged, id);
        assertThat(refused.status()).isEqualTo(401);
        assertThat(workspaceStatus(id)).isEqualTo(404);
    }

    @Test
    void signingKey_shouldBeReadableByItsOwnerAlone() throws IOException {
        Path file = SigningKey.fileFor(engine.root, null);
        assertThat(file).exists();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        assertThat(SigningKey.loadOrCreate(file)).hasSize(32);
    }

    @Test
    void signingKey_readableByOthers_shouldBeRefused(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path file = SigningKey.fileFor(engine.root, dir);
        SigningKey.loadOrCreate(file);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SigningKey.loadOrCreate(file))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("chmod 600");
    }

    @Test
    void everyAnswer_shouldBeNoStoreAndNosniff_withoutCors() throws Exception {
        String host = "127.0.0.1:" + api.port();
        for (Exchange answer : List.of(
                raw(api.port(), "GET", "/workspaces/acme", Map.of("Host", host), null), // 401
                raw(api.port(), "GET", "/nowhere", Map.of("Host", host), null), // 404
                raw(api.port(), "GET", "/_console", Map.of("Host", host), null),
                raw(api.port(), "GET", "/_console/api/budgets", Map.of("Host", host), null),
                raw(
                        api.port(),
                        "GET",
                        "/workspaces/" + Api.freshWorkspaceId("none"),
                        Map.of("Host", host, "Authorization", "Bearer " + operatorToken()),
                        null))) {
            assertThat(answer.headers()).containsEntry("cache-control", "no-store");
            assertThat(answer.headers()).containsEntry("x-content-type-options", "nosniff");
            assertThat(answer.headers().keySet()).noneMatch(h -> h.startsWith("access-control-"));
        }
    }
}
