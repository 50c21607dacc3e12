package dev.oneread.tests.support;

import dev.oneread.keys.IndexPlan;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.runner.SampleData;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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

    /**
     * A project as CreateProject writes it into an unsharded workspace (its creation token aside), in DynamoDB JSON
     * as a fixture file holds it: a test changes it to what it needs.
     */
    public static Map<String, Object> projectItem(String workspace, String projectId) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("EntityRef", Map.of("S", "WS#" + workspace));
        item.put("Detail", Map.of("S", "PROJ#" + projectId));
        item.put("name", Map.of("S", "imported"));
        item.put("status", Map.of("S", "ACTIVE"));
        item.put("createdAt", Map.of("S", "2026-12-01T09:00:00Z"));
        item.put("updatedAt", Map.of("S", "2026-12-01T09:00:00Z"));
        item.put("version", Map.of("N", "1"));
        item.put("GSI1PK", Map.of("S", IndexPlan.defaults().projectPartition("ACTIVE", ProjectId.of(projectId))));
        item.put("GSI1SK", Map.of("S", "PROJ#" + projectId));
        return item;
    }

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
