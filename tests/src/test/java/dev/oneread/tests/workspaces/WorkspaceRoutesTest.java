package dev.oneread.tests.workspaces;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.runner.LocalQueues;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.EngineDeviations;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Partitions;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkspaceRoutesTest {
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

    @Test
    void getWorkspace_shouldCostOneGetItemOfHalfAUnit() {
        // GIVEN
        String id = Api.freshWorkspaceId("get");
        api.createWorkspace(id, "Acme");
        // WHEN
        Lambda.Response response = api.getWorkspace(id);
        // THEN
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json()).containsEntry("id", id).containsEntry("settings", Map.of("plan", "team"));
        assertThat(response.headers()).containsEntry("etag", "\"1\"");
        assertThat(response.dynamoCalls()).isEqualTo(1);
        assertThat(response.dynamoCapacity()).isEqualByComparingTo("0.5");
    }

    @Test
    void getWorkspace_shouldReturn404ProblemAfterOneCall_whenMissing() {
        Lambda.Response response = api.getWorkspace(Api.freshWorkspaceId("missing"));

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.contentType()).isEqualTo("application/problem+json");
        assertThat(response.json()).containsEntry("status", 404).containsEntry("title", "Not Found");
        assertThat(response.dynamoCalls()).isEqualTo(1);
        assertThat(response.dynamoCapacity()).isEqualByComparingTo("0.5");
    }

    @Test
    void everyInvocation_shouldWriteOneStructuredLogLine() {
        String id = Api.freshWorkspaceId("log");
        api.createWorkspace(id, "Acme");

        Lambda.Response response = api.getWorkspace(id);

        assertThat(response.logLines()).hasSize(1);
        Map<String, Object> line =
                dev.oneread.json.Json.readObject(response.logLines().get(0));
        assertThat(line)
                .containsEntry("function", "GetWorkspace")
                .containsEntry("route", "GET /workspaces/{workspaceId}")
                .containsEntry("status", 200)
                .containsEntry("calls", 1)
                .containsKeys("capacity", "durationMs", "requestId");
        assertThat(new BigDecimal(line.get("capacity").toString())).isEqualByComparingTo("0.5");
    }

    // Guards issue 22: a DELETE at a stale version of a workspace already being purged was answered 202.
    @Test
    void deleteWorkspace_shouldReturn412_whenIfMatchNamesAnotherVersion_ofAWorkspaceBeingPurged() {
        // GIVEN a workspace at version 1, deleted at that version (its purge waits out a fence no test reaches)
        String id = Api.freshWorkspaceId("purging");
        assertThat(api.createWorkspace(id, "Doomed").status()).isEqualTo(201);
        try (LocalQueues queues = LocalQueues.start(
                SamTemplate.load(api.engine.root.resolve("template.yaml")), api.table, Duration.ofSeconds(30))) {
            api.withJobQueue(queues.client(), queues.url("JobQueue"), Duration.ofMinutes(10));
            Lambda.Response first = api.deleteWorkspace(id, "\"1\"");
            assertThat(first.status()).as(first.body()).isEqualTo(202);
            // WHEN DELETEs follow with another version: one never issued, and the one the purging item now has
            for (String stale : new String[] {"\"7\"", "\"2\""}) {
                Lambda.Response refused = api.deleteWorkspace(id, stale);
                // THEN 412, as for any other version mismatch, after the one refused write
                assertThat(refused.status()).as(stale + " " + refused.body()).isEqualTo(412);
                assertThat(refused.contentType()).isEqualTo("application/problem+json");
                assertThat(refused.dynamoCalls()).isEqualTo(EngineDeviations.refusedWriteCalls());
            }
            // AND a retry of the first DELETE, or one without If-Match, is answered as the first was
            for (String retry : new String[] {"\"1\"", null}) {
                Lambda.Response again = api.deleteWorkspace(id, retry);
                assertThat(again.status()).as(retry + " " + again.body()).isEqualTo(202);
                assertThat(again.json()).containsEntry("deletedAt", first.json().get("deletedAt"));
            }
        }
    }
}
