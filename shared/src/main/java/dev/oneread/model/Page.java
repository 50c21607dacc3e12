package dev.oneread.model;

import java.util.List;
import java.util.Optional;

/**
 * One page of a list. {@code next} is the sort key to resume after (still in codec form: only the HTTP
 * layer turns it into an opaque cursor), absent on the last page.
 */
public record Page<T>(List<T> items, Optional<String> next) {
    public Page {
        items = List.copyOf(items);
    }
}
