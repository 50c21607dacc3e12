package dev.oneread.store;

import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.StoredResponse;
import dev.oneread.store.exceptions.IdempotencyInProgressException;
import dev.oneread.store.exceptions.IdempotencyMismatchException;
import dev.oneread.store.exceptions.StoreFailureException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Idempotency records, after the Powertools design: one item per request key in the workspace's own
 * collection, claimed with a conditional put (INPROGRESS, with a deadline), completed with the response to
 * replay, or released after a failure so that a retry runs again. Expiry is checked by the condition, since
 * TTL deletes late (and the local engine never does).
 */
public final class IdempotencyStore {
    /** How long a completed response is replayed. */
    static final Duration RETENTION = Duration.ofHours(24);

    private final StoreCalls calls;
    private final IdempotencyRequests requests;

    public IdempotencyStore(DynamoDbClient client, String tableName) {
        this.calls = new StoreCalls(client, null);
        this.requests = new IdempotencyRequests(tableName);
    }

    /**
     * Claims the key, or answers from the record: empty to go ahead (1 PutItem), the stored response to
     * replay, or an exception for a request still in flight (409) or another payload (422). A refused claim
     * reads the record from the refusal itself where DynamoDB returns it, else with 1 consistent GetItem more.
     *
     * @param inProgressFor how long the claim holds if its holder dies: the Lambda's remaining time
     */
    public Optional<StoredResponse> claim(
            WorkspaceId workspaceId,
            String keyHash,
            String payloadHash,
            Instant now,
            Duration inProgressFor,
            CallTally tally) {
        WriteOutcome claim = calls.put(
                requests.claim(workspaceId, keyHash, payloadHash, now, now.plus(inProgressFor), now.plus(RETENTION)),
                tally);
        return claim.then(written -> Optional.empty(), taken -> {
            Map<String, AttributeValue> item = taken.current()
                    .or(() -> calls.get(requests.get(workspaceId, keyHash), tally))
                    // Released between our put and our read: the holder failed. Ask the caller to retry.
                    .orElseThrow(IdempotencyInProgressException::new);
            if (!payloadHash.equals(item.get(Items.PAYLOAD_HASH).s())) {
                throw new IdempotencyMismatchException();
            }
            if (!Items.COMPLETED.equals(item.get(Items.STATUS).s())) {
                throw new IdempotencyInProgressException();
            }
            Map<String, String> headers = new LinkedHashMap<>();
            AttributeValues.toJsonMap(item.get(Items.RESPONSE_HEADERS).m())
                    .forEach((k, v) -> headers.put(k, (String) v));
            return Optional.of(new StoredResponse(
                    Integer.parseInt(item.get(Items.RESPONSE_STATUS).n()),
                    headers,
                    item.get(Items.RESPONSE_BODY).s()));
        });
    }

    /** Stores the response to replay. 1 UpdateItem; the claim must still be there. */
    public void complete(WorkspaceId workspaceId, String keyHash, StoredResponse response, CallTally tally) {
        calls.update(requests.complete(workspaceId, keyHash, response), tally).then(written -> written, gone -> {
            // The claim is gone (TTL removed it): there is no record left to keep the response for replay.
            throw new StoreFailureException(gone.cause());
        });
    }

    /** Deletes the claim after a failure. 1 DeleteItem. */
    public void release(WorkspaceId workspaceId, String keyHash, CallTally tally) {
        calls.delete(requests.release(workspaceId, keyHash), tally);
    }
}
