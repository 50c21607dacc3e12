package dev.oneread.tests.routes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Partitions;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** PATCH /workspaces/{workspaceId}/projects/{projectId} (UpdateProject): the change, and never an upsert. */
class UpdateProjectTest {
    private final Api api = new Api();

    @Test
    void patch_shouldBe404_forAMissingItem_neverCreateOne() {
        String ws = api.newWorkspace();
        String missingProject = "01JDQ6V7K4N3M2P1R0S9T8V7W6";

        Lambda.Response response = api.patchProject(ws, missingProject, "\"1\"", "{\"name\":\"x\"}");

        assertThat(response.status()).isEqualTo(404);
        assertThat(Partitions.items(api.engine.client, "WS#" + ws)).hasSize(1); // the workspace only
    }

    @Test
    void patchProject_shouldChangeFieldsAndClearTheDescriptionWithNull() {
        String ws = api.newWorkspace();
        Map<String, Object> created = api.createProject(ws, "{\"name\":\"Site\",\"description\":\"old\"}")
                .json();
        String id = (String) created.get("id");

        Lambda.Response paused = api.patchProject(ws, id, "\"1\"", "{\"status\":\"PAUSED\",\"description\":null}");

        assertThat(paused.status()).isEqualTo(200);
        assertThat(paused.json())
                .containsEntry("status", "PAUSED")
                .containsEntry("description", null)
                .containsEntry("name", "Site")
                .containsEntry("version", 2)
                .containsEntry("createdAt", created.get("createdAt"));
        assertThat(paused.headers()).containsEntry("etag", "\"2\"");
    }
}
