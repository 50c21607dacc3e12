package dev.oneread.store.purge;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.operations.OperationContext;
import dev.oneread.operations.RunJobOperation;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.calls.JobPace;
import dev.oneread.store.exceptions.StoreUnavailableException;
import dev.oneread.store.internal.StoreCalls;
import dev.oneread.store.items.Items;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The purge task of a deleted workspace: deletes its whole item collection (its partition with the idempotency
 * records, every shard, and with the items their index entries), its entries in the hot-tenant report, then the
 * workspace item, last.
 *
 * <p><b>The fence: the sweep runs after the longest writer that may still land.</b> Nothing can be written into a
 * collection after its sweep, because of one rule that every writer keeps: a write that may create an item in a
 * workspace's collection (or its report entries) is sent only after the writer saw the workspace live, in the
 * write's own condition where it writes the workspace item, else by a read of it just before; and it is sent within
 * a bounded time of that moment. The bound is the writer's function timeout for requests and tasks (CreateProject
 * reads the workspace, then puts; a stats task's write is conditioned on it, then it puts its report entry), and
 * the migration lease for a migration run, whose functions run for up to 15 minutes (see
 * {@link dev.oneread.store.migration.ShardMigration}):
 * no lease is taken or renewed once the DELETE has marked the workspace, and the workspace item keeps when the last
 * lease ends ({@code migrationUntil}). So the sweep starts {@code fence} (the longest such timeout, and a margin
 * for a write in flight) after the later of the DELETE and the lease's end: every writer that saw the workspace
 * live has ended by then, and every later one was refused. Writes that never create (versioned updates and
 * deletes, the index backfill) cannot leave anything behind. The sweep then reads each partition again until a
 * pass finds nothing left, which is the sweep again at the end.
 *
 * <p>Idempotent: a task for a run that is not the workspace's (a workspace created again since), or for a
 * workspace already gone, does nothing; two deliveries of one task at once both sweep, and each checks before
 * every page that the workspace is still this purge's, so neither sweeps on into a workspace created since. When time runs low it stops, unfinished, and a continuation of the same
 * task picks up what is left.
 *
 * <pre>{@code Outcome o = purge.run(WorkspaceId.of("acme"), runId, Instant.now(), tally);}</pre>
 */
public final class WorkspacePurge {
    /** Tries per batch: DynamoDB leaves items unprocessed when a partition is throttled, briefly. */
    static final int ATTEMPTS = 8;

    private final StoreCalls calls;
    private final OperationContext context;
    private final ShardPlan plan;
    private final Duration fence;
    private final JobPace.Share share;

    /** A purge at the default share of each partition (see {@link JobPace.Share#DEFAULT_FRACTION}). */
    public WorkspacePurge(DynamoDbClient client, String tableName, ShardPlan plan, Duration fence) {
        this(client, tableName, plan, fence, JobPace.Share.of(JobPace.Share.DEFAULT_FRACTION));
    }

    /**
     * @param fence the longest a create can take after it read the workspace: its function's timeout, and margin
     * @param share the most of each partition's capacity the sweep may take (see {@link JobPace})
     */
    public WorkspacePurge(
            DynamoDbClient client, String tableName, ShardPlan plan, Duration fence, JobPace.Share share) {
        this.calls = new StoreCalls(client, null);
        this.context = OperationContext.of(tableName, plan);
        this.plan = plan;
        this.fence = fence;
        this.share = share;
    }

    /** The longest a task waits for its fence before it hands the wait to the queue (a delayed continuation). */
    static final Duration RECHECK = Duration.ofSeconds(60);

    /**
     * What one task did: items deleted, and whether the workspace is gone ({@code finished}). An unfinished task
     * goes on in a continuation sent after {@code continueAfter}: when its time ran out mid-sweep, the job's debt
     * on its partition (see {@link JobPace#debt}), mostly zero; the time
     * left of the fence (at most {@link #RECHECK}, so that a migration lease released early is seen soon) when the
     * fence has not passed yet.
     */
    public record Outcome(int deleted, boolean finished, String state, Duration continueAfter) {
        Outcome(int deleted, boolean finished, String state) {
            this(deleted, finished, state, Duration.ZERO);
        }
    }

    public Outcome run(WorkspaceId workspaceId, String runId, Instant now, CallTally tally) {
        Optional<Outcome> notToSweep = awaitFence(workspaceId, runId, now, tally);
        if (notToSweep.isPresent()) {
            return notToSweep.get();
        }
        JobPace pace = new JobPace(share);
        int deleted = 0;
        boolean deletedSomething;
        do {
            deletedSomething = false;
            for (String partition : plan.collectionPartitions(workspaceId).partitions()) {
                while (true) {
                    if (!pace.mayStart(partition, tally)) {
                        return new Outcome(deleted, false, "continues", pace.debt());
                    }
                    if (!stillThisPurge(workspaceId, runId, tally)) {
                        // A copy of this task (SQS delivers at least once) finished first, and the id may be a
                        // new workspace's by now: sweep no further.
                        return new Outcome(deleted, true, "finished by another delivery");
                    }
                    List<PrimaryKey> keys = pace.call(partition, tally, () -> sweep(partition, tally));
                    if (keys.isEmpty()) {
                        break;
                    }
                    for (int start = 0; start < keys.size(); start += RunJobOperation.PURGE_BATCH) {
                        // A page is 10 batches, 250 write units and their index entries': paced batch by batch,
                        // as one page at once would take a quarter of a second of the partition's writes.
                        if (start > 0 && !pace.mayStart(partition, tally)) {
                            return new Outcome(deleted, false, "continues", pace.debt());
                        }
                        List<PrimaryKey> batch =
                                keys.subList(start, Math.min(keys.size(), start + RunJobOperation.PURGE_BATCH));
                        pace.call(
                                partition,
                                tally,
                                () -> deleteAll(RunJobOperation.deleteAll(context, batch), partition, tally));
                        deleted += batch.size();
                    }
                    deletedSomething = true;
                }
            }
        } while (deletedSomething);
        deleteReportEntries(workspaceId, tally);
        calls.delete(RunJobOperation.deleteWorkspace(context, workspaceId, runId), tally);
        return new Outcome(deleted + 1, true, "purged");
    }

    /**
     * Reads the workspace and waits out what is left of its fence, when this task has the time: then empty, the sweep
     * may start. Otherwise what the task answers without sweeping: the workspace is gone, or is not this purge's, or
     * its fence is further off than the task's time (it comes back later).
     */
    private Optional<Outcome> awaitFence(WorkspaceId workspaceId, String runId, Instant now, CallTally tally) {
        Optional<Map<String, AttributeValue>> workspace =
                calls.get(RunJobOperation.readWorkspace(context, workspaceId), tally);
        if (workspace.isEmpty()) {
            return Optional.of(new Outcome(0, true, "gone"));
        }
        if (!Items.isPurging(workspace.get())
                || !runId.equals(workspace.get().get(Items.PURGE_RUN).s())) {
            return Optional.of(new Outcome(0, true, "not this purge"));
        }
        Duration wait = Duration.between(now, sweepFrom(workspaceId, workspace.get()));
        if (wait.isNegative() || wait.isZero()) {
            wait = Duration.ZERO;
        } else if (tally.deadline().remaining().minus(wait).compareTo(JobPace.STOP_MARGIN) <= 0) {
            // Delivered before its fence was up (a migration lease, a redrive, a hand-sent task): come back later.
            return Optional.of(new Outcome(0, false, "waiting", wait.compareTo(RECHECK) < 0 ? wait : RECHECK));
        }
        sleep(wait);
        return Optional.empty();
    }

    /** The hot-tenant report's entries of its partitions: they are not in the collection, so they go by key. */
    private void deleteReportEntries(WorkspaceId workspaceId, CallTally tally) {
        List<PrimaryKey> entries = new ArrayList<>();
        plan.collectionPartitions(workspaceId).partitions().forEach(p -> entries.add(KeyCodec.hotTenantReportKey(p)));
        for (int start = 0; start < entries.size(); start += RunJobOperation.PURGE_BATCH) {
            deleteAll(
                    RunJobOperation.deleteAll(
                            context,
                            entries.subList(start, Math.min(entries.size(), start + RunJobOperation.PURGE_BATCH))),
                    KeyCodec.hotTenantReportPartition(),
                    tally);
        }
    }

    /**
     * When the sweep may start: {@code fence} after the later of the DELETE and the end of the last migration lease
     * (a lease still held ends at its deadline; one released ends when it was released).
     */
    private Instant sweepFrom(WorkspaceId workspaceId, Map<String, AttributeValue> workspace) {
        Instant open = Purge.of(workspaceId, workspace).deletedAt();
        AttributeValue leaseEnd = workspace.get(Items.MIGRATION_UNTIL);
        if (leaseEnd != null && leaseEnd.n() != null) {
            Instant end = Instant.ofEpochMilli(Long.parseLong(leaseEnd.n()));
            open = end.isAfter(open) ? end : open;
        }
        return open.plus(fence);
    }

    /** Whether the workspace item still carries this purge's run (1 consistent GetItem, once a page). */
    private boolean stillThisPurge(WorkspaceId workspaceId, String runId, CallTally tally) {
        return calls.get(RunJobOperation.readWorkspace(context, workspaceId), tally)
                .filter(item -> Items.isPurging(item)
                        && runId.equals(item.get(Items.PURGE_RUN).s()))
                .isPresent();
    }

    /** The keys at the start of a partition, but the workspace item's (deleted last). */
    private List<PrimaryKey> sweep(String partition, CallTally tally) {
        QueryResponse page = calls.query(RunJobOperation.sweepPage(context, partition), partition, tally);
        List<PrimaryKey> keys = new ArrayList<>();
        for (Map<String, AttributeValue> item : page.items()) {
            if (!Items.isWorkspace(item)) {
                keys.add(Items.keyOf(item));
            }
        }
        return keys;
    }

    /** One batch, and its unprocessed requests again with exponential backoff and full jitter, until none is left. */
    private Void deleteAll(BatchWriteItemRequest batch, String partition, CallTally tally) {
        BatchWriteItemRequest request = batch;
        for (int attempt = 1; ; attempt++) {
            BatchWriteItemResponse response = calls.batchWrite(request, partition, tally);
            if (!response.hasUnprocessedItems() || response.unprocessedItems().isEmpty()) {
                return null;
            }
            if (attempt == ATTEMPTS) {
                throw new StoreUnavailableException(new IllegalStateException(
                        "items still unprocessed after " + ATTEMPTS + " BatchWriteItem tries"));
            }
            sleep(JobPace.backoff(attempt));
            request = RunJobOperation.retryBatch(response.unprocessedItems());
        }
    }

    private static void sleep(Duration duration) {
        if (duration.isZero()) {
            return;
        }
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
