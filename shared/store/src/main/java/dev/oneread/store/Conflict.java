package dev.oneread.store;

import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Why a versioned write was refused, told apart as HTTP needs it: there is no item ({@link NotFound}, a 404,
 * and during a migration a reason to look at the project's next key), or there is one at another version
 * ({@link Changed}, a 412).
 */
sealed interface Conflict permits Conflict.NotFound, Conflict.Changed {

    /** From the item as it stands now: none, or one that did not match. */
    static Conflict of(Optional<Map<String, AttributeValue>> current) {
        return current.<Conflict>map(Changed::new).orElseGet(NotFound::new);
    }

    boolean changed();

    record NotFound() implements Conflict {
        @Override
        public boolean changed() {
            return false;
        }
    }

    record Changed(Map<String, AttributeValue> current) implements Conflict {
        @Override
        public boolean changed() {
            return true;
        }
    }
}
