package dev.oneread.store;

import dev.oneread.expr.Condition;
import dev.oneread.expr.Expression;
import dev.oneread.expr.Update;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.StoredResponse;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Pure request building for idempotency records: claim, read, complete, release. A record lives in its
 * workspace's own item collection, under a sort key outside every read's range.
 *
 * <pre>{@code PutItemRequest claim = new IdempotencyRequests("oneread").claim(ws, keyHash, payloadHash, now, until, expiry);}</pre>
 */
public final class IdempotencyRequests {
    private final TableRequests table;

    public IdempotencyRequests(String tableName) {
        this.table = new TableRequests(tableName);
    }

    /**
     * Takes the idempotency record of a request: free, expired, or abandoned in progress (its holder ran out
     * of time). Expiry lives in the condition, not in TTL, because TTL deletes late (and never locally).
     */
    public PutItemRequest claim(
            WorkspaceId workspaceId,
            String keyHash,
            String payloadHash,
            Instant now,
            Instant inProgressUntil,
            Instant expiresAt) {
        Map<String, AttributeValue> item = Items.key(KeyCodec.idempotencyKey(workspaceId, keyHash));
        item.put(Items.STATUS, AttributeValue.fromS(Items.IN_PROGRESS));
        item.put(Items.PAYLOAD_HASH, AttributeValue.fromS(payloadHash));
        item.put(Items.IN_PROGRESS_UNTIL, AttributeValue.fromN(Long.toString(inProgressUntil.toEpochMilli())));
        item.put(Items.EXPIRES_AT, AttributeValue.fromN(Long.toString(expiresAt.getEpochSecond())));
        Expression claimable = Condition.attributeNotExists(KeyCodec.PARTITION_KEY)
                .or(Condition.lessThan(Items.EXPIRES_AT, AttributeValue.fromN(Long.toString(now.getEpochSecond()))))
                .or(Condition.equalTo(Items.STATUS, AttributeValue.fromS(Items.IN_PROGRESS))
                        .and(Condition.lessThan(
                                Items.IN_PROGRESS_UNTIL, AttributeValue.fromN(Long.toString(now.toEpochMilli())))))
                .build();
        return table.put(item, claimable);
    }

    /** Reads an idempotency record, strongly consistent: it decides between replay, 409 and 422. */
    public GetItemRequest get(WorkspaceId workspaceId, String keyHash) {
        return table.get(key(workspaceId, keyHash), true);
    }

    /** Marks the record completed with the response to replay; the record must still be there. */
    public UpdateItemRequest complete(WorkspaceId workspaceId, String keyHash, StoredResponse response) {
        return table.update(
                key(workspaceId, keyHash),
                Update.set(Items.STATUS, AttributeValue.fromS(Items.COMPLETED))
                        .andSet(Items.RESPONSE_STATUS, AttributeValue.fromN(Integer.toString(response.status())))
                        .andSet(Items.RESPONSE_HEADERS, AttributeValues.fromJson(response.headers()))
                        .andSet(Items.RESPONSE_BODY, AttributeValue.fromS(response.body()))
                        .when(Condition.attributeExists(KeyCodec.PARTITION_KEY))
                        .build(),
                null);
    }

    /** Gives the record up after a failure, so that a retry runs the request again. Unconditional. */
    public DeleteItemRequest release(WorkspaceId workspaceId, String keyHash) {
        return table.delete(key(workspaceId, keyHash), Optional.empty());
    }

    private static PrimaryKey key(WorkspaceId workspaceId, String keyHash) {
        return KeyCodec.idempotencyKey(workspaceId, keyHash);
    }
}
