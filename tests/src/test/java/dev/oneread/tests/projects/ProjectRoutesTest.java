package dev.oneread.tests.projects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Partitions;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProjectRoutesTest {
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
