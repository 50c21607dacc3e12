package dev.oneread.tests.routes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.EngineDeviations;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Partitions;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** POST /workspaces (CreateWorkspace): the new workspace, its cost, and a taken id. */
class CreateWorkspaceTest {
    private final Api api = new Api();

    @Test
    void createWorkspace_shouldReturn201AndStoreTheItem_whenIdIsFree() {
        // GIVEN
        String id = Api.freshWorkspaceId("create");
        // WHEN
        Lambda.Response response = api.createWorkspace(
                "{\"id\":\"" + id + "\",\"name\":\"Acme Corp\",\"settings\":{\"plan\":\"team\",\"seats\":25,"
                        + "\"sso\":{\"enabled\":true,\"domains\":[\"acme.example\"]},\"ratio\":0.75}}");
        // THEN
        assertThat(response.status()).isEqualTo(201);
        assertThat(response.headers())
                .containsEntry("location", "/workspaces/" + id)
                .containsEntry("etag", "\"1\"");
        Map<String, Object> body = response.json();
        assertThat(body)
                .containsEntry("id", id)
                .containsEntry("name", "Acme Corp")
                .containsEntry("version", 1);
        assertThat(body.get("settings"))
                .isEqualTo(Map.of(
                        "plan",
                        "team",
                        "seats",
                        25,
                        "sso",
                        Map.of("enabled", true, "domains", List.of("acme.example")),
                        "ratio",
                        new BigDecimal("0.75")));
        assertThat((String) body.get("createdAt")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{1,3})?Z");
        // One conditional PutItem of a small item: 1 write unit on the table, 1 for its registry entry on GSI1.
        assertThat(response.dynamoCalls()).isEqualTo(1);
        assertThat(response.dynamoCapacity()).isEqualByComparingTo("2");
        assertThat(Partitions.items(api.engine.client, "WS#" + id)).hasSize(1);
    }

    @Test
    void createWorkspace_shouldReturn409AndKeepTheFirst_whenIdIsTaken() {
        // GIVEN
        String id = Api.freshWorkspaceId("dup");
        assertThat(api.createWorkspace(id, "First").status()).isEqualTo(201);
        // WHEN
        Lambda.Response second = api.createWorkspace(id, "Second");
        // THEN
        assertThat(second.status()).isEqualTo(409);
        assertThat(second.contentType()).isEqualTo("application/problem+json");
        // the refused put, and on an engine that drops the item from the refusal, a read of whose item it is
        assertThat(second.dynamoCalls()).isEqualTo(EngineDeviations.refusedWriteCalls());
        assertThat(api.getWorkspace(id).json()).containsEntry("name", "First");
    }
}
