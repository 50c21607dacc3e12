package dev.oneread.keys;

import java.util.List;

/**
 * The partitions one list reads, in a fixed order (a list position remembers partitions by their index in it).
 * {@code migrating} says that the first is the source of an ongoing move into the others: it must be read
 * first, and the others strongly consistent after it, so that a project in flight is seen in one of them.
 *
 * <pre>{@code ListPartitions partitions = plan.projectPartitions(WorkspaceId.of("acme"));}</pre>
 */
public record ListPartitions(List<String> partitions, boolean migrating) {
    public ListPartitions {
        partitions = List.copyOf(partitions);
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException("a list reads at least one partition");
        }
    }

    public int size() {
        return partitions.size();
    }

    public String get(int index) {
        return partitions.get(index);
    }
}
