package dev.oneread.tests.support;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.runner.SampleData;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The data the files in events/ expect, reset before each use: the runner's {@link SampleData} (workspace
 * {@code acme} at version 1 with projects {@code ...W6}, read and patched, and {@code ...W7}, deleted) and no
 * workspace {@code globex} (create-workspace.json creates it).
 */
public final class Fixtures {
    public static final String PROJECT = SampleData.PROJECT.value();
    public static final String PROJECT_TO_DELETE = SampleData.PROJECT_TO_DELETE.value();

    private Fixtures() {}

    public static void seedForEventFiles(TestEngine engine) {
        WorkspaceId acme = SampleData.WORKSPACE;
        List<String> partitions = new ArrayList<>(
                List.of(KeyCodec.workspacePartition(acme), KeyCodec.workspacePartition(WorkspaceId.of("globex"))));
        // acme's shards too: the migration event moves acme's projects there.
        for (int shard = 1; shard <= 4; shard++) {
            partitions.add(KeyCodec.shardPartition(acme, shard));
        }
        for (String partition : partitions) {
            Partitions.items(engine.client, partition)
                    .forEach(item -> engine.client.deleteItem(b -> b.tableName(TestEngine.TABLE)
                            .key(Map.of(
                                    KeyCodec.PARTITION_KEY,
                                    item.get(KeyCodec.PARTITION_KEY),
                                    KeyCodec.SORT_KEY,
                                    item.get(KeyCodec.SORT_KEY)))));
        }
        SampleData.seed(
                engine.client, TestEngine.TABLE, ShardPlan.none(), new PrintStream(OutputStream.nullOutputStream()));
    }
}
