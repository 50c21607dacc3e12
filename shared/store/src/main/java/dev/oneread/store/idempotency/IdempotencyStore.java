package dev.oneread.store.idempotency;

import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.CreationToken;
import dev.oneread.model.StoredResponse;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.exceptions.IdempotencyInProgressException;
import dev.oneread.store.exceptions.IdempotencyMismatchException;
import dev.oneread.store.exceptions.StoreFailureException;
import dev.oneread.store.internal.StoreCalls;
import dev.oneread.store.internal.WriteOutcome;
import dev.oneread.store.items.Items;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Idempotency records, after the Powertools design: one item per request key in the workspace's own
 * collection, claimed with a conditional put (INPROGRESS, with a deadline), completed with the response to
 * replay, or released after a definite refusal so that a retry runs again. Expiry is checked by the condition, since
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

    /** What claiming a key came to: go ahead, creating under the reserved id, or answer with the stored response. */
    public sealed interface Claim {
        /** The caller holds the key; what it creates gets this id (the first attempt's, on a takeover). */
        record Granted(String reservedId) implements Claim {}

        /** The key's request completed: this is its response. */
        record Replay(StoredResponse response) implements Claim {}
    }

    /**
     * Claims the key, or answers from the record: go ahead (1 UpdateItem), the stored response to replay, or an
     * exception for a request still in flight (409, with how long until its claim can be taken over) or another
     * payload (422). A refused claim reads the record from the refusal itself where DynamoDB returns it, else with
     * 1 consistent GetItem more.
     *
     * @param freshId       the id to reserve if the record has none yet
     * @param inProgressFor how long the claim holds if its holder dies: until no write it sent can still land
     */
    public Claim claim(
            WorkspaceId workspaceId,
            String keyHash,
            String payloadHash,
            String freshId,
            Instant now,
            Duration inProgressFor,
            CallTally tally) {
        String holder = CreationToken.random().value();
        WriteOutcome claim = calls.update(
                requests.claim(
                        workspaceId,
                        keyHash,
                        payloadHash,
                        holder,
                        freshId,
                        now,
                        now.plus(inProgressFor),
                        now.plus(RETENTION)),
                tally);
        return claim.then(
                record -> new Claim.Granted(record.get(Items.RESERVED_ID).s()), taken -> {
                    Map<String, AttributeValue> item = taken.current()
                            .or(() -> calls.get(requests.get(workspaceId, keyHash), tally))
                            // Released between our write and our read: the holder failed for good. Retry at once.
                            .orElseThrow(() -> new IdempotencyInProgressException(Duration.ZERO));
                    // Decoded strictly: a record the API did not write (planted by hand) is never replayed.
                    IdempotencyRecord record = IdempotencyRecord.of(item);
                    if (!record.completed() && holder.equals(record.holder())) {
                        // Our own claim: it committed, its answer was lost, and the SDK's retry ran into it.
                        return new Claim.Granted(record.reservedId().orElseThrow());
                    }
                    if (!payloadHash.equals(record.payloadHash())) {
                        throw new IdempotencyMismatchException();
                    }
                    if (!record.completed()) {
                        Instant until = Instant.ofEpochMilli(record.inProgressUntil());
                        throw new IdempotencyInProgressException(Duration.between(now, until));
                    }
                    if (record.answersAnotherThan(workspaceId).isPresent()) {
                        // Same key, but a response this workspace's request never had: not this request's record.
                        throw new IdempotencyMismatchException();
                    }
                    return new Claim.Replay(record.response().orElseThrow());
                });
    }

    /** Stores the response to replay. 1 UpdateItem; the claim must still be there. */
    public void complete(WorkspaceId workspaceId, String keyHash, StoredResponse response, CallTally tally) {
        calls.update(requests.complete(workspaceId, keyHash, response), tally).then(written -> written, gone -> {
            // The claim is gone (TTL removed it): there is no record left to keep the response for replay.
            throw new StoreFailureException(gone.cause());
        });
    }

    /** Deletes the claim after a definite refusal (a 4xx), so that a retry runs afresh. 1 DeleteItem. */
    public void release(WorkspaceId workspaceId, String keyHash, CallTally tally) {
        calls.delete(requests.release(workspaceId, keyHash), tally);
    }
}
