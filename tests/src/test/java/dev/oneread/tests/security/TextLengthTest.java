package dev.oneread.tests.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Text lengths count characters, as openapi.yaml's maxLength does: JSON Schema counts Unicode code points, so an
 * emoji (U+1F680, two UTF-16 units) is one. A field of exactly maxLength emoji is stored, one more is a 400 that
 * changes nothing: through start-api, as a client that validates against the spec first sends it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TextLengthTest {
    private static final String ROCKET = "\uD83D\uDE80";
    private static final JsonNode SCHEMAS;

    static {
        try {
            SCHEMAS = new YAMLMapper()
                    .readTree(Files.readString(TestEngine.get().root.resolve("openapi.yaml")))
                    .at("/components/schemas");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private final TestEngine engine = TestEngine.get();
    private final String ws = Api.freshWorkspaceId("len");
    private LocalApi server;

    /** A field, the maxLength openapi.yaml gives it, and the body that sets it to a text. */
    private record Field(String what, int maxLength, IntFunction<String> body) {
        @Override
        public String toString() {
            return what + " (maxLength " + maxLength + ")";
        }
    }

    static Stream<Arguments> fields() {
        int name = SCHEMAS.at("/Name/maxLength").asInt();
        int description = SCHEMAS.at("/Description/maxLength").asInt();
        int key = SCHEMAS.at("/Settings/x-propertyNames/maxLength").asInt();
        return Stream.of(
                Arguments.of(new Field("name", name, n -> Json.write(Map.of("name", rockets(n))))),
                Arguments.of(new Field("description", description, n -> Json.write(Map.of("description", rockets(n))))),
                Arguments.of(new Field(
                        "settings key", key, n -> Json.write(Map.of("settings", Map.of(rockets(n), 1))))),
                // Settings strings: 4000, in the Settings description (OpenAPI 3.0 cannot give free-form values one).
                Arguments.of(new Field(
                        "settings string", 4000, n -> Json.write(Map.of("settings", Map.of("s", rockets(n)))))));
    }

    @BeforeAll
    void startApi() throws Exception {
        server = LocalApi.start(engine);
        assertThat(server.send("POST", "/workspaces", "{\"id\":\"" + ws + "\",\"name\":\"Lengths\"}", List.of(), true)
                        .statusCode())
                .isEqualTo(201);
    }

    @AfterAll
    void stopApi() {
        server.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fields")
    void exactlyMaxLengthEmoji_shouldBeStored_andOneMoreRefused(Field field) throws Exception {
        assertThat(SCHEMAS.at("/Settings/description").asString()).contains("strings of at most 4000");
        // GIVEN the workspace's project or the workspace itself, as the field belongs to one or the other
        boolean project = field.what.equals("name") || field.what.equals("description");
        String path = project ? "/workspaces/" + ws + "/projects/" + createProject() : "/workspaces/" + ws;

        // WHEN the field is set to exactly maxLength emoji (2 x maxLength UTF-16 units)
        HttpResponse<String> atMax = patch(path, field.body.apply(field.maxLength), "*");
        // THEN it is stored, whole
        assertThat(atMax.statusCode()).as(atMax.body()).isEqualTo(200);
        assertThat(String.valueOf(Json.readObject(atMax.body()))).contains(rockets(field.maxLength));
        String version = atMax.headers().firstValue("ETag").orElseThrow();

        // WHEN it is set to one more
        HttpResponse<String> over = patch(path, field.body.apply(field.maxLength + 1), "*");
        // THEN a 400 problem that says the limit, and nothing changed
        assertThat(over.statusCode()).as(over.body()).isEqualTo(400);
        assertThat(over.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat((String) Json.readObject(over.body()).get("detail")).contains(String.valueOf(field.maxLength));
        HttpResponse<String> after = server.send("GET", path, null, List.of(ws), false);
        assertThat(after.headers().firstValue("ETag")).hasValue(version);
    }

    private String createProject() throws Exception {
        HttpResponse<String> created = server.createProject(ws, "{\"name\":\"Lengths\"}");
        assertThat(created.statusCode()).isEqualTo(201);
        return (String) Json.readObject(created.body()).get("id");
    }

    private HttpResponse<String> patch(String path, String body, String ifMatch) throws Exception {
        return server.send("PATCH", path, body, List.of(ws), false, "If-Match", ifMatch);
    }

    private static String rockets(int count) {
        return ROCKET.repeat(count);
    }
}
