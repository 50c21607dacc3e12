package dev.oneread.tests.hottenants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.functions.migratehottenant.MigrateHotTenantFunction;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ExpectedVersion;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.purge.Purge;
import dev.oneread.store.purge.WorkspacePurge;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Partitions;
import dev.oneread.tests.support.TestEngine;
import dev.oneread.tests.support.Trials;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The migration lease (issue 22, findings 2 and 3): two runs of MigrateHotTenant never move one workspace at once,
 * so a stalled run cannot bring back a project deleted after another run moved it; and a purge sweeps only after the
 * lease is over, so a run stalled across a DELETE leaves nothing behind for a later tenant with the same id to read.
 * Each race is ordered by an interceptor that holds one of the job's calls on a latch.
 */
class MigrationLeaseTest {
    private static final int SHARDS = 4;

    private final TestEngine engine = TestEngine.get();
    private final Ulid runs = Ulid.generator();

    /** Holds the job's copy (a PutItem of a versioned project) of one project until released. */
    static final class HeldCopy implements ExecutionInterceptor {
        private final String sortKey;
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        HeldCopy(String projectId) {
            this.sortKey = "PROJ#" + projectId;
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if (context.request() instanceof PutItemRequest copy
                    && copy.item().containsKey("version")
                    && sortKey.equals(copy.item().get("Detail").s())
                    && reached.getCount() > 0) {
                reached.countDown();
                try {
                    assertThat(release.await(Eventually.FAILSAFE.toSeconds(), TimeUnit.SECONDS))
                            .isTrue();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** A workspace of {@code projects} unsharded projects, now listed as hot and migrating. */
    private record Tenant(String ws, List<String> ids, ShardPlan migrating, Api api) {
        List<String> partitions() {
            List<String> partitions = new ArrayList<>(List.of("WS#" + ws));
            for (int shard = 1; shard <= SHARDS; shard++) {
                partitions.add("WS#" + ws + "#" + String.format("%02d", shard));
            }
            return partitions;
        }
    }

    private static Tenant tenant(String prefix, int projects) {
        String ws = Api.freshWorkspaceId(prefix);
        Api unsharded = new Api();
        assertThat(unsharded.createWorkspace(ws, "Lease").status()).isEqualTo(201);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < projects; i++) {
            ids.add((String) unsharded
                    .createProject(ws, "{\"name\":\"p" + i + "\"}")
                    .json()
                    .get("id"));
        }
        ShardPlan migrating = ShardPlan.parse(ws + "=" + SHARDS, ws);
        return new Tenant(ws, ids, migrating, new Api(migrating));
    }

    private MigrateHotTenantFunction job(Tenant tenant, ExecutionInterceptor... interceptors) {
        return new MigrateHotTenantFunction(
                engine.functionClient("MigrateHotTenant", TestEngine.TABLE, List.of(interceptors)),
                Api.config("MigrateHotTenant", tenant.migrating()));
    }

    private static Map<String, Object> invoke(MigrateHotTenantFunction job, Tenant tenant) {
        return Lambda.invokeJob(job, Map.of("workspaceId", tenant.ws())).output();
    }

    /** Every item left in the tenant's partitions, tombstones included. */
    private List<Map<String, AttributeValue>> itemsOf(Tenant tenant) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        tenant.partitions().forEach(p -> items.addAll(Partitions.items(engine.client, p)));
        return items;
    }

    @Test
    void twoRunsAtOnce_shouldNotBringBackAProjectDeletedAfterTheOtherRunMovedIt() throws Exception {
        // GIVEN run A, which read project P and is held just before its copy
        Tenant tenant = tenant("twice", 3);
        String p = tenant.ids().get(1);
        HeldCopy held = new HeldCopy(p);
        CompletableFuture<Map<String, Object>> runA =
                CompletableFuture.supplyAsync(() -> invoke(job(tenant, held), tenant));
        assertThat(held.reached.await(Eventually.FAILSAFE.toSeconds(), TimeUnit.SECONDS))
                .isTrue();

        // WHEN run B starts meanwhile (an operator, or a client re-sending a long invoke), then the user deletes P,
        // then run A's copy goes out
        Map<String, Object> runB = invoke(job(tenant), tenant);
        Lambda.Response deleted = tenant.api().deleteProject(tenant.ws(), p, null);
        assertThat(deleted.status()).isEqualTo(204);
        held.release.countDown();
        Map<String, Object> a = runA.get(Eventually.FAILSAFE.toSeconds(), TimeUnit.SECONDS);

        // THEN P stays deleted: not readable, not listed, in no partition
        assertThat(tenant.api().getProject(tenant.ws(), p).status())
                .as("the deleted project is readable again")
                .isEqualTo(404);
        assertThat(tenant.api().listAllProjects(tenant.ws())).doesNotContain(p);
        assertThat(itemsOf(tenant))
                .noneMatch(item -> ("PROJ#" + p).equals(item.get("Detail").s()) && item.containsKey("version"));
        // AND that is because B moved nothing while A held the lease, and A then finished the move
        assertThat(runB).containsEntry("moved", 0).containsEntry("state", "busy");
        assertThat(a).containsEntry("done", true);
        assertThat(itemsOf(tenant)).as("no tombstone left").noneMatch(item -> item.containsKey("deletedDuringMove"));
    }

    @Test
    void aLeaseLeftByARunThatDied_shouldHoldOffOthersUntilItEnds_thenBeTakenOver() {
        // GIVEN a lease on the workspace left by a run that died, still running for a minute
        Tenant tenant = tenant("died", 2);
        setLease(tenant, runs.next().value(), Instant.now().plusSeconds(60));

        // WHEN a run starts, THEN it moves nothing and says why
        Lambda.Run refused = Lambda.invokeJob(job(tenant), Map.of("workspaceId", tenant.ws()));
        assertThat(refused.output()).containsEntry("moved", 0).containsEntry("state", "busy");
        assertThat(String.join("\n", refused.logLines())).contains("\"refused\":\"busy\"", "leaseHeldUntil");

        // WHEN the lease has run out (its run's invocation is over), THEN the next run takes it and finishes the move
        setLease(tenant, runs.next().value(), Instant.now().minusSeconds(1));
        Map<String, Object> taken = invoke(job(tenant), tenant);
        assertThat(taken).containsEntry("moved", 2).containsEntry("done", true);
        // AND it released the lease: the workspace item keeps when it ended, with no holder
        Map<String, AttributeValue> workspace = workspaceItem(tenant);
        assertThat(workspace).doesNotContainKey("migrationRun").containsKey("migrationUntil");
        // AND the version (the ETag) never moved for the lease
        assertThat(workspace.get("version").n()).isEqualTo("1");
    }

    @Test
    void aRunStalledAcrossADeleteAndItsPurge_shouldLeaveNothingForALaterTenantWithTheSameId() throws Exception {
        // GIVEN a run held just before copying project P, the first it copies (the newest: the job reads newest
        // first), so that more copies would follow
        Tenant tenant = tenant("stall", 3);
        String p = tenant.ids().get(2);
        HeldCopy held = new HeldCopy(p);
        CompletableFuture<Map<String, Object>> run =
                CompletableFuture.supplyAsync(() -> invoke(job(tenant, held), tenant));
        assertThat(held.reached.await(Eventually.FAILSAFE.toSeconds(), TimeUnit.SECONDS))
                .isTrue();

        // WHEN an operator deletes the workspace, and its purge task comes (with no fence of its own)
        ControlPlaneStore store =
                new ControlPlaneStore(engine.client, engine.pool, TestEngine.TABLE, tenant.migrating());
        WorkspaceId ws = WorkspaceId.of(tenant.ws());
        Purge purge =
                store.deleteWorkspace(ws, ExpectedVersion.any(), runs.next().value(), Instant.now(), new CallTally());
        WorkspacePurge purger = new WorkspacePurge(engine.client, TestEngine.TABLE, tenant.migrating(), Duration.ZERO);
        WorkspacePurge.Outcome early =
                purger.run(ws, purge.runId(), Instant.now(), new CallTally(Duration.ofSeconds(8)));

        // WHEN the stalled copy lands, and the run goes on
        held.release.countDown();
        Map<String, Object> stopped = run.get(Eventually.FAILSAFE.toSeconds(), TimeUnit.SECONDS);

        // WHEN the purge task comes back (its continuation)
        WorkspacePurge.Outcome outcome = purger.run(ws, purge.runId(), Instant.now(), new CallTally());
        Api again = new Api(ShardPlan.parse(tenant.ws() + "=" + SHARDS, ""));
        List<Map<String, AttributeValue>> left = itemsOf(tenant);
        assertThat(again.createWorkspace(tenant.ws(), "New tenant").status()).isEqualTo(201);

        // THEN a new workspace with the same id shows none of the old tenant's projects: nothing was left
        assertThat(again.listAllProjects(tenant.ws()))
                .as("the new tenant reads the old tenant's projects")
                .isEmpty();
        assertThat(left).as("items left after the purge").isEmpty();
        assertThat(outcome.state()).isEqualTo("purged");
        // AND that is because the purge did not sweep under the lease: it waited for it, and deleted nothing then
        assertThat(early.deleted())
                .as("the purge swept while a migration run could still write")
                .isZero();
        assertThat(early.finished()).isFalse();
        // AND the run stopped at its next lease check (the workspace is being purged), and released the lease
        assertThat(stopped).containsEntry("done", false).containsEntry("state", "purging");
    }

    @Test
    void hundredRandomInterleavings_ofAMigrationADeleteAndAPurge_shouldLeaveNoDeletedProjectReadable_andNoItem() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        MigrationRaceTest.Point[] at = MigrationRaceTest.Point.values();
        int trials = Trials.of(100);
        for (int trial = 0; trial < trials; trial++) {
            interleaving("seed " + seed + ", trial " + trial, random, at);
        }
    }

    /**
     * One trial: a workspace of 4 projects moving into shards; at random points of the job's work (each exactly
     * between two of its calls), DELETEs of random projects, the workspace's DELETE, and a purge task; then the job
     * until it stops, and the purge until it is done.
     */
    private void interleaving(String label, Random random, MigrationRaceTest.Point[] at) {
        Tenant tenant = tenant("mix", 4);
        WorkspaceId ws = WorkspaceId.of(tenant.ws());
        ControlPlaneStore store =
                new ControlPlaneStore(engine.client, engine.pool, TestEngine.TABLE, tenant.migrating());
        WorkspacePurge purger = new WorkspacePurge(engine.client, TestEngine.TABLE, tenant.migrating(), Duration.ZERO);
        MigrationRaceTest.JobPoints points = new MigrationRaceTest.JobPoints();
        Set<String> deleted = ConcurrentHashMap.newKeySet();
        AtomicReference<Purge> purge = new AtomicReference<>();
        boolean deletesWorkspace = random.nextInt(3) > 0;
        for (String id : tenant.ids()) {
            if (random.nextBoolean()) {
                points.at(id, at[random.nextInt(at.length)], () -> {
                    int status =
                            tenant.api().deleteProject(tenant.ws(), id, null).status();
                    // 404 only where the purge swept it first
                    assertThat(status).as(label + ": DELETE " + id).isIn(204, 404);
                    deleted.add(id);
                });
            }
        }
        if (deletesWorkspace) {
            points.at(
                    tenant.ids().get(random.nextInt(4)),
                    at[random.nextInt(at.length)],
                    () -> purge.set(store.deleteWorkspace(
                            ws, ExpectedVersion.any(), runs.next().value(), Instant.now(), new CallTally())));
            // A purge task (the fence already passed): it sweeps only if no migration run may still write
            points.at(tenant.ids().get(random.nextInt(4)), at[random.nextInt(at.length)], () -> {
                if (purge.get() != null) {
                    purger.run(ws, purge.get().runId(), Instant.now(), new CallTally(Duration.ofSeconds(8)));
                }
            });
        }
        MigrateHotTenantFunction job = job(tenant, points);
        Map<String, Object> run;
        int runs = 0;
        do {
            run = invoke(job, tenant);
        } while (!Boolean.TRUE.equals(run.get("done")) && !"purging".equals(run.get("state")) && ++runs < 5);

        // THEN no project that was deleted is readable
        for (String id : deleted) {
            assertThat(tenant.api().getProject(tenant.ws(), id).status())
                    .as(label + ": deleted " + id + " is readable")
                    .isEqualTo(404);
        }
        if (purge.get() == null) {
            // AND without the workspace's DELETE, the move is done: every other project once, in its shard
            assertThat(run).as(label).containsEntry("done", true);
            List<String> listed = tenant.api().listAllProjects(tenant.ws());
            for (String id : tenant.ids()) {
                if (deleted.contains(id)) {
                    assertThat(listed).as(label).doesNotContain(id);
                } else {
                    assertThat(listed).as(label).containsOnlyOnce(id);
                }
            }
            assertThat(itemsOf(tenant))
                    .as(label + ": a tombstone left, or a project in the source")
                    .noneMatch(item -> item.containsKey("deletedDuringMove")
                            || (item.get("EntityRef").s().equals("WS#" + tenant.ws())
                                    && item.get("Detail").s().startsWith("PROJ#")));
            return;
        }
        // AND with it, once the purge task has run to its end (continuations included), no item is left
        WorkspacePurge.Outcome outcome;
        int tasks = 0;
        do {
            outcome = purger.run(ws, purge.get().runId(), Instant.now(), new CallTally(Duration.ofSeconds(8)));
        } while (!outcome.finished() && ++tasks < 5);
        assertThat(itemsOf(tenant)).as(label + ": items left after the purge").isEmpty();
    }

    private Map<String, AttributeValue> workspaceItem(Tenant tenant) {
        return engine.client
                .getItem(g -> g.tableName(TestEngine.TABLE)
                        .key(Map.of(
                                "EntityRef",
                                        AttributeValue.fromS(KeyCodec.workspacePartition(WorkspaceId.of(tenant.ws()))),
                                "Detail", AttributeValue.fromS("META")))
                        .consistentRead(true))
                .item();
    }

    /** A lease as a run would have left it: written straight to the item, as that run's UpdateItem did. */
    private void setLease(Tenant tenant, String run, Instant until) {
        engine.client.updateItem(UpdateItemRequest.builder()
                .tableName(TestEngine.TABLE)
                .key(Map.of(
                        "EntityRef", AttributeValue.fromS(KeyCodec.workspacePartition(WorkspaceId.of(tenant.ws()))),
                        "Detail", AttributeValue.fromS("META")))
                .updateExpression("SET migrationRun = :r, migrationUntil = :u")
                .expressionAttributeValues(Map.of(
                        ":r", AttributeValue.fromS(run),
                        ":u", AttributeValue.fromN(Long.toString(until.toEpochMilli()))))
                .build());
    }
}
