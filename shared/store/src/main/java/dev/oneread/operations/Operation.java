package dev.oneread.operations;

import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbRequest;

/**
 * One access pattern, as the SDK's enhanced client models one operation: its class builds the request
 * ({@code generateRequest}, pure), decodes the answer ({@code transformResponse}) and declares what it is
 * ({@link #descriptor}); the store's facade makes the call between the two. Every operation is listed once, in
 * {@link Operations#all()}, and each has its {@code *OperationTest} beside it.
 *
 * <pre>{@code GetItemRequest get = GetWorkspaceOperation.generateRequest(context, WorkspaceId.of("acme"));}</pre>
 */
public abstract class Operation {
    private final Descriptor descriptor;

    protected Operation(Descriptor descriptor) {
        this.descriptor = Objects.requireNonNull(descriptor, "descriptor");
    }

    /** Its name, route, function, scope, key condition and cost. */
    public final Descriptor descriptor() {
        return descriptor;
    }

    /** The request it sends for {@code sample} (the first, where it sends more than one kind). */
    public abstract DynamoDbRequest sampleRequest(Sample sample);

    /** The keys it addresses for {@code sample}. */
    public abstract KeyRange keys(Sample sample);
}
