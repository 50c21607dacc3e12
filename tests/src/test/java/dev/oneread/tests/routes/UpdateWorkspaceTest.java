package dev.oneread.tests.routes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.EngineDeviations;
import dev.oneread.tests.support.Lambda;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** PATCH /workspaces/{workspaceId} (UpdateWorkspace): the change, its ETag, If-Match required and checked. */
class UpdateWorkspaceTest {
    private final Api api = new Api();

    @Test
    void patchWorkspace_shouldChangeNameAndSettingsAndBumpTheETag() {
        // GIVEN
        String ws = api.newWorkspace();
        // WHEN
        Lambda.Response response =
                api.patchWorkspace(ws, "\"1\"", "{\"name\":\"Acme Inc.\",\"settings\":{\"plan\":\"business\"}}");
        // THEN
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.headers()).containsEntry("etag", "\"2\"");
        assertThat(response.json())
                .containsEntry("name", "Acme Inc.")
                .containsEntry("version", 2)
                .containsEntry("settings", Map.of("plan", "business"));
        assertThat(response.dynamoCalls()).isEqualTo(1);
        assertThat(api.getWorkspace(ws).json()).containsEntry("name", "Acme Inc.");
    }

    @Test
    void patch_shouldNeedIfMatch_andRefuseAStaleOne() {
        String ws = api.newWorkspace();

        Lambda.Response missing = api.patchWorkspace(ws, null, "{\"name\":\"x\"}");
        Lambda.Response stale = api.patchWorkspace(ws, "\"7\"", "{\"name\":\"x\"}");
        Lambda.Response garbage = api.patchWorkspace(ws, "W/\"1\"", "{\"name\":\"x\"}");

        assertThat(missing.status()).isEqualTo(428);
        assertThat(missing.dynamoCalls()).isZero();
        assertThat(stale.status()).isEqualTo(412);
        // DynamoDB returns the current item with the refusal; an engine that does not (dynalite) costs one
        // consistent read more, to tell 412 from 404.
        assertThat(stale.dynamoCalls()).isEqualTo(EngineDeviations.refusedWriteCalls());
        assertThat(garbage.status()).isEqualTo(412);
        assertThat(api.getWorkspace(ws).json()).containsEntry("name", "Acme").containsEntry("version", 1);
    }
}
