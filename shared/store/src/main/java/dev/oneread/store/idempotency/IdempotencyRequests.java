package dev.oneread.store.idempotency;

import dev.oneread.expr.Condition;
import dev.oneread.expr.Update;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.StoredResponse;
import dev.oneread.store.internal.TableRequests;
import dev.oneread.store.items.AttributeValues;
import dev.oneread.store.items.Items;
import java.time.Instant;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Pure request building for idempotency records: claim, read, complete, release. A record lives in its
 * workspace's own item collection, under a sort key outside every read's range.
 *
 * <pre>{@code UpdateItemRequest claim = new IdempotencyRequests("oneread").claim(ws, keyHash, payloadHash, holder, id, now, until, expiry);}</pre>
 */
public final class IdempotencyRequests {
    private final TableRequests table;

    public IdempotencyRequests(String tableName) {
        this.table = new TableRequests(tableName);
    }

    /**
     * Takes the idempotency record of a request: free, expired, or abandoned in progress by an attempt with the
     * same body (its holder ran out of time; the body must match, for the taker will finish that attempt's
     * work). Expiry lives in the condition, not in TTL, because TTL deletes late (and never locally).
     *
     * <p>The id the request will create under is reserved here, once: {@code if_not_exists} keeps an abandoned
     * claim's id, so that a taker that finds the first attempt's item recognises it instead of creating a
     * second one. A completed record has none (completion removes it), so a key reused after expiry gets a
     * fresh id. The record comes back (ALL_NEW) with the id to use. {@code holder} names this claim: if its
     * answer is lost and the SDK's retry is refused by the claim itself, the record says whose it is.
     */
    public UpdateItemRequest claim(
            WorkspaceId workspaceId,
            String keyHash,
            String payloadHash,
            String holder,
            String freshId,
            Instant now,
            Instant inProgressUntil,
            Instant expiresAt) {
        AttributeValue payload = AttributeValue.fromS(payloadHash);
        Condition abandoned = Condition.equalTo(Items.STATUS, AttributeValue.fromS(Items.IN_PROGRESS))
                .and(Condition.lessThan(Items.IN_PROGRESS_UNTIL, epochMillis(now)))
                .and(Condition.equalTo(Items.PAYLOAD_HASH, payload));
        Condition claimable = Condition.attributeNotExists(KeyCodec.PARTITION_KEY)
                .or(Condition.lessThan(Items.EXPIRES_AT, AttributeValue.fromN(Long.toString(now.getEpochSecond()))))
                .or(abandoned);
        return table.update(
                key(workspaceId, keyHash),
                Update.set(Items.STATUS, AttributeValue.fromS(Items.IN_PROGRESS))
                        .andSet(Items.PAYLOAD_HASH, payload)
                        .andSet(Items.HOLDER, AttributeValue.fromS(holder))
                        .andSet(Items.IN_PROGRESS_UNTIL, epochMillis(inProgressUntil))
                        .andSet(Items.EXPIRES_AT, AttributeValue.fromN(Long.toString(expiresAt.getEpochSecond())))
                        .andSetIfAbsent(Items.RESERVED_ID, AttributeValue.fromS(freshId))
                        .remove(Items.RESPONSE_STATUS)
                        .remove(Items.RESPONSE_HEADERS)
                        .remove(Items.RESPONSE_BODY)
                        .when(claimable)
                        .build(),
                ReturnValue.ALL_NEW);
    }

    private static AttributeValue epochMillis(Instant instant) {
        return AttributeValue.fromN(Long.toString(instant.toEpochMilli()));
    }

    /** Reads an idempotency record, strongly consistent: it decides between replay, 409 and 422. */
    public GetItemRequest get(WorkspaceId workspaceId, String keyHash) {
        return table.get(key(workspaceId, keyHash), true);
    }

    /**
     * Marks the record completed with the response to replay; the record must still be there. The reserved id
     * goes: the response now answers every retry, and a reuse of the key after expiry creates afresh.
     */
    public UpdateItemRequest complete(WorkspaceId workspaceId, String keyHash, StoredResponse response) {
        return table.update(
                key(workspaceId, keyHash),
                Update.set(Items.STATUS, AttributeValue.fromS(Items.COMPLETED))
                        .andSet(Items.RESPONSE_STATUS, AttributeValue.fromN(Integer.toString(response.status())))
                        .andSet(Items.RESPONSE_HEADERS, AttributeValues.fromJson(response.headers()))
                        .andSet(Items.RESPONSE_BODY, AttributeValue.fromS(response.body()))
                        .remove(Items.RESERVED_ID)
                        .when(Condition.attributeExists(KeyCodec.PARTITION_KEY))
                        .build(),
                null);
    }

    /**
     * Gives the record up after a definite refusal (a 4xx: nothing was created), so that a retry runs the
     * request again. Unconditional.
     */
    public DeleteItemRequest release(WorkspaceId workspaceId, String keyHash) {
        return table.delete(key(workspaceId, keyHash), Optional.empty());
    }

    private static PrimaryKey key(WorkspaceId workspaceId, String keyHash) {
        return KeyCodec.idempotencyKey(workspaceId, keyHash);
    }
}
