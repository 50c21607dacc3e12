package dev.oneread.tests.routes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Lambda;
import org.junit.jupiter.api.Test;

/** GET /workspaces/{workspaceId}/projects/{projectId} (GetProject): one GetItem, and only in its own workspace. */
class GetProjectTest {
    private final Api api = new Api();

    @Test
    void getProject_shouldCostOneGetItemOfHalfAUnit() {
        // GIVEN
        String ws = Api.freshWorkspaceId("getp");
        api.createWorkspace(ws, "Acme");
        String id = (String) api.createProject(ws, "{\"name\":\"API\",\"status\":\"PAUSED\"}")
                .json()
                .get("id");
        // WHEN
        Lambda.Response response = api.getProject(ws, id);
        // THEN
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json())
                .containsEntry("id", id)
                .containsEntry("status", "PAUSED")
                .containsEntry("description", null);
        assertThat(response.headers()).containsEntry("etag", "\"1\"");
        assertThat(response.dynamoCalls()).isEqualTo(1);
        assertThat(response.dynamoCapacity()).isEqualByComparingTo("0.5");
    }

    @Test
    void getProject_shouldReturn404_whenTheProjectBelongsToAnotherWorkspace() {
        String a = Api.freshWorkspaceId("a");
        String b = Api.freshWorkspaceId("b");
        api.createWorkspace(a, "A");
        api.createWorkspace(b, "B");
        String idInB =
                (String) api.createProject(b, "{\"name\":\"B's\"}").json().get("id");

        Lambda.Response response = api.getProject(a, idInB);

        // The key is built from the path's workspace, so B's project is simply not in A's collection.
        assertThat(response.status()).isEqualTo(404);
        assertThat(response.dynamoCalls()).isEqualTo(1);
    }
}
