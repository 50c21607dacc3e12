package dev.oneread.model;

import java.util.List;
import java.util.Optional;

/**
 * One page of a list. {@code next} is where the next page starts (only the HTTP layer seals it into an
 * opaque cursor), absent on the last page.
 */
public record Page<T>(List<T> items, Optional<ListPosition> next) {
    public Page {
        items = List.copyOf(items);
    }
}
