package dev.oneread.model;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Where the next page of a list starts: after the item with sort key {@code afterSortKey}, in every partition
 * the list reads except the {@code exhausted} ones (by their index in the list's fixed partition order), which
 * hold nothing more. A plain list has one partition and never an exhausted one; a hot workspace's list spans
 * its shards, which share the sort key space, so one sort key is the position in all of them. Only the HTTP
 * layer turns a position into an opaque cursor, and the store checks it again when it resumes.
 *
 * <pre>{@code ListPosition next = new ListPosition("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6", new TreeSet<>(Set.of(0, 3)));}</pre>
 */
public record ListPosition(String afterSortKey, SortedSet<Integer> exhausted) {
    public ListPosition {
        Objects.requireNonNull(afterSortKey, "afterSortKey");
        TreeSet<Integer> copy = new TreeSet<>(exhausted);
        if (!copy.isEmpty() && copy.first() < 0) {
            throw new IllegalArgumentException("partition indexes start at 0");
        }
        exhausted = Collections.unmodifiableSortedSet(copy);
    }

    /** After {@code afterSortKey}, in every partition. */
    public static ListPosition after(String afterSortKey) {
        return new ListPosition(afterSortKey, new TreeSet<>());
    }
}
