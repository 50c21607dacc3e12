package dev.oneread.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Text a person reads (names, descriptions, settings keys and strings) refuses what a reader cannot see or
 * trust, is stored in NFC, and arrives as valid UTF-8 or not at all; openapi.yaml states the same rule.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TextRulesTest {
    private final Api api = new Api();
    private final TestEngine engine = TestEngine.get();
    private final String ws = Api.freshWorkspaceId("text");
    private String project;

    /** One refused code point of each kind, as the JSON escape a client would send. */
    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("Cf RIGHT-TO-LEFT OVERRIDE", "\\u202e"),
                Arguments.of("Cf ZERO WIDTH SPACE", "\\u200b"),
                Arguments.of("Zl LINE SEPARATOR", "\\u2028"),
                Arguments.of("Zp PARAGRAPH SEPARATOR", "\\u2029"),
                Arguments.of("Co private use", "\\ue000"),
                Arguments.of("Cn unassigned U+0378", "\\u0378"),
                Arguments.of("Cs lone surrogate", "\\ud800"),
                Arguments.of("noncharacter U+FFFE", "\\ufffe"),
                Arguments.of("noncharacter U+FDD0", "\\ufdd0"),
                Arguments.of("noncharacter U+1FFFF", "\\ud83f\\udfff"),
                Arguments.of("Cc ESCAPE", "\\u001b"));
    }

    @BeforeAll
    void workspaceAndProject() {
        api.createWorkspace(ws, "Text");
        project = (String) api.createProject(ws, "{\"name\":\"Plain\"}").json().get("id");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void everyTextField_shouldRefuseTheCharacter_andChangeNothing(String kind, String escaped) {
        String text = "a" + escaped + "b";
        // WHEN it is sent in each field a person reads, on create and on PATCH
        List<Lambda.Response> responses = List.of(
                api.createProject(ws, "{\"name\":\"" + text + "\"}"),
                api.createProject(ws, "{\"name\":\"ok\",\"description\":\"" + text + "\"}"),
                api.createWorkspace("{\"id\":\"" + Api.freshWorkspaceId("t") + "\",\"name\":\"" + text + "\"}"),
                api.createWorkspace("{\"id\":\"" + Api.freshWorkspaceId("t") + "\",\"name\":\"ok\",\"settings\":{\""
                        + text + "\":1}}"),
                api.createWorkspace("{\"id\":\"" + Api.freshWorkspaceId("t") + "\",\"name\":\"ok\",\"settings\":{\"k\":"
                        + "{\"deep\":[\"" + text + "\"]}}}"),
                api.patchWorkspace(ws, "\"1\"", "{\"name\":\"" + text + "\"}"),
                api.patchProject(ws, project, "\"1\"", "{\"description\":\"" + text + "\"}"));
        // THEN each is a 400 problem that made no DynamoDB call, so nothing changed
        assertThat(responses).allSatisfy(response -> {
            assertThat(response.status()).as(kind + ": " + response.body()).isEqualTo(400);
            assertThat(response.contentType()).isEqualTo("application/problem+json");
            assertThat(response.dynamoCalls()).isZero();
            assertThat(response.body()).doesNotContain("Exception", "WS#");
        });
        assertThat(api.getProject(ws, project).json())
                .containsEntry("name", "Plain")
                .containsEntry("version", 1);
        assertThat(api.getWorkspace(ws).json()).containsEntry("name", "Text").containsEntry("version", 1);
    }

    @Test
    void text_shouldBeStoredInNfc() {
        // WHEN a name, a description and a settings key and value are sent decomposed: e + COMBINING ACUTE
        String created = (String) api.createProject(
                        ws,
                        "{\"name\":\"caf" + "e\\u0301" + "\",\"description\":\"r" + "e\\u0301" + "sum" + "e\\u0301"
                                + "\"}")
                .json()
                .get("id");
        String other = Api.freshWorkspaceId("nfc");
        api.createWorkspace("{\"id\":\"" + other + "\",\"name\":\"N\",\"settings\":{\"cl" + "e\\u0301" + "\":\"caf"
                + "e\\u0301" + "\"}}");
        // THEN they are stored composed
        assertThat(api.getProject(ws, created).json())
                .containsEntry("name", "caf\u00e9")
                .containsEntry("description", "r\u00e9sum\u00e9");
        assertThat(api.getWorkspace(other).json()).containsEntry("settings", Map.of("cl\u00e9", "caf\u00e9"));
    }

    @Test
    void settingsKeys_thatAreEqualInNfc_shouldBeRefused() {
        Lambda.Response response = api.createWorkspace("{\"id\":\"" + Api.freshWorkspaceId("t")
                + "\",\"name\":\"ok\",\"settings\":{\"\\u00e9\":1,\"e\\u0301\":2}}");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.dynamoCalls()).isZero();
    }

    /** Byte sequences that are not UTF-8: a lead byte without its continuation, an overlong '/', a surrogate. */
    static Stream<Arguments> notUtf8() {
        return Stream.of(
                Arguments.of("7b226e616d65223a22c328227d"), // {"name":"<C3 28>"}
                Arguments.of("7b226e616d65223a22c0af227d"), // {"name":"<C0 AF>"}, overlong
                Arguments.of("7b226e616d65223a22eda080227d")); // {"name":"<ED A0 80>"}, U+D800 encoded
    }

    @ParameterizedTest
    @MethodSource("notUtf8")
    void invalidUtf8_shouldBe400_notReplaced(String hex) {
        // GIVEN a body API Gateway passed base64-encoded, whose bytes are not UTF-8
        String encoded = Base64.getEncoder().encodeToString(HexFormat.of().parseHex(hex));
        // WHEN
        Lambda.Response response = api.call(
                "CreateProject",
                ApiEvent.of("POST", ApiEvent.PROJECTS).path("workspaceId", ws).base64Body(encoded));
        // THEN
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json()).containsEntry("detail", "body is not valid UTF-8");
        assertThat(response.dynamoCalls()).isZero();
    }

    @Test
    void invalidUtf8_throughStartApi_shouldArriveAsBytesAndBe400() throws Exception {
        // GIVEN start-api on the engine
        try (LocalApi server = LocalApi.start(engine)) {
            String token = server.stack().authorizer().issue("dev", List.of(ws), false, Duration.ofMinutes(5));
            // WHEN a JSON body with the bytes C3 28 is posted
            HttpResponse<String> response = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(
                                            "http://127.0.0.1:" + server.port() + "/workspaces/" + ws + "/projects"))
                                    .header("Authorization", "Bearer " + token)
                                    .header("Content-Type", "application/json")
                                    .POST(HttpRequest.BodyPublishers.ofByteArray(
                                            HexFormat.of().parseHex("7b226e616d65223a22c328227d")))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            // THEN the function saw the bytes (base64, as API Gateway passes what is not text) and refused them
            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(response.body()).contains("body is not valid UTF-8");
            assertThat(response.headers().firstValue("x-dynamo-calls")).hasValue("0");
        }
    }

    /** Samples the rule accepts, and the refused ones above as text: openapi.yaml must agree on each. */
    @Test
    void openApiPattern_shouldStateTheSameRule() throws IOException {
        // GIVEN the pattern openapi.yaml gives names and descriptions (a JSON Schema pattern, ECMA-262 syntax)
        String yaml = Files.readString(engine.root.resolve("openapi.yaml"));
        Matcher name = Pattern.compile("(?m)^    Name:\\n(?:      .*\\n)*?      pattern: '(.*)'$")
                .matcher(yaml);
        assertThat(name.find()).isTrue();
        Pattern stated = Pattern.compile(name.group(1).replace("''", "'"));
        // THEN it accepts what the API accepts
        for (String ok : List.of("Acme", "caf\u00e9", "line\nbreak\ttab", "\u65e5\u672c", "go \uD83D\uDE80", "a-b_c")) {
            assertThat(stated.matcher(ok).matches()).as(ok).isTrue();
            assertThat(api.createProject(ws, Json.write(Map.of("name", ok))).status())
                    .isEqualTo(201);
        }
        // and refuses what the API refuses
        for (String bad : List.of(
                "a\u202eb",
                "a\u200bb",
                "a\u2028b",
                "a\u2029b",
                "a\ue000b",
                "a\u0378b",
                "a\ud800b",
                "a\ufffeb",
                "a\ufdd0b",
                "a\uD83F\uDFFFb",
                "a\u001bb")) {
            assertThat(stated.matcher(bad).matches()).as(bad).isFalse();
        }
    }
}
