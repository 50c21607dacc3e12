package dev.oneread.tests.routes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Partitions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * POST /workspaces/{workspaceId}/projects (CreateProject): the new project and its cost, a missing workspace, and
 * Idempotency-Key. Races, the quota and faults under a key are projects/ConcurrencyTest's, projects/ProjectQuotaTest's
 * and the idempotency package's.
 */
class CreateProjectTest {
    private final Api api = new Api();

    @Test
    void createProject_shouldReturn201WithUlidAndDefaultStatus() {
        // GIVEN
        String ws = Api.freshWorkspaceId("proj");
        api.createWorkspace(ws, "Acme");
        // WHEN
        Lambda.Response response = api.createProject(ws, "{\"name\":\"Website\",\"description\":\"Marketing site\"}");
        // THEN
        assertThat(response.status()).isEqualTo(201);
        Map<String, Object> body = response.json();
        assertThat((String) body.get("id")).matches("[0-7][0-9A-HJKMNP-TV-Z]{25}");
        assertThat(body)
                .containsEntry("workspaceId", ws)
                .containsEntry("name", "Website")
                .containsEntry("description", "Marketing site")
                .containsEntry("status", "ACTIVE")
                .containsEntry("version", 1);
        assertThat(response.headers()).containsEntry("location", "/workspaces/" + ws + "/projects/" + body.get("id"));
        // The create's documented cost: GetItem of the workspace (0.5) + conditional PutItem (1 on the table, 1 for
        // the project's GSI1 entry).
        assertThat(response.dynamoCalls()).isEqualTo(2);
        assertThat(response.dynamoCapacity()).isEqualByComparingTo("2.5");
    }

    @Test
    void createProject_shouldReturn404AndWriteNothing_whenWorkspaceIsMissing() {
        String ws = Api.freshWorkspaceId("nows");

        Lambda.Response response = api.createProject(ws, "{\"name\":\"Orphan\"}");

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.dynamoCalls()).isEqualTo(1);
        assertThat(Partitions.items(api.engine.client, "WS#" + ws)).isEmpty();
    }

    @Test
    void idempotentCreate_shouldReplayTheFirstResponse_and422ForAnotherPayload() {
        String ws = api.newWorkspace();

        Lambda.Response first = api.createProject(ws, "{\"name\":\"Once\"}", "key-1");
        Lambda.Response retry = api.createProject(ws, "{\"name\":\"Once\"}", "key-1");
        Lambda.Response otherBody = api.createProject(ws, "{\"name\":\"Twice\"}", "key-1");

        assertThat(first.status()).isEqualTo(201);
        assertThat(retry.status()).isEqualTo(201);
        assertThat(retry.body()).isEqualTo(first.body());
        assertThat(retry.headers())
                .containsEntry("idempotent-replayed", "true")
                .containsEntry("location", first.headers().get("location"));
        assertThat(otherBody.status()).isEqualTo(422);
        @SuppressWarnings("unchecked")
        List<Object> items =
                (List<Object>) api.listProjects(ws, Map.of()).json().get("items");
        assertThat(items).hasSize(1);
    }

    @Test
    void idempotentCreate_shouldRunAgainAfterAFailure() {
        // GIVEN a create that fails (no such workspace): the claim is released, not kept
        String ws = Api.freshWorkspaceId("later");
        assertThat(api.createProject(ws, "{\"name\":\"p\"}", "key-2").status()).isEqualTo(404);
        // WHEN the workspace appears and the client retries with the same key
        api.createWorkspace(ws, "Later");
        Lambda.Response retry = api.createProject(ws, "{\"name\":\"p\"}", "key-2");
        // THEN it runs for real
        assertThat(retry.status()).isEqualTo(201);
        assertThat(retry.headers()).doesNotContainKey("idempotent-replayed");
    }
}
