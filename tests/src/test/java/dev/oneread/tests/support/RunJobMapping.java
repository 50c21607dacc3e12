package dev.oneread.tests.support;

import dev.oneread.functions.runjob.RunJobFunction;
import dev.oneread.json.Json;
import dev.oneread.keys.ShardPlan;
import dev.oneread.local.runner.LocalQueues;
import dev.oneread.local.runner.QueuePoller;
import dev.oneread.model.HotPartitionThreshold;
import dev.oneread.store.calls.JobPace;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.Predicate;

/**
 * RunJob behind the job queue's event source mapping, as start-api runs it but with a chosen time per invocation:
 * one invocation at a time, each task's log line kept, and a latch counted down at the line a caller waits for.
 *
 * @param engine          the engine and its client
 * @param table           the table the worker writes
 * @param plan            the shard plan the worker sees
 * @param share           the most of each partition a task may take
 * @param remainingMillis each invocation's time
 * @param hot             when the stats task reports a partition as hot
 */
public record RunJobMapping(
        TestEngine engine,
        String table,
        ShardPlan plan,
        JobPace.Share share,
        int remainingMillis,
        HotPartitionThreshold hot) {

    public RunJobMapping(TestEngine engine, String table, ShardPlan plan, JobPace.Share share, int remainingMillis) {
        this(engine, table, plan, share, remainingMillis, HotPartitionThreshold.defaults());
    }

    /**
     * Polls {@code queues}' JobQueue until closed. Every log line goes to {@code lines} (and to standard output
     * when {@code echo}); {@code finished} is counted down when one matches {@code last}.
     */
    public QueuePoller start(
            LocalQueues queues,
            List<Map<String, Object>> lines,
            Predicate<Map<String, Object>> last,
            CountDownLatch finished,
            boolean echo) {
        RunJobFunction worker = new RunJobFunction(RunJobFunction.Dependencies.of(
                        engine.functionClient("RunJob", table),
                        queues::client,
                        queues.url("JobQueue"),
                        Api.config("RunJob", plan, table))
                .withPurgeFence(Duration.ZERO)
                .withHot(hot)
                .withShare(share));
        return QueuePoller.start(
                queues.client(),
                queues.url("JobQueue"),
                queues.arn("JobQueue"),
                10,
                1,
                event -> {
                    TestContext context = new TestContext(remainingMillis);
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    try {
                        worker.handleRequest(new ByteArrayInputStream(event), out, context);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    for (String text : context.logLines) {
                        Map<String, Object> line = Json.readObject(text);
                        lines.add(line);
                        if (echo) {
                            System.out.println(text);
                        }
                        if (last.test(line)) {
                            finished.countDown();
                        }
                    }
                    return out.toByteArray();
                },
                new PrintStream(new ByteArrayOutputStream()));
    }
}
