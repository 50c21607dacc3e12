package dev.oneread.operations;

import dev.oneread.expr.Condition;
import dev.oneread.expr.Expression;
import dev.oneread.expr.Update;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.CreationToken;
import dev.oneread.model.ExpectedVersion;
import dev.oneread.store.items.Items;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The conditions the writes of several operations share (the routes' creates and versioned writes, and the jobs
 * that touch the same items), and the read that explains a refused one.
 *
 * <pre>{@code Condition guard = WriteConditions.versionGuard(ExpectedVersion.exactly(3)).and(WriteConditions.notPurging());}</pre>
 */
public final class WriteConditions {
    private WriteConditions() {}

    /** A workspace that is not being purged: no write but the purge's own touches one that is. */
    public static Condition notPurging() {
        return Condition.attributeNotExists(Items.PURGE_RUN);
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

    /** The condition of a create: the key is free, so that it never overwrites. */
    private static Expression keyIsFree() {
        return Condition.attributeNotExists(KeyCodec.PARTITION_KEY).build();
    }

    /** An item to create, marked with the request creating it: a refused retry recognises its own item by it. */
    private static Map<String, AttributeValue> created(Map<String, AttributeValue> item, CreationToken token) {
        item.put(Items.CREATION_TOKEN, AttributeValue.fromS(token.value()));
        return item;
    }

    /**
     * A strongly consistent read of one item, to tell "gone" from "changed" after a conditional write failed on
     * an engine that did not return the item with the failure (dynalite drops ReturnValuesOnConditionCheckFailure).
     */
    public static GetItemRequest readAfterConflict(OperationContext context, PrimaryKey key) {
        return context.table().get(key, true);
    }

    /**
     * A create of {@code item}, marked with {@code token}, that never overwrites: a refusal means the key is taken (by
     * another request's item, or by this request's own from an attempt whose answer was lost).
     */
    static PutItemRequest create(OperationContext context, Map<String, AttributeValue> item, CreationToken token) {
        return context.table().put(created(item, token), keyIsFree());
    }

    /** A versioned update of a workspace that is not being purged: a DELETE wins over every later write. */
    static UpdateItemRequest versionedWorkspaceUpdate(
            OperationContext context, WorkspaceId workspaceId, Update update, ExpectedVersion expected) {
        return versionedUpdate(
                context,
                KeyCodec.workspaceKey(workspaceId),
                update,
                versionGuard(expected).and(notPurging()));
    }

    /** A versioned update at {@code key} under {@code condition}, bumping the version, returning the item after. */
    static UpdateItemRequest versionedUpdate(
            OperationContext context, PrimaryKey key, Update update, Condition condition) {
        return context.table()
                .update(key, update.increment(Items.VERSION).when(condition).build(), ReturnValue.ALL_NEW);
    }
}
