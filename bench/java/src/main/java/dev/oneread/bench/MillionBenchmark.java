package dev.oneread.bench;

import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.ProjectRoot;
import dev.oneread.local.engine.DynaliteEngine;
import dev.oneread.local.engine.IndexLag;
import dev.oneread.local.engine.PartitionLimits;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.local.template.TemplateTables;
import dev.oneread.model.CreationToken;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectStatus;
import dev.oneread.model.Workspace;
import dev.oneread.operations.CreateProjectOperation;
import dev.oneread.operations.CreateWorkspaceOperation;
import dev.oneread.operations.OperationContext;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.store.calls.JobPace;
import dev.oneread.tests.support.BulkLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * On-demand benchmark (not a test): one tenant of a million projects, loaded straight into the engine, and what
 * each operation over it costs. Two phases, so that the load (minutes) is done once and kept on disk:
 *
 * <ul>
 *   <li>{@code load <dataDir> <projects>}: the engine with its limits off (a load is not what is measured) on a
 *       LevelDB data directory; {@value #WRITERS} writers, 25 items a BatchWriteItem, items built by the store's
 *       own request builders.
 *   <li>{@code load <dataDir> <projects> <tenant>}: another tenant in the same table (the smaller one that the
 *       migration and the purge are measured on, see {@link MillionMeasure}).
 *   <li>{@code measure <dataDir> [share]}: the same data at DynamoDB's limits (scale 1), timed; with a share (a
 *       fraction of a partition), the million's own purge too, at that share.
 * </ul>
 *
 * <p>Run: {@code bash bench/million.sh}.
 */
public final class MillionBenchmark {
    static final String TABLE = "million";
    static final WorkspaceId TENANT = WorkspaceId.of("million");
    /** Writers at once: more than the 2 cores, as each spends most of its time waiting on the engine. */
    static final int WRITERS = 8;
    /** How many projects the load of {@code tenant} finished, as it wrote them down for the measure phase. */
    static long loaded(Path dataDir, WorkspaceId tenant) throws java.io.IOException {
        return Long.parseLong(
                Files.readString(dataDir.resolve(tenant.value() + ".loaded")).strip());
    }

    public static void main(String[] args) throws Exception {
        Path dataDir = Path.of(args[1]);
        if ("load".equals(args[0])) {
            load(
                    dataDir,
                    args.length > 3 ? WorkspaceId.of(args[3]) : TENANT,
                    Integer.parseInt(args[2]),
                    ShardPlan.none());
        } else {
            MillionMeasure.run(
                    dataDir,
                    loaded(dataDir, TENANT),
                    args.length > 2 ? JobPace.Share.of(Double.parseDouble(args[2])) : null);
        }
        System.exit(0);
    }

    static DynamoDbClient open(DynaliteEngine engine) {
        DynamoDbClient client = DynamoDbClients.local(engine.endpoint());
        TemplateTables.from(SamTemplate.load(ProjectRoot.find().resolve("template.yaml")))
                .createMissing(client, Map.of("Table", TABLE));
        return client;
    }

    /** Loads {@code projects} into {@code tenant}, where {@code plan} puts them (its shards, if it has any). */
    static void load(Path dataDir, WorkspaceId tenant, int projects, ShardPlan plan) throws Exception {
        long start = System.nanoTime();
        // No index lag while loading: its mirror would hold a second copy of the million in the engine's memory
        try (DynaliteEngine engine =
                DynaliteEngine.start(ProjectRoot.find(), dataDir, PartitionLimits.OFF, IndexLag.OFF)) {
            DynamoDbClient client = open(engine);
            OperationContext requests = OperationContext.of(TABLE, plan);
            Instant now = Instant.now();
            BulkLoad.putAll(
                    client,
                    TABLE,
                    List.of(CreateWorkspaceOperation.generateRequest(
                                    requests,
                                    new Workspace(tenant, tenant.value(), Map.of(), now, now, 1),
                                    CreationToken.random())
                            .item()));
            AtomicLong done = new AtomicLong();
            ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
            List<Future<?>> running = new ArrayList<>();
            int share = (projects + WRITERS - 1) / WRITERS;
            ProjectStatus[] statuses = ProjectStatus.values();
            for (int w = 0; w < WRITERS; w++) {
                int count = Math.max(0, Math.min(share, projects - w * share));
                running.add(writers.submit(() -> {
                    Ulid ids = Ulid.generator();
                    List<Map<String, AttributeValue>> items = new ArrayList<>();
                    for (int i = 0; i < count; i++) {
                        items.add(CreateProjectOperation.generateRequest(
                                        requests,
                                        new Project(
                                                ids.next(),
                                                tenant,
                                                "project " + i,
                                                null,
                                                statuses[i % statuses.length],
                                                now,
                                                now,
                                                1),
                                        CreationToken.random())
                                .item());
                        if (items.size() == 1_000 || i == count - 1) {
                            BulkLoad.putAll(client, TABLE, items);
                            long total = done.addAndGet(items.size());
                            items.clear();
                            if (total % 50_000 < 1_000) {
                                System.out.printf(
                                        "%,d projects loaded, %.0f s%n", total, (System.nanoTime() - start) / 1e9);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> writer : running) {
                writer.get();
            }
            writers.shutdown();
            Files.writeString(dataDir.resolve(tenant.value() + ".loaded"), Long.toString(done.get()));
            System.out.printf(
                    "loaded %,d projects into %d partition(s) in %.0f s (%d writers, limits off)%n",
                    done.get(), Math.max(1, plan.shardCount(tenant)), (System.nanoTime() - start) / 1e9, WRITERS);
        }
    }
}
