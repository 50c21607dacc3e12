package dev.oneread.local.console;

import dev.oneread.expr.Condition;
import dev.oneread.expr.Expression;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.SortKey;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.runner.RunningConfiguration;
import dev.oneread.model.CreationToken;
import dev.oneread.model.ExpectedVersion;
import dev.oneread.model.NewProject;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectStatus;
import dev.oneread.operations.DeleteProjectOperation;
import dev.oneread.operations.IndexEntries;
import dev.oneread.operations.OperationContext;
import dev.oneread.operations.WriteConditions;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.StoredItems;
import dev.oneread.store.calls.CallAudit;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.items.DynamoJson;
import dev.oneread.store.items.Items;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * What a table browser does to one item, done as the API would: edit a workspace's or a project's attributes (one
 * PutItem conditional on the version read), duplicate a project under a new id (a ULID from the codec, written only
 * where no item is), delete a project (conditional on the version read). Every item written is one the API could
 * have written ({@link WritableItems}, as for a fixture import), and the version and {@code updatedAt} are set as the
 * API sets them; anything else is refused before the first write, with the reason. A project is written only into a
 * live workspace, and a duplicate is the store's own create (its quota, its conditional PutItem). Each call goes
 * through the caller's {@link CallTally}, so that the request log shows the action's calls as it shows a function's.
 *
 * <p>One is made per action, with the configuration the stack runs at that moment: after a {@code deploy}, its
 * shard plan and quota.
 */
final class ItemEdits {
    private final TableMirror mirror;
    private final WritableItems writable;
    private final OperationContext context;
    private final ControlPlaneStore store;
    private final ShardPlan plan;

    ItemEdits(TableMirror mirror, RunningConfiguration configuration) {
        this.mirror = mirror;
        this.plan = configuration.plan();
        this.writable = new WritableItems(mirror.table(), configuration.plan());
        this.context = OperationContext.of(mirror.table(), configuration.plan());
        this.store = new ControlPlaneStore(mirror.client(), null, mirror.table(), configuration.plan())
                .withProjectQuota(configuration.projectQuota());
    }

    /**
     * Replaces a workspace or project with {@code attributes} (DynamoDB JSON, the key left out), at the version
     * read: the version becomes the next one, {@code updatedAt} now, and index keys, where the item keeps them, the
     * codec's for what it now is (a project's new status moves its index entry in this same write, as a PATCH does).
     *
     * @throws BadRequest 422 for an item the API could not have written or a project whose workspace is gone, 409
     *     when the version is not the item's
     */
    Map<String, Object> edit(Map<String, Object> form, CallTally tally) {
        PrimaryKey key = key(form);
        // Before the version: a bookkeeping record has none to give, and its refusal should say what it is.
        requireNotBookkeeping(key, "edits");
        long version = version(form);
        Map<String, AttributeValue> item = attributes(form);
        item.putAll(TableMirror.keyOf(key));
        item.put(Items.VERSION, AttributeValue.fromN(Long.toString(version + 1)));
        item.put(
                "updatedAt",
                AttributeValue.fromS(
                        Instant.now().truncatedTo(ChronoUnit.MILLIS).toString()));
        if (item.containsKey(KeyCodec.INDEX_PARTITION_KEY) || item.containsKey(KeyCodec.INDEX_SORT_KEY)) {
            indexKeys(key, item).ifPresent(item::putAll);
        }
        StoredItems.Decoded decoded = require(item, "edits");
        if (decoded instanceof StoredItems.OfProject project) {
            // An edit never creates an item (the version guard), but it keeps none alive outside a workspace either.
            liveWorkspace(project.project().workspaceId(), tally);
        }
        Condition guard = WriteConditions.versionGuard(ExpectedVersion.exactly(version));
        if (decoded instanceof StoredItems.OfWorkspace) {
            // As every workspace write of the API: none but the purge's own touches a workspace being deleted.
            guard = guard.and(WriteConditions.notPurging());
        }
        Expression condition = guard.build();
        write(
                PutItemRequest.builder()
                        .tableName(mirror.table())
                        .item(item)
                        .conditionExpression(condition.expression())
                        .expressionAttributeNames(condition.names())
                        .expressionAttributeValues(condition.valuesOrNull())
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                        .build(),
                key,
                tally,
                "it is not at version " + version + " any more (changed or deleted since it was read)");
        return written(key, version + 1);
    }

    /**
     * Copies a project under a new id, in the same workspace, at version 1 and created now: after a consistent read
     * of the project and of its workspace, which must exist and not be purging, the store's create in that workspace
     * ({@link ControlPlaneStore#createProjectIn}): the API's quota check and its conditional PutItem at the project's
     * home under the running shard plan.
     *
     * @throws BadRequest 422 for anything but a project, or a project whose workspace is gone
     * @throws dev.oneread.store.exceptions.QuotaExceededException when the workspace is at its project quota
     */
    Map<String, Object> duplicate(Map<String, Object> form, CallTally tally) {
        PrimaryKey key = key(form);
        Map<String, AttributeValue> source =
                read(key, tally).orElseThrow(() -> new BadRequest(404, "no item has this key"));
        StoredItems.Decoded decoded = require(source, "duplicates");
        if (!(decoded instanceof StoredItems.OfProject original)) {
            throw new BadRequest(422, "only a project can be duplicated; this is " + kind(decoded));
        }
        Project project = original.project();
        Map<String, AttributeValue> workspace = liveWorkspace(project.workspaceId(), tally);
        if (!(writable.check(workspace, false).decoded() instanceof StoredItems.OfWorkspace live)) {
            throw new BadRequest(
                    422,
                    "its workspace " + project.workspaceId().value() + " is not an item the API could have written");
        }
        ProjectId id = Ulid.generator().next();
        Project copy = store.createProjectIn(
                live.workspace(),
                id,
                new NewProject(project.name(), project.description(), project.status()),
                Instant.now().truncatedTo(ChronoUnit.MILLIS),
                CreationToken.random(),
                tally);
        Map<String, Object> out =
                written(plan.locate(copy.workspaceId(), copy.id()).home(), copy.version());
        out.put("id", id.value());
        return out;
    }

    /**
     * Deletes a project at the version read: the DeleteItem of a DELETE with If-Match. A workspace is deleted
     * through the API (it is a purge of everything in it), and bookkeeping items expire on their own.
     *
     * @throws BadRequest 422 for anything but a project's key, 409 when the version is not the item's
     */
    Map<String, Object> delete(Map<String, Object> form, CallTally tally) {
        PrimaryKey key = key(form);
        // Before the version, as for an edit: a bookkeeping record has none to give.
        if (KeyCodec.decodeIdempotencySortKey(key.sort()).isPresent()
                || KeyCodec.hotTenantReportPartition().equals(key.partition())) {
            throw new BadRequest(422, "the console deletes projects only; this is a bookkeeping item");
        }
        long version = version(form);
        SortKey sort;
        try {
            KeyCodec.decodePartition(key.partition());
            sort = KeyCodec.decodeSortKey(key.sort());
        } catch (IllegalArgumentException e) {
            throw new BadRequest(422, "the console deletes projects only; the codec cannot read this key");
        }
        if (sort.project().isEmpty()) {
            throw new BadRequest(
                    422,
                    "the console deletes projects only; a workspace is deleted through the API"
                            + " (DELETE /workspaces/{id}), which purges everything in it");
        }
        requireNotMoving(KeyCodec.decodePartition(key.partition()).workspaceId(), tally);
        write(
                DeleteProjectOperation.generateRequest(context, key, ExpectedVersion.exactly(version)),
                key,
                tally,
                "it is not at version " + version + " any more (changed or deleted since it was read)");
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("partition", key.partition());
        out.put("sort", key.sort());
        out.put("deleted", true);
        return out;
    }

    /** The workspace an action is on, for the log; null when the key is not the codec's. */
    static String workspaceOf(Map<String, Object> form) {
        Object partition = form.get("partition");
        if (!(partition instanceof String p)) {
            return null;
        }
        ItemRows.Place place = ItemRows.place(p);
        return place.decoded() ? place.tenant() : null;
    }

    /** A 422 naming the record when {@code key} is a bookkeeping record's. */
    private static void requireNotBookkeeping(PrimaryKey key, String action) {
        Optional<String> bookkeeping = StoredItems.bookkeepingKind(key);
        if (bookkeeping.isPresent()) {
            throw new BadRequest(
                    422,
                    "the console " + action + " workspaces and projects only; this is a bookkeeping" + " item ("
                            + bookkeeping.get() + "), which only the API's own requests write");
        }
    }

    private StoredItems.Decoded require(Map<String, AttributeValue> item, String action) {
        requireNotBookkeeping(TableMirror.keyOf(item), action);
        WritableItems.Verdict verdict = writable.check(item, false);
        if (verdict.refusal() != null) {
            throw new BadRequest(422, "the API could not have written this item: " + verdict.refusal());
        }
        if (verdict.decoded() instanceof StoredItems.OfWorkspace
                || verdict.decoded() instanceof StoredItems.OfProject) {
            return verdict.decoded();
        }
        throw new BadRequest(
                422, "the console " + action + " workspaces and projects only; this is " + kind(verdict.decoded()));
    }

    private static String kind(StoredItems.Decoded decoded) {
        if (decoded instanceof StoredItems.OfWorkspace) {
            return "a workspace (its META item): a workspace is created through the API, under an id of its own";
        } else if (decoded instanceof StoredItems.Bookkeeping b) {
            return "a bookkeeping item (" + b.kind() + ")";
        } else if (decoded instanceof StoredItems.Tombstone) {
            return "a tombstone a move left";
        }
        return "a project";
    }

    /** Reads the workspace (a consistent GetItem) and refuses while it moves into shards: see {@link #requireNoLease}. */
    private void requireNotMoving(WorkspaceId workspace, CallTally tally) {
        read(KeyCodec.workspaceKey(workspace), tally).ifPresent(ItemEdits::requireNoLease);
    }

    /**
     * The workspace a project is written into, read consistently: it must exist and not be purging (422), as for
     * the API's create, and not be moving into shards (409, see {@link #requireNoLease}).
     */
    private Map<String, AttributeValue> liveWorkspace(WorkspaceId id, CallTally tally) {
        Map<String, AttributeValue> workspace = read(KeyCodec.workspaceKey(id), tally)
                .orElseThrow(() -> new BadRequest(
                        422,
                        "its workspace " + id.value()
                                + " does not exist, and the API keeps no project outside one (delete the project)"));
        if (Items.isPurging(workspace)) {
            throw new BadRequest(422, "its workspace " + id.value() + " is being deleted");
        }
        requireNoLease(workspace);
        return workspace;
    }

    /**
     * While a workspace moves into shards, the API's project writes also mind the move (a delete leaves a tombstone
     * so that the move's copy cannot bring the project back): one plain write from here could be undone by it.
     */
    private static void requireNoLease(Map<String, AttributeValue> workspace) {
        Items.migrationLeaseUntil(workspace)
                .filter(until -> until.isAfter(Instant.now()))
                .ifPresent(until -> {
                    throw new BadRequest(
                            409,
                            "nothing was written: the workspace is moving into shards (its lease holds until " + until
                                    + "); change the project through the API, or after the move");
                });
    }

    /** The index keys the codec gives the item; empty where its status is not one, which the check then names. */
    private Optional<Map<String, AttributeValue>> indexKeys(PrimaryKey key, Map<String, AttributeValue> item) {
        try {
            SortKey sort = KeyCodec.decodeSortKey(key.sort());
            if (sort.project().isEmpty()) {
                return Optional.of(IndexEntries.registryEntry(
                        context.plan(),
                        KeyCodec.decodePartition(key.partition()).workspaceId()));
            }
            AttributeValue status = item.get(Items.STATUS);
            if (status == null || status.s() == null) {
                return Optional.empty();
            }
            return Optional.of(IndexEntries.statusEntry(
                    context.plan(),
                    ProjectStatus.valueOf(status.s()).name(),
                    sort.project().get()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** A consistent GetItem through the tally: the item, or empty. */
    private Optional<Map<String, AttributeValue>> read(PrimaryKey key, CallTally tally) {
        GetItemRequest get = WriteConditions.readAfterConflict(context, key);
        Map<String, AttributeValue> item =
                mirror.client().getItem(tagged(get, key, tally)).item();
        return item == null || item.isEmpty() ? Optional.empty() : Optional.of(item);
    }

    /** One conditional write through the tally; a refused condition is a 409 naming {@code conflict}. */
    private void write(DynamoDbRequest request, PrimaryKey key, CallTally tally, String conflict) {
        DynamoDbRequest sent = tagged(request, key, tally);
        try {
            if (sent instanceof PutItemRequest put) {
                mirror.client().putItem(put);
            } else if (sent instanceof software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest delete) {
                mirror.client().deleteItem(delete);
            } else {
                throw new IllegalArgumentException(
                        "not a write: " + request.getClass().getSimpleName());
            }
        } catch (ConditionalCheckFailedException e) {
            throw new BadRequest(409, "nothing was written: " + conflict);
        }
    }

    private static <T extends DynamoDbRequest> T tagged(T request, PrimaryKey key, CallTally tally) {
        return CallAudit.tagged(request, key.partition(), null, tally);
    }

    private static Map<String, Object> written(PrimaryKey key, long version) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("partition", key.partition());
        out.put("sort", key.sort());
        out.put("version", version);
        return out;
    }

    /** The key a form names, each part given and within DynamoDB's limits. */
    static PrimaryKey key(Map<String, Object> form) {
        String partition = Forms.required(form, "partition");
        String sort = Forms.required(form, "sort");
        if (partition.length() > 2_048 || sort.length() > 1_024) {
            throw new BadRequest("partition is at most 2,048 characters and sort at most 1,024");
        }
        return new PrimaryKey(partition, sort);
    }

    private static long version(Map<String, Object> form) {
        if (form.get("version") == null) {
            throw new BadRequest("version is required: the version the item was read at");
        }
        return Forms.number(form, "version", 0, 1, Long.MAX_VALUE / 2);
    }

    /** The form's attributes as DynamoDB JSON, without the key (which an edit cannot change). */
    private static Map<String, AttributeValue> attributes(Map<String, Object> form) {
        Map<String, Object> attributes = Forms.object(form, "attributes");
        for (String keyAttribute : new String[] {KeyCodec.PARTITION_KEY, KeyCodec.SORT_KEY}) {
            if (attributes.containsKey(keyAttribute)) {
                throw new BadRequest(
                        keyAttribute + " is the item's key, which an edit cannot change: duplicate the item instead");
            }
        }
        try {
            return new LinkedHashMap<>(DynamoJson.toItem(attributes));
        } catch (IllegalArgumentException e) {
            throw new BadRequest("attributes are not DynamoDB JSON: " + e.getMessage());
        }
    }
}
