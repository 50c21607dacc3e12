package dev.oneread.tests.routes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Lambda;
import org.junit.jupiter.api.Test;

/** DELETE /workspaces/{workspaceId}/projects/{projectId} (DeleteProject): If-Match, 204, then 404. */
class DeleteProjectTest {
    private final Api api = new Api();

    @Test
    void deleteProject_shouldReturn204ThenRemoveIt_and404Afterwards() {
        String ws = api.newWorkspace();
        String id = (String) api.createProject(ws, "{\"name\":\"Gone\"}").json().get("id");

        Lambda.Response staleDelete = api.deleteProject(ws, id, "\"5\"");
        Lambda.Response deleted = api.deleteProject(ws, id, "\"1\"");
        Lambda.Response again = api.deleteProject(ws, id, null);

        assertThat(staleDelete.status()).isEqualTo(412);
        assertThat(deleted.status()).isEqualTo(204);
        assertThat(deleted.body()).isEmpty();
        assertThat(deleted.dynamoCalls()).isEqualTo(1);
        assertThat(again.status()).isEqualTo(404);
        assertThat(api.getProject(ws, id).status()).isEqualTo(404);
    }
}
