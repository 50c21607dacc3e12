package dev.oneread.priming;

import dev.oneread.store.ControlPlaneStore;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A store whose client answers every call with a sample ({@link ControlPlaneStore#withSample}), and that client,
 * closed with it: priming uses it, then closes it, so that nothing of it stays in the snapshot but loaded and
 * compiled code.
 */
public record SampleStore(ControlPlaneStore store, DynamoDbClient client) implements AutoCloseable {
    @Override
    public void close() {
        client.close();
    }
}
