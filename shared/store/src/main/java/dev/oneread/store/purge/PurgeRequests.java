package dev.oneread.store.purge;

import dev.oneread.expr.Condition;
import dev.oneread.expr.KeyCondition;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.store.internal.TableRequests;
import dev.oneread.store.items.Items;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The requests of a workspace's purge (pure building): the workspace item as it stands, one page of a partition
 * to sweep, the batch deletes, and the delete of the workspace item itself, last.
 *
 * <pre>{@code BatchWriteItemRequest batch = new PurgeRequests("oneread").deleteAll(keys);}</pre>
 */
public final class PurgeRequests {
    /** DynamoDB takes at most 25 requests per BatchWriteItem. */
    public static final int BATCH = 25;
    /** Items per sweep page: 10 full batches. */
    static final int PAGE = 250;

    private final TableRequests table;

    public PurgeRequests(String tableName) {
        this.table = new TableRequests(tableName);
    }

    /** The workspace item, strongly consistent: the purge acts only on the run that marked it. */
    public GetItemRequest readWorkspace(WorkspaceId workspaceId) {
        return table.workspaceAsItStands(workspaceId);
    }

    /**
     * The first items left in a partition, strongly consistent: the sweep deletes what it reads and reads from
     * the start again, until a page comes back with nothing left to delete.
     */
    public QueryRequest sweepPage(String partition) {
        return table.query(
                KeyCondition.partitionEquals(KeyCodec.PARTITION_KEY, partition).build(),
                PAGE - 1,
                true,
                Optional.empty(),
                true);
    }

    /** Deletes up to {@link #BATCH} items, whatever they hold: after the fence nothing else writes there. */
    public BatchWriteItemRequest deleteAll(List<PrimaryKey> keys) {
        if (keys.isEmpty() || keys.size() > BATCH) {
            throw new IllegalArgumentException("a BatchWriteItem takes 1 to " + BATCH + " requests");
        }
        List<WriteRequest> deletes = new ArrayList<>();
        keys.forEach(key -> deletes.add(WriteRequest.builder()
                .deleteRequest(DeleteRequest.builder().key(Items.key(key)).build())
                .build()));
        return batch(Map.of(table.tableName(), deletes));
    }

    /** The same batch call, for the requests DynamoDB left unprocessed. */
    public BatchWriteItemRequest retry(Map<String, List<WriteRequest>> unprocessed) {
        return batch(unprocessed);
    }

    /** The workspace item, last, if it still carries this purge's run: a workspace created since is not touched. */
    public DeleteItemRequest deleteWorkspace(WorkspaceId workspaceId, String purgeRun) {
        return table.delete(
                KeyCodec.workspaceKey(workspaceId),
                Optional.of(Condition.equalTo(Items.PURGE_RUN, AttributeValue.fromS(purgeRun))
                        .build()));
    }

    private static BatchWriteItemRequest batch(Map<String, List<WriteRequest>> requests) {
        return BatchWriteItemRequest.builder()
                .requestItems(requests)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }
}
