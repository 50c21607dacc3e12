package dev.oneread.tests.hottenants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.functions.migratehottenant.MigrateHotTenantFunction;
import dev.oneread.json.Json;
import dev.oneread.keys.ShardPlan;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Partitions;
import dev.oneread.tests.support.TestContext;
import dev.oneread.tests.support.TestEngine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * MigrateHotTenant on a slow network: every call takes 500 ms, so moving 100 projects (four batches of 2 s, and the
 * clean-up) takes longer than the 10 s an invocation has. The job must check its time before each batch, stop with
 * {@code done: false} before its deadline, and finish over later runs.
 */
class MigrationDeadlineTest {
    /** Four batches of 25, each 2 s here (a query, the lease, then a copy and a delete each, side by side). */
    private static final int PROJECTS = 100;

    private static final long CALL_MILLIS = 500;
    private final TestEngine engine = TestEngine.get();

    /** Adds a fixed delay before every attempt goes on the wire, as a distant network would. */
    static final class Latency implements ExecutionInterceptor {
        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            try {
                Thread.sleep(CALL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void migration_shouldStopCleanlyBeforeItsDeadline_whenCallsAreSlow_andLaterRunsFinishTheMove() throws IOException {
        // GIVEN an unsharded tenant with 100 projects, then declared hot and migrating
        String ws = Api.freshWorkspaceId("slow");
        Api before = new Api();
        before.createWorkspace(ws, "Slow");
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < PROJECTS; i++) {
            ids.add((String)
                    before.createProject(ws, "{\"name\":\"p" + i + "\"}").json().get("id"));
        }
        ShardPlan migrating = ShardPlan.parse(ws + "=4", ws);
        MigrateHotTenantFunction job = new MigrateHotTenantFunction(
                engine.functionClient("MigrateHotTenant", TestEngine.TABLE, List.of(new Latency())),
                new FunctionConfig("MigrateHotTenant", TestEngine.TABLE, true, Api.CURSOR_KEY, migrating));
        // WHEN it runs once (the test context gives it 10 s)
        long start = System.nanoTime();
        Lambda.Run firstRun = Lambda.invokeJob(job, Map.of("workspaceId", ws));
        Map<String, Object> first = firstRun.output();
        long millis = (System.nanoTime() - start) / 1_000_000;
        // THEN it returns before its deadline, not done, having moved some
        System.out.println("first slow run: " + first + " in " + millis + " ms");
        assertThat(millis).isLessThan(TestContext.REMAINING_MILLIS);
        assertThat(first).containsEntry("done", false);
        assertThat((Integer) first.get("moved")).isBetween(1, PROJECTS - 1);
        // AND its log lines are JSON
        assertThat(firstRun.logLines())
                .isNotEmpty()
                .allSatisfy(line -> assertThat(Json.readObject(line))
                        .containsEntry("job", "MigrateHotTenant")
                        .containsKey("done"));
        // WHEN it runs again until done
        List<Map<String, Object>> runs = new ArrayList<>(List.of(first));
        while (!Boolean.TRUE.equals(runs.get(runs.size() - 1).get("done")) && runs.size() < 6) {
            runs.add(Lambda.invokeJob(job, Map.of("workspaceId", ws)).output());
        }
        // THEN every project moved exactly once, and only the workspace item is left unsharded
        assertThat(runs.get(runs.size() - 1)).containsEntry("done", true);
        assertThat(runs.stream().mapToInt(r -> (Integer) r.get("moved")).sum()).isEqualTo(PROJECTS);
        assertThat(Partitions.items(engine.client, "WS#" + ws))
                .extracting(i -> i.get("Detail").s())
                .containsExactly("META");
        Api after = new Api(ShardPlan.parse(ws + "=4", ""));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> listed = (List<Map<String, Object>>)
                after.listProjects(ws, Map.of("limit", "100")).json().get("items");
        assertThat(listed).extracting(p -> (String) p.get("id")).containsExactlyInAnyOrderElementsOf(ids);
    }
}
