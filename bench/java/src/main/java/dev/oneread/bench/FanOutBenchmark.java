package dev.oneread.bench;

import dev.oneread.functions.listprojects.ListProjectsFunction;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.operations.ListProjectsOperation;
import dev.oneread.operations.OperationContext;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.store.calls.QueryPool;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.EngineProxy;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.TestEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * On-demand benchmark (not a test): the wall time of one ListProjects page of a 10-shard tenant, whose 10
 * queries run in parallel, against the same 10 queries issued one after another, side by side in one run,
 * with a given network latency between function and engine (an EngineProxy; 0 = loopback).
 *
 * <p>Run: {@code bash bench/fan-out.sh} (or with latencies: {@code bash bench/fan-out.sh 0 5 20}).
 */
public final class FanOutBenchmark {
    private static final int ROUNDS = 40;
    /**
     * Rounds run before the measured ones, at each latency: they warm connections and the JIT, so that both sides
     * are measured in their steady state. With 5, the first latency's medians still held the JIT compiling the
     * function's path (0.56x-0.60x at 0 ms, against 0.46x-0.47x for the same latency later in the same run); with
     * 50, 0.54x against 0.43x; with 200, 0.47x-0.48x.
     */
    private static final int WARM_UP_ROUNDS = 200;

    public static void main(String[] args) throws Exception {
        List<Integer> latencies = new ArrayList<>();
        for (String a : args.length == 0 ? new String[] {"0", "5"} : args) {
            latencies.add(Integer.parseInt(a));
        }
        TestEngine engine = TestEngine.get();
        String ws = Api.freshWorkspaceId("bench");
        ShardPlan plan = ShardPlan.parse(ws + "=10", "");
        Api api = new Api(plan);
        api.createWorkspace(ws, "Bench");
        for (int i = 0; i < 500; i++) {
            api.createProject(ws, "{\"name\":\"p" + i + "\"}");
        }
        System.out.printf(
                "machine: %d cores, %s; tenant %s: 500 projects in 10 shards; page size 25; %d rounds each, after %d"
                        + " to warm up%n",
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"),
                ws,
                ROUNDS,
                WARM_UP_ROUNDS);
        for (int latency : latencies) {
            try (EngineProxy network = EngineProxy.withLatency(engine.endpoint, Duration.ofMillis(latency))) {
                DynamoDbClient client = DynamoDbClients.local(network.endpoint(), List.of());
                ListProjectsFunction function = new ListProjectsFunction(
                        client,
                        QueryPool.create(),
                        new FunctionConfig("ListProjects", TestEngine.TABLE, false, Api.CURSOR_KEY, plan));
                ApiEvent event = ApiEvent.of("GET", ApiEvent.PROJECTS)
                        .path("workspaceId", ws)
                        .query(Map.of("limit", "25"));
                OperationContext requests = OperationContext.of(TestEngine.TABLE, plan);
                List<QueryRequest> sameQueries = new ArrayList<>();
                plan.projectPartitions(WorkspaceId.of(ws))
                        .partitions()
                        .forEach(p -> sameQueries.add(
                                ListProjectsOperation.generateRequestIn(requests, p, 25, Optional.empty())));
                List<Double> parallel = new ArrayList<>();
                List<Double> sequential = new ArrayList<>();
                for (int round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
                    long t = System.nanoTime();
                    Lambda.Response page = Lambda.invoke(function, event);
                    double fanOut = (System.nanoTime() - t) / 1e6;
                    if (page.status() != 200) {
                        throw new IllegalStateException("page failed: " + page.body());
                    }
                    t = System.nanoTime();
                    for (QueryRequest q : sameQueries) {
                        client.query(q);
                    }
                    double oneByOne = (System.nanoTime() - t) / 1e6;
                    if (round >= WARM_UP_ROUNDS) {
                        parallel.add(fanOut);
                        sequential.add(oneByOne);
                    }
                }
                double p = median(parallel);
                double s = median(sequential);
                System.out.printf(
                        "latency %2d ms: fan-out page median %7.2f ms, same 10 queries one by one %7.2f ms, ratio %.2fx%n",
                        latency, p, s, p / s);
            }
        }
        System.exit(0);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        return sorted.get(sorted.size() / 2);
    }
}
