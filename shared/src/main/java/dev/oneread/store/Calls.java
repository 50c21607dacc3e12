package dev.oneread.store;

import dev.oneread.store.exceptions.StoreFailureException;
import dev.oneread.store.exceptions.StoreUnavailableException;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/** The store boundary: every SDK call goes through {@link #call}, which translates its exceptions once. */
final class Calls {
    private Calls() {
    }

    /** Runs one SDK call; a failed condition is left to the caller, which knows what it means. */
    static <T> T call(Supplier<T> sdkCall) {
        try {
            return sdkCall.get();
        } catch (ConditionalCheckFailedException e) {
            throw new ConditionFailed(e);
        } catch (ApiCallTimeoutException | ApiCallAttemptTimeoutException e) {
            throw new StoreUnavailableException(e);
        } catch (DynamoDbException e) {
            // Throttling that outlived the retries, and 5xx: nothing was written, the caller may retry.
            if (e.isThrottlingException() || e.statusCode() >= 500) {
                throw new StoreUnavailableException(e);
            }
            throw new StoreFailureException(e);
        } catch (SdkClientException e) {
            // No response at all: connection refused, reset, or DNS. Nothing was acknowledged.
            throw new StoreUnavailableException(e);
        } catch (SdkException e) {
            throw new StoreFailureException(e);
        }
    }

    /** Internal signal: the write's condition failed. */
    static final class ConditionFailed extends RuntimeException {
        ConditionFailed(ConditionalCheckFailedException cause) {
            super(cause.getMessage(), cause, false, false);
        }
    }
}
