package dev.oneread.local.console;

import dev.oneread.http.RequestBodies;
import dev.oneread.keys.ShardPlan;
import dev.oneread.store.StoredItems;
import dev.oneread.store.exceptions.UndecodableItemException;
import dev.oneread.store.items.ItemSize;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The one test of every item the console writes, a fixture import's or an edit's: could the API have written it?
 * Decoded by the key codec and the store's own item mapping ({@link StoredItems}), its text held to the rules a
 * request body is ({@link RequestBodies}), its size to DynamoDB's 400 KB. Idempotency records and hot-tenant report
 * entries pass only when asked for, and then only as the records they are: a forged one would answer a tenant's
 * request, or an operator's report.
 */
final class WritableItems {
    /** DynamoDB's item size limit (Developer Guide, "Service, account, and table quotas"). */
    static final long MAX_ITEM_BYTES = 400 * 1024;

    private final StoredItems stored;

    WritableItems(String table, ShardPlan plan) {
        this.stored = new StoredItems(table, plan);
    }

    /** What an item is when the API could have written it, or why it could not have: one of the two is null. */
    record Verdict(StoredItems.Decoded decoded, String refusal) {
        Optional<String> refused() {
            return Optional.ofNullable(refusal);
        }
    }

    /** @param bookkeeping whether idempotency records and hot-tenant report entries may pass */
    Verdict check(Map<String, AttributeValue> item, boolean bookkeeping) {
        long bytes = ItemSize.bytes(item);
        if (bytes > MAX_ITEM_BYTES) {
            return refused("larger than DynamoDB's 400 KB item limit (" + bytes + " bytes)");
        }
        Optional<String> kind = StoredItems.bookkeepingKind(TableMirror.keyOf(item));
        if (kind.isPresent() && !bookkeeping) {
            return refused("a bookkeeping item (" + kind.get()
                    + "), which goes in only with \"include bookkeeping items\" (bookkeeping=include)");
        }
        StoredItems.Decoded decoded;
        try {
            decoded = stored.decode(item);
        } catch (UndecodableItemException e) {
            return refused(e.reason());
        }
        Optional<String> text = Optional.empty();
        if (decoded instanceof StoredItems.OfWorkspace workspace) {
            text = RequestBodies.notStorable(workspace.workspace());
        } else if (decoded instanceof StoredItems.OfProject project) {
            text = RequestBodies.notStorable(project.project());
        }
        return text.map(WritableItems::refused).orElse(new Verdict(decoded, null));
    }

    private static Verdict refused(String reason) {
        return new Verdict(null, reason);
    }
}
