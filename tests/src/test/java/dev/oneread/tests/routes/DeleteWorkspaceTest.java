package dev.oneread.tests.routes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.runner.LocalQueues;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.EngineDeviations;
import dev.oneread.tests.support.Lambda;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * DELETE /workspaces/{workspaceId} (DeleteWorkspace): its versions while the workspace is purged. The purge itself is
 * jobs/PurgeTest's.
 */
class DeleteWorkspaceTest {
    private final Api api = new Api();

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
