package dev.oneread.local.console;

import dev.oneread.keys.KeyCodec;
import dev.oneread.store.items.ItemSize;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What the console knows of each partition without holding its items: how many there are, their bytes by
 * DynamoDB's size rule, and how many index (GSI1) entries they project to each index partition. A million
 * projects cost one entry here, so the partition list and the index groups add numbers instead of walking items.
 *
 * <pre>{@code stats.apply(partition, oldItem, newItem); stats.partitions().get(partition).items();}</pre>
 */
final class PartitionStats {
    /**
     * One partition's counts; {@code index} is GSI1 partition key to the entries this partition puts there;
     * {@code marks} where its items stand in sort-key order (null when not known: the count read them out of order).
     */
    record Counts(long items, long bytes, Map<String, Long> index, SortMarks marks) {
        static final Counts NONE = new Counts(0, 0, Map.of(), SortMarks.EMPTY);

        Counts {
            index = Map.copyOf(index);
        }

        /** These counts with {@code item} taken out ({@code sign} -1) or added (+1). */
        Counts plus(Map<String, AttributeValue> item, int sign) {
            Map<String, Long> entries = new TreeMap<>(index);
            String indexPartition = indexPartitionOf(item);
            if (indexPartition != null) {
                entries.merge(indexPartition, (long) sign, Long::sum);
                entries.values().removeIf(n -> n == 0);
            }
            AttributeValue sort = item.get(KeyCodec.SORT_KEY);
            SortMarks moved = marks == null || sort == null || sort.s() == null ? null : marks.plus(sort.s(), sign);
            return new Counts(items + sign, bytes + sign * ItemSize.bytes(item), entries, moved);
        }

        boolean isEmpty() {
            return items == 0 && index.isEmpty();
        }
    }

    private final ConcurrentSkipListMap<String, Counts> partitions = new ConcurrentSkipListMap<>();

    /**
     * One write: {@code oldItem} as it was (null when there was none), {@code newItem} as it is (null when
     * deleted). The engine's change feed calls this with each write's images; both null changes nothing.
     */
    void apply(String partition, Map<String, AttributeValue> oldItem, Map<String, AttributeValue> newItem) {
        partitions.compute(partition, (p, counts) -> {
            Counts next = counts == null ? Counts.NONE : counts;
            if (oldItem != null) {
                next = next.plus(oldItem, -1);
            }
            if (newItem != null) {
                next = next.plus(newItem, +1);
            }
            return next.isEmpty() ? null : next;
        });
    }

    /** A partition counted afresh (every item read again): its counts replace what was known. */
    void replace(String partition, Counts counts) {
        if (counts.isEmpty()) {
            partitions.remove(partition);
        } else {
            partitions.put(partition, counts);
        }
    }

    /** Partition key to its counts, in key order (a live view; callers only read it). */
    NavigableMap<String, Counts> partitions() {
        return partitions;
    }

    /** Items in all partitions: what a count has reached so far. */
    long items() {
        return partitions.values().stream().mapToLong(Counts::items).sum();
    }

    /** Each GSI1 partition key and its entries over the whole table. */
    NavigableMap<String, Long> indexPartitions() {
        NavigableMap<String, Long> out = new TreeMap<>();
        partitions.values().forEach(c -> c.index().forEach((k, n) -> out.merge(k, n, Long::sum)));
        return out;
    }

    private static String indexPartitionOf(Map<String, AttributeValue> item) {
        AttributeValue pk = item.get(KeyCodec.INDEX_PARTITION_KEY);
        return pk == null ? null : pk.s();
    }
}
