package dev.oneread.store.items;

import dev.oneread.expr.Condition;
import dev.oneread.expr.Expression;
import dev.oneread.expr.KeyCondition;
import dev.oneread.keys.KeyCodec;
import dev.oneread.model.ExpectedVersion;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The conditions on an item's own attributes, and the key condition of a partition's projects, that the routes'
 * requests, the jobs' requests and the console's edits share: here, below all of them, so that a job's request
 * building needs nothing of the facade's.
 *
 * <pre>{@code Condition guard = ItemConditions.versionGuard(expected).and(ItemConditions.notPurging());}</pre>
 */
public final class ItemConditions {
    private ItemConditions() {}

    /** A workspace that is not being purged: no write but the purge's own touches one that is. */
    public static Condition notPurging() {
        return Condition.attributeNotExists(Items.PURGE_RUN);
    }

    /** {@code EntityRef = partition AND begins_with(Detail, "PROJ#")}: the projects of one partition. */
    public static Expression projectsIn(String partition) {
        return KeyCondition.partitionEquals(KeyCodec.PARTITION_KEY, partition)
                .sortBeginsWith(KeyCodec.SORT_KEY, KeyCodec.projectSortKeyPrefix())
                .build();
    }

    /**
     * The condition of a versioned write: a versioned item exists (a tombstone, which has no version, does not
     * count), at the expected version if there is one.
     */
    public static Condition versionGuard(ExpectedVersion expected) {
        Condition exists = Condition.attributeExists(Items.VERSION);
        return expected.match(
                () -> exists,
                version -> exists.and(Condition.equalTo(Items.VERSION, AttributeValue.fromN(Long.toString(version)))));
    }
}
