package dev.oneread.runtime;

import com.amazonaws.services.lambda.runtime.Context;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The local runner's channel for the console's call detail: where a function hands the JSON of every DynamoDB call
 * of an invocation, keys and expression values included. The contract is a Lambda {@link Context} that is also a
 * {@code Consumer<String>}: a JDK type, because the runner and each function live in class loaders that share no
 * project class, so a project interface would be two different types on either side. Lambda's own Context never
 * is one, so a deployed function hands nothing over.
 *
 * <pre>{@code CallDetailSink.of(context).ifPresent(sink -> sink.accept(json));}</pre>
 */
public record CallDetailSink(Consumer<String> channel) {

    /** The sink {@code context} carries, if it is the runner's; empty on Lambda. */
    @SuppressWarnings("unchecked")
    public static Optional<CallDetailSink> of(Context context) {
        // Only the runner's LocalContext implements Consumer; what it consumes is a String by this contract.
        return context instanceof Consumer<?> runner
                ? Optional.of(new CallDetailSink((Consumer<String>) runner))
                : Optional.empty();
    }

    /** Hands the calls of this invocation, as JSON, to the runner. */
    public void accept(String callDetailJson) {
        channel.accept(callDetailJson);
    }
}
