package dev.oneread.tests.hottenants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.functions.migratehottenant.MigrateHotTenantFunction;
import dev.oneread.keys.ShardPlan;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Partitions;
import dev.oneread.tests.support.TestEngine;
import dev.oneread.tests.support.Trials;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Deletes win over the move into shards: a DELETE or a PATCH injected at any point of MigrateHotTenant's work
 * on a project (through an SDK interceptor on the job's own client, so exactly between two of its calls) ends,
 * once the job reports done, with every deleted project gone everywhere and every other project once, in its
 * shard, as last written, and no tombstone left.
 */
class MigrationRaceTest {
    private static final int SHARDS = 4;
    private static final int PROJECTS = 4;

    /** Where in the job's work on one project a client's request lands. */
    enum Point {
        /** After the job's read of its batch, before anything of this project is copied. */
        AFTER_READ,
        /** Just before the job's copy of this project into its shard. */
        BEFORE_COPY,
        /** After the copy, before the job deletes the source. */
        BEFORE_SOURCE_DELETE,
        /** After the job deleted the source: the move of this project is over. */
        AFTER_SOURCE_DELETE
    }

    /** Runs each planned client request once, when the job reaches its point for its project. */
    static final class JobPoints implements ExecutionInterceptor {
        private final Map<String, Map<Point, Runnable>> planned = new ConcurrentHashMap<>();

        /** Plans {@code request} at {@code point}; two planned at one point run in the order they were planned. */
        void at(String projectId, Point point, Runnable request) {
            planned.computeIfAbsent("PROJ#" + projectId, k -> new ConcurrentHashMap<>())
                    .merge(point, request, (first, then) -> () -> {
                        first.run();
                        then.run();
                    });
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            SdkRequest request = context.request();
            if (request instanceof PutItemRequest copy && copy.item().containsKey("version")) {
                fire(copy.item().get("Detail").s(), Point.BEFORE_COPY);
            } else if (request instanceof DeleteItemRequest source
                    && source.conditionExpression() != null
                    && source.conditionExpression().contains("#v = :v")) {
                fire(source.key().get("Detail").s(), Point.BEFORE_SOURCE_DELETE);
            }
        }

        @Override
        public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
            SdkRequest request = context.request();
            if (request instanceof QueryRequest read && Boolean.TRUE.equals(read.consistentRead())) {
                planned.keySet().forEach(project -> fire(project, Point.AFTER_READ));
            } else if (request instanceof DeleteItemRequest source
                    && source.conditionExpression() != null
                    && source.conditionExpression().contains("#v = :v")) {
                fire(source.key().get("Detail").s(), Point.AFTER_SOURCE_DELETE);
            }
        }

        private void fire(String project, Point point) {
            Map<Point, Runnable> points = planned.get(project);
            Runnable request = points == null ? null : points.remove(point);
            if (request != null) {
                request.run();
            }
        }
    }

    /** What a client did to a project, as the test expects to find it after the move. */
    private record Expected(boolean deleted, String name) {}

    /** One trial: a fresh workspace of unsharded projects, the planned requests, the job until done; then checks. */
    private void trial(String label, Consumer<Trial> plan) {
        String ws = Api.freshWorkspaceId("race");
        Api unsharded = new Api();
        unsharded.createWorkspace(ws, "Race");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < PROJECTS; i++) {
            ids.add((String) unsharded
                    .createProject(ws, "{\"name\":\"p" + i + "\"}")
                    .json()
                    .get("id"));
        }
        ShardPlan migrating = ShardPlan.parse(ws + "=" + SHARDS, ws);
        Api during = new Api(migrating);
        JobPoints points = new JobPoints();
        Map<String, Expected> expected = new HashMap<>();
        ids.forEach(id -> expected.put(id, new Expected(false, "p" + ids.indexOf(id))));
        plan.accept(new Trial(ws, ids, during, points, expected));
        MigrateHotTenantFunction job = new MigrateHotTenantFunction(
                TestEngine.get().functionClient("MigrateHotTenant", TestEngine.TABLE, List.of(points)),
                Api.config("MigrateHotTenant", migrating));
        Map<String, Object> run;
        int runs = 0;
        do {
            run = Lambda.invokeJob(job, Map.of("workspaceId", ws)).output();
        } while (!Boolean.TRUE.equals(run.get("done")) && ++runs < 5);
        assertThat(run).as(label).containsEntry("done", true);
        // THEN, with the move over (HotTenantMigrating emptied), every project is as its last request left it
        Api after = new Api(ShardPlan.parse(ws + "=" + SHARDS, ""));
        List<String> listed = after.listAllProjects(ws);
        Map<String, Integer> stored = new HashMap<>();
        List<String> partitions = new ArrayList<>(List.of("WS#" + ws));
        for (int shard = 1; shard <= SHARDS; shard++) {
            partitions.add("WS#" + ws + "#" + String.format("%02d", shard));
        }
        for (String partition : partitions) {
            for (Map<String, AttributeValue> item : Partitions.items(during.engine.client, partition)) {
                String sort = item.get("Detail").s();
                assertThat(item)
                        .as(label + ": a tombstone left in " + partition)
                        .doesNotContainKey("deletedDuringMove");
                if (sort.startsWith("PROJ#")) {
                    assertThat(partition)
                            .as(label + ": a project left in the source")
                            .isNotEqualTo("WS#" + ws);
                    stored.merge(sort.substring("PROJ#".length()), 1, Integer::sum);
                }
            }
        }
        expected.forEach((id, e) -> {
            Lambda.Response get = after.getProject(ws, id);
            if (e.deleted()) {
                assertThat(get.status())
                        .as(label + ": deleted " + id + " is back")
                        .isEqualTo(404);
                assertThat(listed).as(label).doesNotContain(id);
                assertThat(stored).as(label).doesNotContainKey(id);
            } else {
                assertThat(get.status()).as(label + ": " + id).isEqualTo(200);
                assertThat(get.json()).as(label).containsEntry("name", e.name());
                assertThat(stored.get(id)).as(label + ": copies of " + id).isEqualTo(1);
                assertThat(listed).as(label).containsOnlyOnce(id);
            }
        });
    }

    /** What a plan may do: requests through the API as it serves the migrating workspace, with expectations. */
    private record Trial(String ws, List<String> ids, Api api, JobPoints points, Map<String, Expected> expected) {
        void delete(String id, Point point) {
            points.at(id, point, () -> {
                Lambda.Response response = api.deleteProject(ws, id, null);
                assertThat(response.status()).as("DELETE at " + point).isEqualTo(204);
                expected.put(id, new Expected(true, null));
            });
        }

        void patch(String id, Point point, String name) {
            points.at(id, point, () -> {
                String etag = api.getProject(ws, id).headers().get("etag");
                Lambda.Response response = api.patchProject(ws, id, etag, "{\"name\":\"" + name + "\"}");
                assertThat(response.status()).as("PATCH at " + point).isEqualTo(200);
                expected.put(id, new Expected(false, name));
            });
        }
    }

    @Test
    void deleteBetweenTheJobsReadAndItsCopy_shouldLeaveTheProjectDeleted() {
        // GIVEN a DELETE of one project that lands after the job read it and before the job copies it
        trial("the review's race", t -> t.delete(t.ids().get(1), Point.BEFORE_COPY));
        // THEN (checked in trial) it is gone after the job reports done: 404, in no list, in no partition
    }

    @Test
    void deleteDuringTheMove_shouldCostItsDeleteAndOneTombstonePut_andReadAsGone() {
        // GIVEN an unmoved project of a workspace that has just become hot and migrating
        String ws = Api.freshWorkspaceId("tomb");
        Api unsharded = new Api();
        unsharded.createWorkspace(ws, "Tomb");
        String id =
                (String) unsharded.createProject(ws, "{\"name\":\"p\"}").json().get("id");
        Api during = new Api(ShardPlan.parse(ws + "=" + SHARDS, ws));
        // WHEN it is deleted
        Lambda.Response deleted = during.deleteProject(ws, id, null);
        // THEN the source's DeleteItem (1 WCU, and 1 for its GSI1 entry) and the tombstone's PutItem (1 WCU: a
        // tombstone has no index keys); all items are small
        assertThat(deleted.status()).isEqualTo(204);
        assertThat(deleted.dynamoCalls()).isEqualTo(2);
        assertThat(deleted.dynamoCapacity()).isEqualByComparingTo("3");
        // AND the tombstone reads as nothing: the source's GetItem, then the shard's consistent one, then 404
        Lambda.Response get = during.getProject(ws, id);
        assertThat(get.status()).isEqualTo(404);
        assertThat(get.dynamoCalls()).isEqualTo(2);
        assertThat(during.listAllProjects(ws)).doesNotContain(id);
    }

    @Test
    void hundredRandomInterleavings_shouldEachEndAsTheClientsLastRequestsLeftIt() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        Point[] at = Point.values();
        int trials = Trials.of(100);
        for (int trial = 0; trial < trials; trial++) {
            int number = trial;
            trial("seed " + seed + ", trial " + trial, t -> {
                for (String id : t.ids()) {
                    switch (random.nextInt(3)) {
                        case 0 -> t.delete(id, at[random.nextInt(at.length)]);
                        case 1 -> t.patch(id, at[random.nextInt(at.length)], "renamed-" + number);
                        default -> {
                            // left alone
                        }
                    }
                }
            });
        }
    }
}
