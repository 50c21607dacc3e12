package dev.oneread.priming;

import dev.oneread.http.HttpEndpoint;

/**
 * How a function answers its priming request on success
 * ({@link dev.oneread.function.HttpApiFunction#primingSuccess}): its own logic, on a store that reads a sample
 * instead of DynamoDB. Closing it closes that store's client.
 *
 * <pre>{@code
 * SampleStore sample = SampleStore.of(store, PrimingSamples.WORKSPACE);
 * return Optional.of(new PrimingSuccess(sample, (request, tally) -> get(sample.store(), request, tally)));
 * }</pre>
 */
public record PrimingSuccess(SampleStore sample, HttpEndpoint.Logic logic) implements AutoCloseable {
    @Override
    public void close() {
        sample.close();
    }
}
