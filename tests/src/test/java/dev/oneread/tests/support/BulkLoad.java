package dev.oneread.tests.support;

import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.CreationToken;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectStatus;
import dev.oneread.operations.CreateProjectOperation;
import dev.oneread.operations.OperationContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** Loads a benchmark's data fast: items built by the store's own request builders, 25 to a BatchWriteItem. */
public final class BulkLoad {
    private BulkLoad() {}

    /** {@code count} projects of {@code tenant} as the store writes them, named "project 0" on, in every status. */
    public static List<Map<String, AttributeValue>> projects(
            OperationContext requests, WorkspaceId tenant, int count, Instant now) {
        Ulid ids = Ulid.generator();
        ProjectStatus[] statuses = ProjectStatus.values();
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Project project =
                    new Project(ids.next(), tenant, "project " + i, null, statuses[i % statuses.length], now, now, 1);
            items.add(CreateProjectOperation.generateRequest(requests, project, CreationToken.random())
                    .item());
        }
        return items;
    }

    /** Writes {@code count} projects of {@code tenant} where {@code plan} puts them (its shards, if it has any). */
    public static void putProjects(DynamoDbClient client, String table, ShardPlan plan, WorkspaceId tenant, int count) {
        putAll(client, table, projects(OperationContext.of(table, plan), tenant, count, Instant.now()));
    }

    public static void putAll(DynamoDbClient client, String table, List<Map<String, AttributeValue>> items) {
        for (int i = 0; i < items.size(); i += 25) {
            List<WriteRequest> batch = items.subList(i, Math.min(items.size(), i + 25)).stream()
                    .map(item -> WriteRequest.builder()
                            .putRequest(PutRequest.builder().item(item).build())
                            .build())
                    .toList();
            Map<String, List<WriteRequest>> pending = Map.of(table, batch);
            while (!pending.isEmpty()) {
                pending = client.batchWriteItem(BatchWriteItemRequest.builder()
                                .requestItems(pending)
                                .build())
                        .unprocessedItems();
            }
        }
    }
}
