package dev.oneread.store.internal;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/** What a conditional write came to: {@link Written}, or {@link Refused} because its condition failed. */
public sealed interface WriteOutcome permits WriteOutcome.Written, WriteOutcome.Refused {

    /** One of two answers: from the attributes of a write that happened, or from why it was refused. */
    <R> R then(Function<Map<String, AttributeValue>, R> written, Function<Refused, R> refused);

    default boolean written() {
        return then(attributes -> true, refused -> false);
    }

    /** The write happened; {@code attributes} are what it returned (ALL_NEW for a versioned update, else none). */
    record Written(Map<String, AttributeValue> attributes) implements WriteOutcome {
        @Override
        public <R> R then(Function<Map<String, AttributeValue>, R> written, Function<Refused, R> refused) {
            return written.apply(attributes);
        }
    }

    /**
     * The condition failed. {@code current} is the item as it stood, when the engine said: DynamoDB returns it
     * for ReturnValuesOnConditionCheckFailure ALL_OLD (and returns none when there is no item); dynalite drops
     * that field, so there it is always empty and only a read can tell.
     */
    record Refused(Optional<Map<String, AttributeValue>> current, ConditionalCheckFailedException cause)
            implements WriteOutcome {
        @Override
        public <R> R then(Function<Map<String, AttributeValue>, R> written, Function<Refused, R> refused) {
            return refused.apply(this);
        }
    }
}
