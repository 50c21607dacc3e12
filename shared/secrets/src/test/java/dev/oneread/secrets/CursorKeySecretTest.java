package dev.oneread.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.oneread.http.Cursors;
import dev.oneread.json.Json;
import dev.oneread.runtime.CursorKeys;
import dev.oneread.runtime.FunctionConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The cursor keys read from Secrets Manager by the real SDK client, against a local endpoint that answers
 * GetSecretValue in the service's JSON 1.1 protocol (CI reaches no AWS and no Secrets Manager emulator): the
 * request the function sends, and the keys it gets.
 */
class CursorKeySecretTest {
    private static final String ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:oneread-cursor-keys-AbCdEf";
    private HttpServer server;
    private final List<Map<String, Object>> requests = new CopyOnWriteArrayList<>();
    private final List<String> targets = new CopyOnWriteArrayList<>();
    private final List<String> invocations = new CopyOnWriteArrayList<>();
    private volatile String secretString;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            targets.add(exchange.getRequestHeaders().getFirst("X-Amz-Target"));
            invocations.add(exchange.getRequestHeaders().getFirst("amz-sdk-invocation-id"));
            requests.add(Json.readObject(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            byte[] body = Json.write(Map.of(
                            "ARN",
                            ARN,
                            "Name",
                            "oneread-cursor-keys",
                            "SecretString",
                            secretString,
                            "VersionId",
                            "v1",
                            "VersionStages",
                            List.of("AWSCURRENT"),
                            "CreatedDate",
                            1.7966e9))
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.1");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private static String keys(int currentId, int... previousIds) {
        StringBuilder previous = new StringBuilder();
        for (int id : previousIds) {
            previous.append(previous.length() == 0 ? "" : ",")
                    .append("{\"id\":")
                    .append(id)
                    .append(",\"key\":\"")
                    .append(key(id))
                    .append("\"}");
        }
        return "{\"current\":{\"id\":" + currentId + ",\"key\":\"" + key(currentId) + "\"},\"previous\":[" + previous
                + "]}";
    }

    private static String key(int id) {
        byte[] bytes = new byte[32];
        java.util.Arrays.fill(bytes, (byte) id);
        return Base64.getEncoder().encodeToString(bytes);
    }

    @Test
    void functionConfig_shouldReadTheNamedSecretOnce_atInit_andOpenThePreviousKeysCursors() {
        // GIVEN a function environment that names the secret, as template.yaml sets it
        secretString = keys(2, 1);
        Map<String, String> environment = Map.of(
                "TABLE_NAME",
                "oneread",
                "CURSOR_KEY_SECRET",
                ARN,
                CursorKeySecret.ENDPOINT_VARIABLE,
                "http://127.0.0.1:" + server.getAddress().getPort(),
                "AWS_REGION",
                "us-east-1",
                "AWS_ACCESS_KEY_ID",
                "test",
                "AWS_SECRET_ACCESS_KEY",
                "test");
        // WHEN the function starts (its endpoint builds the cursors)
        FunctionConfig config = FunctionConfig.from(environment, "ListProjects", CursorKeySecret::fromEnvironment);
        Cursors cursors = new Cursors(config.cursorKeys(), java.time.Clock.systemUTC());
        // THEN one GetSecretValue call of that secret, the current version. One call, not one attempt: on a busy
        // machine the first attempt can outlast the client's attempt timeout, and the SDK's standard retry sends the
        // same call again, under the same invocation id; a second read would carry a new one.
        assertThat(invocations).doesNotContainNull().containsOnly(invocations.get(0));
        assertThat(targets).isNotEmpty().containsOnly("secretsmanager.GetSecretValue");
        assertThat(requests).isNotEmpty().containsOnly(Map.of("SecretId", ARN));
        // AND a cursor sealed under the previous key (1) opens, while new ones are sealed with key 2
        Cursors previous = new Cursors(() -> CursorKeys.parse(keys(1)), java.time.Clock.systemUTC());
        String old = previous.seal(dev.oneread.model.ListPosition.after("META"), "acme", "GET /x");
        assertThat(cursors.open(old, "acme", "GET /x")).isEqualTo(dev.oneread.model.ListPosition.after("META"));
        String fresh = cursors.seal(dev.oneread.model.ListPosition.after("META"), "acme", "GET /x");
        assertThat(Base64.getUrlDecoder().decode(fresh)[0]).isEqualTo((byte) 2);
    }

    @Test
    void functionConfig_shouldUseTheRunnersKeys_withoutAnyAwsCall() {
        Map<String, String> environment = Map.of("TABLE_NAME", "oneread", "CURSOR_KEYS", keys(0));

        FunctionConfig config = FunctionConfig.from(environment, "ListProjects");

        assertThat(config.cursorKeys().load().current().id()).isZero();
        assertThat(targets).isEmpty();
    }

    @Test
    void functionConfig_shouldStopAtInit_whenTheSecretIsNamedButTheFunctionReadsNoSecrets() {
        // GIVEN the secret named for a function built without this module (it passes no secret reader)
        Map<String, String> environment = Map.of("TABLE_NAME", "oneread", "CURSOR_KEY_SECRET", ARN);

        // WHEN it starts, THEN it says so, rather than run without cursor keys; and it calls no AWS
        assertThatThrownBy(() -> FunctionConfig.from(environment, "GetWorkspace"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("CURSOR_KEY_SECRET");
        assertThat(targets).isEmpty();
    }
}
