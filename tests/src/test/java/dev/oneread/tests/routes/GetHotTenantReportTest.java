package dev.oneread.tests.routes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.CreationToken;
import dev.oneread.model.ExpectedVersion;
import dev.oneread.model.HotPartitionThreshold;
import dev.oneread.model.NewProject;
import dev.oneread.model.ProjectStatus;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.purge.Purge;
import dev.oneread.store.purge.WorkspacePurge;
import dev.oneread.store.stats.StatsRollup;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Pages;
import dev.oneread.tests.support.TestEngine;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * GET /reports/hot-tenants (GetHotTenantReport) and the report it reads: the stats task of each partition writes its
 * entry while the partition is over the threshold, with docs/hot-tenants.md's shard count, and takes it back when it no
 * longer is; the route reads it in one Query per page; a purge removes a deleted workspace's entries.
 */
class GetHotTenantReportTest {
    private static final HotPartitionThreshold THRESHOLD = new HotPartitionThreshold(20, 1L << 30);
    private static final Map<String, Object> OPERATOR =
            Map.of("sub", "op", "workspaces", "", "scope", "openid oneread/admin");

    private final TestEngine engine = TestEngine.get();
    private final String table = "report-" + UUID.randomUUID().toString().substring(0, 8);
    private final String big = Api.freshWorkspaceId("big");
    private final String small = Api.freshWorkspaceId("small");
    private final String sharded = Api.freshWorkspaceId("sharded");
    private final ShardPlan plan = ShardPlan.parse(sharded + "=4", "");
    private final Api api = new Api(plan, table);
    private final ControlPlaneStore store = new ControlPlaneStore(engine.client, engine.pool, table, plan);
    private final StatsRollup stats = new StatsRollup(engine.client, table, plan, THRESHOLD);
    private final Ulid runs = Ulid.generator();

    @Test
    void report_shouldListThePartitionsOverTheThreshold_andTakeThemBack_whenTheyNoLongerAre() throws Exception {
        // GIVEN a workspace of 30 projects, one of 5, and a hot tenant of 4 shards with 160 (about 40 a shard),
        // against a threshold of 20 projects a partition
        List<ProjectId> bigProjects = fill(big, 30);
        fill(small, 5);
        fill(sharded, 160);

        // WHEN a stats run counts them all
        String first = runs.next().value();
        Map<String, CallTally> tallies = runAll(first);

        // THEN the report lists the big workspace (ceil(30 / 20 x 2) = 3 shards) and every shard of the hot tenant
        // (each stands for 4 x its count), but not the small one; in one Query
        Lambda.Response report = report(Map.of());
        assertThat(report.dynamoCalls()).isEqualTo(1);
        List<Map<String, Object>> entries = items(report);
        assertThat(entries)
                .extracting(e -> e.get("workspaceId") + "/" + e.get("shard"))
                .containsExactlyInAnyOrder(big + "/0", sharded + "/1", sharded + "/2", sharded + "/3", sharded + "/4");
        Map<String, Object> bigEntry = entries.stream()
                .filter(e -> big.equals(e.get("workspaceId")))
                .findFirst()
                .orElseThrow();
        assertThat(bigEntry)
                .containsEntry("projects", 30)
                .containsEntry("currentShards", 1)
                .containsEntry("recommendedShards", 3)
                .containsEntry("runId", first);
        for (Map<String, Object> shard : entries) {
            if (sharded.equals(shard.get("workspaceId"))) {
                int projects = (Integer) shard.get("projects");
                assertThat(shard.get("recommendedShards"))
                        .isEqualTo(THRESHOLD.recommendedShards(projects, 0, 4))
                        .isEqualTo((int) Math.ceil(projects * 4 / 20.0 * 2));
            }
        }
        // AND a partition that is not hot, and was not, cost the report no call: its Query and its stats write
        assertThat(tallies.get(small).operations()).containsExactly("Query", "UpdateItem");

        // WHEN the big workspace shrinks to 15 projects and the next run counts it
        for (ProjectId id : bigProjects.subList(0, 15)) {
            store.deleteProject(WorkspaceId.of(big), id, ExpectedVersion.any(), Instant.now(), new CallTally());
        }
        String second = runs.next().value();
        tallies = runAll(second);

        // THEN its entry is taken back, by one DeleteItem more, and the hot tenant's stay, written by this run
        assertThat(tallies.get(big).operations()).containsExactly("Query", "UpdateItem", "DeleteItem");
        entries = items(report(Map.of()));
        assertThat(entries).extracting(e -> e.get("workspaceId")).doesNotContain(big, small);
        assertThat(entries).hasSize(4).allSatisfy(e -> assertThat(e).containsEntry("runId", second));

        // WHEN the second run's tasks are delivered again
        runAll(second);
        // THEN nothing changes: no entry comes back, none is lost
        assertThat(items(report(Map.of()))).isEqualTo(entries);

        // AND the report pages with a sealed cursor, one Query a page
        List<Lambda.Response> pages = Pages.follow(Map.of("limit", "3"), this::report);
        assertThat(pages).hasSize(2).allSatisfy(p -> assertThat(p.dynamoCalls()).isEqualTo(1));
        assertThat(pages.stream().flatMap(p -> items(p).stream()).toList()).isEqualTo(entries);

        // WHEN the hot tenant is deleted and purged
        Purge purge = store.deleteWorkspace(
                WorkspaceId.of(sharded), ExpectedVersion.any(), runs.next().value(), Instant.now(), new CallTally());
        new WorkspacePurge(engine.client, table, plan, Duration.ZERO)
                .run(WorkspaceId.of(sharded), purge.runId(), Instant.now(), new CallTally());
        // THEN its entries went with it
        assertThat(items(report(Map.of()))).isEmpty();
    }

    @Test
    void aStatsTaskOfAWorkspaceBeingPurged_shouldWriteNoStats_andLeaveNoReportEntryBehindThePurge() {
        // GIVEN a hot workspace (30 projects, over the threshold of 20), deleted: its purge has not swept yet
        fill(big, 30);
        store.deleteWorkspace(
                WorkspaceId.of(big), ExpectedVersion.any(), runs.next().value(), Instant.now(), new CallTally());

        // WHEN a stats task reaches it (planned before the DELETE, or redelivered), before the purge sweeps
        StatsRollup.Outcome outcome =
                stats.run(WorkspaceId.of(big), 0, runs.next().value(), Instant.now(), new CallTally());

        // THEN it writes nothing: no stats on the workspace item, and no report entry, which could land after the
        // purge took the workspace's entries away and outlive it
        assertThat(outcome.applied())
                .as("stats written into a workspace being purged")
                .isFalse();
        assertThat(items(report(Map.of())))
                .extracting(e -> e.get("workspaceId"))
                .doesNotContain(big);
        assertThat(engine.client
                        .getItem(g -> g.tableName(table)
                                .key(Map.of(
                                        "EntityRef", AttributeValue.fromS("WS#" + big),
                                        "Detail", AttributeValue.fromS("META")))
                                .consistentRead(true))
                        .item())
                .containsKey("purgeRun")
                .doesNotContainKey("stats");
    }

    private Lambda.Response report(Map<String, String> query) {
        return api.call(
                "GetHotTenantReport",
                ApiEvent.of("GET", "/reports/hot-tenants").query(query).claims(OPERATOR));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> items(Lambda.Response response) {
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        return (List<Map<String, Object>>) response.json().get("items");
    }

    /** Every task of one stats run, as the planner would send them (a task per shard of the hot tenant). */
    private Map<String, CallTally> runAll(String runId) {
        Map<String, CallTally> tallies = new java.util.HashMap<>();
        for (String ws : List.of(big, small)) {
            CallTally tally = new CallTally();
            stats.run(WorkspaceId.of(ws), 0, runId, Instant.now(), tally);
            tallies.put(ws, tally);
        }
        for (int shard = 1; shard <= 4; shard++) {
            stats.run(WorkspaceId.of(sharded), shard, runId, Instant.now(), new CallTally());
        }
        return tallies;
    }

    private List<ProjectId> fill(String workspace, int projects) {
        assertThat(api.createWorkspace(workspace, "W").status()).isEqualTo(201);
        List<ProjectId> ids = new ArrayList<>();
        Ulid generator = Ulid.generator();
        for (int p = 0; p < projects; p++) {
            ProjectId id = generator.next();
            store.createProject(
                    WorkspaceId.of(workspace),
                    id,
                    new NewProject("p" + p, null, ProjectStatus.ACTIVE),
                    Instant.now(),
                    CreationToken.random(),
                    new CallTally());
            ids.add(id);
        }
        return ids;
    }
}
