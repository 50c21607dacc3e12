package dev.oneread.tests.projects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.EngineDeviations;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Partitions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WriteRoutesTest {
    private final Api api = new Api();

    private String workspace() {
        String ws = Api.freshWorkspaceId("w");
        assertThat(api.createWorkspace(ws, "Acme").status()).isEqualTo(201);
        return ws;
    }

    @Test
    void patchWorkspace_shouldChangeNameAndSettingsAndBumpTheETag() {
        // GIVEN
        String ws = workspace();
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
        String ws = workspace();

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

    @Test
    void patch_shouldBe404_forAMissingItem_neverCreateOne() {
        String ws = workspace();
        String missingProject = "01JDQ6V7K4N3M2P1R0S9T8V7W6";

        Lambda.Response response = api.patchProject(ws, missingProject, "\"1\"", "{\"name\":\"x\"}");

        assertThat(response.status()).isEqualTo(404);
        assertThat(Partitions.items(api.engine.client, "WS#" + ws)).hasSize(1); // the workspace only
    }

    @Test
    void patchProject_shouldChangeFieldsAndClearTheDescriptionWithNull() {
        String ws = workspace();
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

    @Test
    void deleteProject_shouldReturn204ThenRemoveIt_and404Afterwards() {
        String ws = workspace();
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

    @Test
    void idempotentCreate_shouldReplayTheFirstResponse_and422ForAnotherPayload() {
        String ws = workspace();

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

    @Test
    void idempotencyRecords_shouldNeverShowInReads() {
        String ws = workspace();
        api.createProject(ws, "{\"name\":\"p\"}", "key-3");

        Lambda.Response collection = api.collection(ws, Map.of());

        @SuppressWarnings("unchecked")
        List<Object> projects = (List<Object>) collection.json().get("projects");
        assertThat(projects).hasSize(1);
        assertThat(collection.json().get("workspace")).isNotNull();
        assertThat(Partitions.items(api.engine.client, "WS#" + ws)).hasSize(3); // META, PROJ#, IDEM#
    }
}
