package dev.oneread.tests.projects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.http.Problems;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.HotPartitionThreshold;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.stats.StatsRollup;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.TestEngine;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The project quota against the last stats run: checked with the workspace item CreateProject reads anyway (no
 * extra call), refused with a problem type of its own, raised per workspace by an operator through the workspace's
 * {@code projectQuota}, which a tenant can neither set nor lift through its settings.
 */
class ProjectQuotaTest {
    private final Api api = new Api();
    private final StatsRollup stats =
            new StatsRollup(api.engine.client, TestEngine.TABLE, ShardPlan.none(), HotPartitionThreshold.defaults());

    @Test
    void aWorkspaceAtItsQuota_shouldRefuseTheNextCreate_withoutAnExtraCall_untilItsPlanRaisesIt() {
        // GIVEN a workspace whose plan allows 3 projects, with 3, counted by a stats run
        String ws = countedWorkspace("quota", "\"projectQuota\":3", 3);
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
        // WHEN an operator raises its quota to 5, THEN the create goes through
        assertThat(api.patchWorkspaceAsOperator(ws, "\"1\"", "{\"projectQuota\":5}")
                        .status())
                .isEqualTo(200);
        assertThat(api.createProject(ws, "{\"name\":\"allowed now\"}").status()).isEqualTo(201);
    }

    @Test
    void aWorkspaceNeverCounted_shouldNotBeLimited() {
        String ws = Api.freshWorkspaceId("uncounted");
        api.createWorkspace("{\"id\":\"" + ws + "\",\"name\":\"New\",\"projectQuota\":1}");
        assertThat(api.createProject(ws, "{\"name\":\"a\"}").status()).isEqualTo(201);
        assertThat(api.createProject(ws, "{\"name\":\"b\"}").status()).isEqualTo(201);
    }

    // Guards issue 22, finding 1: a tenant's PATCH of settings.projectQuota lifted its own limit.
    @Test
    void aTenant_shouldNotLiftItsOwnQuota_throughItsSettingsOrTheQuota_butAnOperatorMay() {
        // GIVEN a workspace an operator limited to 2 projects, with 2, counted by a stats run
        String ws = countedWorkspace("lift", "\"projectQuota\":2", 2);

        // WHEN the tenant writes the old quota setting, THEN it is only a setting: the limit stands, also after
        // the next stats run
        Lambda.Response settings = api.patchWorkspace(ws, "\"1\"", "{\"settings\":{\"projectQuota\":2147483647}}");
        assertThat(settings.status()).as(settings.body()).isEqualTo(200);
        countProjects(ws);
        Lambda.Response refused = api.createProject(ws, "{\"name\":\"past the quota\"}");
        assertThat(refused.status()).as(refused.body()).isEqualTo(409);
        assertThat(refused.json()).containsEntry("type", Problems.QUOTA_EXCEEDED);

        // WHEN the tenant sets the quota itself, THEN 403, and nothing changed (the version, the quota)
        Lambda.Response forbidden = api.patchWorkspace(ws, "\"2\"", "{\"projectQuota\":2147483647}");
        assertThat(forbidden.status()).as(forbidden.body()).isEqualTo(403);
        assertThat(forbidden.contentType()).isEqualTo("application/problem+json");
        assertThat(forbidden.dynamoCalls()).as("refused before any call").isZero();
        assertThat(api.getWorkspace(ws).json()).containsEntry("version", 2).containsEntry("projectQuota", 2);

        // AND a tenant cannot create a workspace with a quota of its own (POST /workspaces is for operators)
        Lambda.Response create = api.call(
                "CreateWorkspace",
                ApiEvent.of("POST", ApiEvent.WORKSPACES)
                        .body("{\"id\":\"" + Api.freshWorkspaceId("own") + "\",\"name\":\"Own\","
                                + "\"projectQuota\":2147483647}")
                        .claims(Map.of("sub", "t", "workspaces", ws, "scope", "openid oneread/api")));
        assertThat(create.status()).as(create.body()).isEqualTo(403);

        // WHEN an operator raises it to 3, THEN one more create goes through
        Lambda.Response raised = api.patchWorkspaceAsOperator(ws, "\"2\"", "{\"projectQuota\":3}");
        assertThat(raised.status()).as(raised.body()).isEqualTo(200);
        assertThat(raised.json()).containsEntry("projectQuota", 3).containsEntry("version", 3);
        assertThat(raised.dynamoCalls()).isEqualTo(1);
        assertThat(api.createProject(ws, "{\"name\":\"c\"}").status()).isEqualTo(201);
    }

    // Items written before issue 22 may carry settings.projectQuota, put there by a tenant as often as by an
    // operator: it is no longer read as a quota, so no tenant-written value lifts (or lowers) a limit.
    @Test
    void aSettingNamedProjectQuota_shouldNotBeReadAsTheQuota() {
        // GIVEN a workspace whose settings say projectQuota 1, with 2 projects, counted
        String ws = countedWorkspace("oldsetting", "\"settings\":{\"projectQuota\":1}", 2);
        // WHEN a third is created, THEN the deployment's default quota applies, not the setting
        Lambda.Response third = api.createProject(ws, "{\"name\":\"c\"}");
        assertThat(third.status()).as(third.body()).isEqualTo(201);
        assertThat(api.getWorkspace(ws).json()).doesNotContainKey("projectQuota");
    }

    @Test
    void aQuota_shouldBeAPositiveWholeNumber() {
        String ws = Api.freshWorkspaceId("badquota");
        for (String quota : new String[] {"0", "-1", "1.5", "\"5\"", "null", "2147483648"}) {
            Lambda.Response refused =
                    api.createWorkspace("{\"id\":\"" + ws + "\",\"name\":\"Q\",\"projectQuota\":" + quota + "}");
            assertThat(refused.status()).as(quota).isEqualTo(400);
            assertThat(refused.contentType()).isEqualTo("application/problem+json");
        }
        assertThat(api.getWorkspace(ws).status()).as("nothing was created").isEqualTo(404);
    }

    /** A new workspace with these extra fields, created by an operator, and {@code projects} projects, counted. */
    private String countedWorkspace(String prefix, String fields, int projects) {
        String ws = Api.freshWorkspaceId(prefix);
        Lambda.Response created = api.createWorkspace("{\"id\":\"" + ws + "\",\"name\":\"Quota\"," + fields + "}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        for (int i = 0; i < projects; i++) {
            assertThat(api.createProject(ws, "{\"name\":\"p" + i + "\"}").status())
                    .isEqualTo(201);
        }
        countProjects(ws);
        return ws;
    }

    private void countProjects(String ws) {
        stats.run(WorkspaceId.of(ws), 0, Ulid.generator().next().value(), Instant.now(), new CallTally());
    }
}
