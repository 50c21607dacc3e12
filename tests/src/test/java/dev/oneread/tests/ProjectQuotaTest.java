package dev.oneread.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.http.Problems;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.HotPartitionThreshold;
import dev.oneread.store.CallTally;
import dev.oneread.store.StatsRollup;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The project quota against the last stats run: checked with the workspace item CreateProject reads anyway (no
 * extra call), refused with a problem type of its own, raised per workspace through its settings.
 */
class ProjectQuotaTest {
    private final Api api = new Api();
    private final StatsRollup stats =
            new StatsRollup(api.engine.client, TestEngine.TABLE, ShardPlan.none(), HotPartitionThreshold.defaults());

    @Test
    void aWorkspaceAtItsQuota_shouldRefuseTheNextCreate_withoutAnExtraCall_untilItsPlanRaisesIt() {
        // GIVEN a workspace whose plan allows 3 projects, with 3, counted by a stats run
        String ws = Api.freshWorkspaceId("quota");
        api.createWorkspace("{\"id\":\"" + ws + "\",\"name\":\"Quota\",\"settings\":{\"projectQuota\":3}}");
        for (int i = 0; i < 3; i++) {
            assertThat(api.createProject(ws, "{\"name\":\"p" + i + "\"}").status())
                    .isEqualTo(201);
        }
        stats.run(WorkspaceId.of(ws), 0, Ulid.generator().next().value(), Instant.now(), new CallTally());
        // WHEN a fourth is created
        Lambda.Response refused = api.createProject(ws, "{\"name\":\"one too many\"}");
        // THEN 409 with the quota's problem type, after the one read the create makes anyway
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.json())
                .containsEntry("type", Problems.QUOTA_EXCEEDED)
                .containsEntry("title", "Project quota exceeded");
        assertThat((String) refused.json().get("detail"))
                .contains("has 3 projects")
                .contains("its quota is 3");
        assertThat(refused.dynamoCalls()).isEqualTo(1);
        // AND GetWorkspace shows the counts, and the job left the version (the ETag) alone
        Lambda.Response workspace = api.getWorkspace(ws);
        assertThat(workspace.json()).containsEntry("version", 1);
        @SuppressWarnings("unchecked")
        Map<String, Object> counts = (Map<String, Object>) workspace.json().get("stats");
        assertThat(counts).containsEntry("ACTIVE", 3).containsEntry("total", 3).containsKey("asOf");
        // WHEN its plan raises the quota to 5, THEN the create goes through
        assertThat(api.patchWorkspace(ws, "\"1\"", "{\"settings\":{\"projectQuota\":5}}")
                        .status())
                .isEqualTo(200);
        assertThat(api.createProject(ws, "{\"name\":\"allowed now\"}").status()).isEqualTo(201);
    }

    @Test
    void aWorkspaceNeverCounted_shouldNotBeLimited() {
        String ws = Api.freshWorkspaceId("uncounted");
        api.createWorkspace("{\"id\":\"" + ws + "\",\"name\":\"New\",\"settings\":{\"projectQuota\":1}}");
        assertThat(api.createProject(ws, "{\"name\":\"a\"}").status()).isEqualTo(201);
        assertThat(api.createProject(ws, "{\"name\":\"b\"}").status()).isEqualTo(201);
    }
}
