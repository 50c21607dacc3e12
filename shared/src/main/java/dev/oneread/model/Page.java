package dev.oneread.model;

import java.util.List;
import java.util.Optional;

/**
 * One page of a list. {@code next} is the store's position to resume from (the sort key to resume after,
 * plus the exhausted shards of a hot workspace; only the HTTP layer seals it into an opaque cursor), absent
 * on the last page.
 */
public record Page<T>(List<T> items, Optional<String> next) {
    public Page {
        items = List.copyOf(items);
    }
}
