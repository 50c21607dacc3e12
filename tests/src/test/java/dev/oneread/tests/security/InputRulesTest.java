package dev.oneread.tests.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Partitions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Input rules that once disagreed between routes, or silently changed what was stored: found by a new
 * user and by an OpenAPI fuzzer (issue 8, point 7).
 */
class InputRulesTest {
    private final Api api = new Api();

    private String workspace() {
        String ws = Api.freshWorkspaceId("in");
        assertThat(api.createWorkspace(ws, "Acme").status()).isEqualTo(201);
        return ws;
    }

    @Test
    void createProject_shouldRefuseNullStatus_asPatchDoes() {
        String ws = workspace();

        Lambda.Response response = api.createProject(ws, "{\"name\":\"Site\",\"status\":null}");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json()).containsEntry("detail", "status must not be null");
        assertThat(Partitions.items(api.engine.client, "WS#" + ws)).hasSize(1);
    }

    @Test
    void createWorkspace_shouldRefuseNullSettings_asPatchDoes() {
        String ws = Api.freshWorkspaceId("in");

        Lambda.Response create = api.createWorkspace("{\"id\":\"" + ws + "\",\"name\":\"Acme\",\"settings\":null}");

        assertThat(create.status()).isEqualTo(400);
        assertThat(create.json()).containsEntry("detail", "settings must not be null");
        assertThat(Partitions.items(api.engine.client, "WS#" + ws)).isEmpty();
        // and a create that leaves settings out still gets an empty map
        assertThat(api.createWorkspace("{\"id\":\"" + ws + "\",\"name\":\"Acme\"}")
                        .json())
                .containsEntry("settings", Map.of());
    }

    /** A JSON escape of half a surrogate pair: not Unicode text, and DynamoDB would store {@code ?} for it. */
    private static final String LONE_HIGH = "\\ud800";

    private static final String LONE_LOW = "\\udc00";

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"name\":\"a" + LONE_HIGH + "b\"}",
                "{\"name\":\"a" + LONE_LOW + "\"}",
                "{\"name\":\"Site\",\"description\":\"" + LONE_HIGH + "\"}",
                "{\"name\":\"Site\",\"description\":\"x" + LONE_LOW + LONE_HIGH + "y\"}"
            })
    void createProject_shouldRefuseLoneSurrogates_insteadOfStoringQuestionMarks(String body) {
        String ws = workspace();

        Lambda.Response response = api.createProject(ws, body);

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.contentType()).isEqualTo("application/problem+json");
        assertThat((String) response.json().get("detail")).contains("lone UTF-16 surrogate");
        assertThat(Partitions.items(api.engine.client, "WS#" + ws)).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"settings\":{\"a" + LONE_HIGH + "b\":1}}",
                "{\"settings\":{\"k\":\"a" + LONE_LOW + "\"}}",
                "{\"settings\":{\"k\":[\"" + LONE_HIGH + "\"]}}",
                "{\"name\":\"" + LONE_HIGH + "\"}"
            })
    void patchWorkspace_shouldRefuseLoneSurrogates_inValuesAndSettingsKeys(String body) {
        String ws = workspace();

        Lambda.Response response = api.patchWorkspace(ws, "\"1\"", body);

        // A settings key used to get "body must be a JSON object": the fault is the text, so say so.
        assertThat(response.status()).isEqualTo(400);
        assertThat((String) response.json().get("detail")).contains("lone UTF-16 surrogate");
        assertThat(api.getWorkspace(ws).json()).containsEntry("version", 1).containsEntry("name", "Acme");
    }

    @Test
    void createProject_shouldKeepAValidSurrogatePair() {
        String ws = workspace();
        String rocket = "\\ud83d\\ude80"; // U+1F680, escaped as a pair

        Lambda.Response response = api.createProject(ws, "{\"name\":\"go " + rocket + "\"}");

        assertThat(response.status()).isEqualTo(201);
        assertThat(response.json()).containsEntry("name", "go \uD83D\uDE80");
    }
    /**
     * An invalid body with each kind of If-Match: stale but well-formed, unparseable, missing. Found by an
     * OpenAPI fuzzer (issue 22): the unparseable one answered 412 and the stale one 400 for the same body.
     */
    @ParameterizedTest
    @ValueSource(strings = {"\"999\"", "W/\"1\"", "not-an-etag", ""})
    void patch_shouldCheckTheBodyBeforeTheIfMatch_whateverTheIfMatchIs(String ifMatch) {
        // GIVEN a workspace and a project at version 1
        String ws = workspace();
        String project =
                (String) api.createProject(ws, "{\"name\":\"Site\"}").json().get("id");
        String header = ifMatch.isEmpty() ? null : ifMatch;
        // WHEN each is patched with a body that is invalid (an unknown field)
        Lambda.Response workspacePatch = api.patchWorkspace(ws, header, "{\"nmae\":\"Acme 2\"}");
        Lambda.Response projectPatch = api.patchProject(ws, project, header, "{\"nmae\":\"Site 2\"}");
        // THEN both are the body's 400, never a 412 or 428 that depends on how the If-Match is wrong
        assertThat(List.of(workspacePatch, projectPatch)).allSatisfy(response -> {
            assertThat(response.status()).as(ifMatch + ": " + response.body()).isEqualTo(400);
            assertThat((String) response.json().get("detail")).startsWith("unknown field");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"999\"", "W/\"1\"", "not-an-etag"})
    void patch_shouldAnswer412_forAValidBody_whenTheIfMatchIsStaleOrUnparseable(String ifMatch) {
        // GIVEN
        String ws = workspace();
        String project =
                (String) api.createProject(ws, "{\"name\":\"Site\"}").json().get("id");
        // WHEN a valid body comes with an If-Match that matches no version
        Lambda.Response workspacePatch = api.patchWorkspace(ws, ifMatch, "{\"name\":\"Acme 2\"}");
        Lambda.Response projectPatch = api.patchProject(ws, project, ifMatch, "{\"name\":\"Site 2\"}");
        // THEN a 412 either way, and nothing changed
        assertThat(workspacePatch.status()).isEqualTo(412);
        assertThat(projectPatch.status()).isEqualTo(412);
        assertThat(api.getWorkspace(ws).json()).containsEntry("version", 1);
        assertThat(api.getProject(ws, project).json()).containsEntry("version", 1);
    }
}
