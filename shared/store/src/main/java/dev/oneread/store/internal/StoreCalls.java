package dev.oneread.store.internal;

import dev.oneread.keys.KeyCodec;
import dev.oneread.store.calls.CallAudit;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.calls.QueryPool;
import dev.oneread.store.exceptions.StoreFailureException;
import dev.oneread.store.exceptions.StoreUnavailableException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The store boundary: the one call of each SDK verb. Each tags its request for the {@link CallAudit} with the
 * partition it addresses, makes the call, translates SDK exceptions once into the store's domain exceptions,
 * and answers in the store's terms: an item or none, a write that happened or was refused, a page.
 */
public final class StoreCalls {
    private final DynamoDbClient client;
    private final QueryPool pool;

    /** @param pool for {@link #queryAll} and {@link #all} to run calls side by side; null to run them in turn */
    public StoreCalls(DynamoDbClient client, QueryPool pool) {
        this.client = client;
        this.pool = pool;
    }

    /** One item, or empty when there is none. */
    public Optional<Map<String, AttributeValue>> get(GetItemRequest request, CallTally tally) {
        GetItemResponse response = translated(() -> client.getItem(tagged(request, request.key(), tally)));
        return response.hasItem() && !response.item().isEmpty() ? Optional.of(response.item()) : Optional.empty();
    }

    public WriteOutcome put(PutItemRequest request, CallTally tally) {
        return write(
                () -> client.putItem(tagged(request, request.item(), tally)).attributes());
    }

    public WriteOutcome update(UpdateItemRequest request, CallTally tally) {
        return write(
                () -> client.updateItem(tagged(request, request.key(), tally)).attributes());
    }

    public WriteOutcome delete(DeleteItemRequest request, CallTally tally) {
        return write(
                () -> client.deleteItem(tagged(request, request.key(), tally)).attributes());
    }

    /** One BatchWriteItem, addressed to {@code partition} in the audit; the caller retries what it left. */
    public BatchWriteItemResponse batchWrite(BatchWriteItemRequest request, String partition, CallTally tally) {
        return translated(() -> client.batchWriteItem(CallAudit.tagged(request, partition, null, tally)));
    }

    /** One query of the partition {@code partition}. */
    public QueryResponse query(QueryRequest request, String partition, CallTally tally) {
        return translated(() -> client.query(CallAudit.tagged(request, partition, request.indexName(), tally)));
    }

    /** One page of a Scan: for jobs that must see every item (the index backfill), never a request path. */
    public software.amazon.awssdk.services.dynamodb.model.ScanResponse scan(
            software.amazon.awssdk.services.dynamodb.model.ScanRequest request, CallTally tally) {
        return translated(() -> client.scan(CallAudit.tagged(request, null, null, tally)));
    }

    /** A query and the partition it reads. */
    record PartitionQuery(String partition, QueryRequest request) {}

    /**
     * Several queries, all at once on the pool (one after another without one, or for a single query), answered
     * under the same keys. If any fails, all fail: never a partial answer.
     */
    <K> Map<K, QueryResponse> queryAll(Map<K, PartitionQuery> queries, CallTally tally) {
        Map<K, Supplier<QueryResponse>> calls = new LinkedHashMap<>();
        queries.forEach((k, q) -> calls.put(k, () -> query(q.request(), q.partition(), tally)));
        return all(calls);
    }

    /**
     * Several units of work, each a few of this boundary's calls, all at once on the pool (one after another
     * without one, or for a single unit), answered under the same keys. If any fails, the first failure is thrown
     * once all have settled: none is still sending when the caller goes on.
     */
    public <K, T> Map<K, T> all(Map<K, Supplier<T>> work) {
        Map<K, T> results = new LinkedHashMap<>();
        if (work.size() == 1 || pool == null) {
            work.forEach((k, unit) -> results.put(k, unit.get()));
            return results;
        }
        Map<K, CompletableFuture<T>> futures = new LinkedHashMap<>();
        work.forEach((k, unit) -> futures.put(k, CompletableFuture.supplyAsync(unit, pool.executor())));
        try {
            CompletableFuture.allOf(futures.values().toArray(CompletableFuture[]::new))
                    .join();
        } catch (CompletionException e) {
            // Each call was translated already: one that failed fails the whole answer (a 503 page).
            throw e.getCause() instanceof RuntimeException cause ? cause : new StoreUnavailableException(e);
        }
        futures.forEach((k, f) -> results.put(k, f.join()));
        return results;
    }

    /** A conditional write: its failed condition is an outcome the caller decides on, not an exception. */
    private static WriteOutcome write(Supplier<Map<String, AttributeValue>> sdkCall) {
        return translated(() -> {
            try {
                return new WriteOutcome.Written(sdkCall.get());
            } catch (ConditionalCheckFailedException e) {
                Optional<Map<String, AttributeValue>> current =
                        e.hasItem() && !e.item().isEmpty() ? Optional.of(e.item()) : Optional.empty();
                return new WriteOutcome.Refused(current, e);
            }
        });
    }

    private static <T extends DynamoDbRequest> T tagged(T request, Map<String, AttributeValue> key, CallTally tally) {
        return CallAudit.tagged(request, key.get(KeyCodec.PARTITION_KEY).s(), null, tally);
    }

    /** Runs one SDK call and translates its exceptions, once, into the store's domain exceptions. */
    private static <T> T translated(Supplier<T> sdkCall) {
        try {
            return sdkCall.get();
        } catch (ApiCallTimeoutException | ApiCallAttemptTimeoutException e) {
            // A write that timed out may still land: see InvocationDeadline.untilSentWritesLand.
            throw new StoreUnavailableException(e);
        } catch (DynamoDbException e) {
            // Throttling that outlived the retries, and 5xx: unavailable. Not "nothing was written": DynamoDB can
            // answer 500 for a write that committed, and an earlier attempt of a throttled call may have. The
            // outcome of a write is unknown; creates carry a CreationToken to recognise their own item on retry.
            if (e.isThrottlingException() || e.statusCode() >= 500) {
                throw new StoreUnavailableException(e);
            }
            throw new StoreFailureException(e);
        } catch (SdkClientException e) {
            // No response at all: connection refused, reset, or DNS. Nothing was acknowledged, which for a write
            // that was sent does not mean nothing was written.
            throw new StoreUnavailableException(e);
        } catch (SdkException e) {
            throw new StoreFailureException(e);
        } catch (UncheckedIOException e) {
            // An answer whose stream failed while it was read, as the SDK's own timeout can close it under a slow
            // read: the SDK's stream helpers hand that on unwrapped, not as an SdkClientException. The outcome is as
            // unknown as a timeout's, so it is unavailable (IdempotencyFaultsTest's DEADLINE_REACHED met it).
            throw new StoreUnavailableException(e);
        }
    }
}
