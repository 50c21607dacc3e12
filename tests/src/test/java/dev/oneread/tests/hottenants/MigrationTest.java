package dev.oneread.tests.hottenants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.functions.migratehottenant.MigrateHotTenantFunction;
import dev.oneread.keys.ShardPlan;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Partitions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * An existing tenant with 500 projects becomes a hot tenant: MigrateHotTenant moves its projects into 10
 * shards while reads and creates go on, and every project is visible on every read, during and after.
 */
class MigrationTest {

    @Test
    void migration_shouldKeepEveryProjectVisible_whileReadsAndCreatesContinue() throws Exception {
        // GIVEN an unsharded tenant with 500 projects
        String ws = Api.freshWorkspaceId("grown");
        Api before = new Api();
        before.createWorkspace(ws, "Grown");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        Set<String> known = java.util.Collections.synchronizedSet(new HashSet<>());
        try {
            List<Callable<String>> creates = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                creates.add(() -> (String)
                        before.createProject(ws, "{\"name\":\"old\"}").json().get("id"));
            }
            for (Future<String> f : pool.invokeAll(creates)) {
                known.add(f.get());
            }
            // WHEN it is declared hot and migrating, and the job runs while clients keep working
            ShardPlan migrating = ShardPlan.parse(ws + "=10", ws);
            Api during = new Api(migrating);
            AtomicBoolean moving = new AtomicBoolean(true);
            ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
            List<Integer> listings = new ArrayList<>();
            List<Map<String, Object>> runs = new ArrayList<>();
            Future<Map<String, Object>> job = pool.submit(() -> {
                // As an operator would: invoke until it reports done (each run stops before its time is up).
                try {
                    MigrateHotTenantFunction function = new MigrateHotTenantFunction(
                            during.engine.functionClient("MigrateHotTenant"),
                            Api.config("MigrateHotTenant", migrating));
                    Map<String, Object> run;
                    do {
                        run = Lambda.invokeJob(function, Map.of("workspaceId", ws))
                                .output();
                        runs.add(run);
                    } while (!Boolean.TRUE.equals(run.get("done")) && runs.size() < 20);
                    return run;
                } finally {
                    moving.set(false);
                }
            });
            Future<?> creator = pool.submit(() -> {
                for (int i = 0; i < 60; i++) {
                    Lambda.Response r = during.createProject(ws, "{\"name\":\"new\"}");
                    if (r.status() != 201) {
                        problems.add("create " + r.status());
                    }
                    known.add((String) r.json().get("id"));
                }
                return null;
            });
            Future<?> reader = pool.submit(() -> {
                do {
                    Set<String> mustSee;
                    synchronized (known) { // acknowledged before this listing began
                        mustSee = new HashSet<>(known);
                    }
                    List<String> listed = during.listAllProjects(ws);
                    listings.add(listed.size());
                    if (new HashSet<>(listed).size() != listed.size()) {
                        problems.add("duplicate in a listing");
                    }
                    Set<String> missing = new HashSet<>(mustSee);
                    listed.forEach(missing::remove);
                    if (!missing.isEmpty()) {
                        problems.add("listing missed " + missing.size());
                    }
                    String any = mustSee.iterator().next();
                    if (during.getProject(ws, any).status() != 200) {
                        problems.add("point read of " + any);
                    }
                } while (moving.get());
                return null;
            });
            Map<String, Object> result = job.get();
            creator.get();
            reader.get();
            // THEN nothing was ever invisible, and the job says it is done
            System.out.println("migration runs: " + runs + "; listings during the move: " + listings);
            assertThat(problems).isEmpty();
            assertThat(result).containsEntry("done", true);
            assertThat(runs.stream().mapToInt(r -> (Integer) r.get("moved")).sum())
                    .isEqualTo(500);
            assertThat(listings).isNotEmpty();
            // AND after the move (HotTenantMigrating emptied): every project, in shards only, one call per point read
            Api after = new Api(ShardPlan.parse(ws + "=10", ""));
            assertThat(after.listAllProjects(ws))
                    .containsExactlyInAnyOrderElementsOf(known)
                    .hasSize(560);
            assertThat(Partitions.items(after.engine.client, "WS#" + ws))
                    .extracting(i -> i.get("Detail").s())
                    .containsExactly("META");
            Lambda.Response point = after.getProject(ws, known.iterator().next());
            assertThat(point.status()).isEqualTo(200);
            assertThat(point.dynamoCalls()).isEqualTo(1);
            // AND running the job again is a no-op
            Lambda.Run again = Lambda.invokeJob(
                    new MigrateHotTenantFunction(
                            after.engine.functionClient("MigrateHotTenant"), Api.config("MigrateHotTenant", migrating)),
                    Map.of("workspaceId", ws));
            assertThat(again.output()).containsEntry("moved", 0).containsEntry("done", true);
        } finally {
            pool.shutdownNow();
        }
    }
}
