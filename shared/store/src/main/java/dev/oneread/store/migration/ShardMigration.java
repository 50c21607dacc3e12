package dev.oneread.store.migration;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.operations.MigrateHotTenantOperation;
import dev.oneread.operations.OperationContext;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.calls.InvocationDeadline;
import dev.oneread.store.calls.JobPace;
import dev.oneread.store.calls.QueryPool;
import dev.oneread.store.exceptions.StoreUnavailableException;
import dev.oneread.store.internal.StoreCalls;
import dev.oneread.store.items.Items;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Moves a workspace's projects from its own partition into its shards, once it is listed in
 * HotTenantShards and HotTenantMigrating. Each project moves in two conditional steps with no moment of
 * invisibility: copy into the shard (unless the shard already has that version or newer), then delete the
 * source at the version copied. While both copies exist, reads take the source (see ControlPlaneStore).
 * A project changed meanwhile fails the delete and is copied again on the next pass. A project deleted meanwhile
 * leaves a tombstone at its shard key, which refuses the copy (even one sent after the job read the project,
 * before the delete), so a deleted project never comes back. Resumable and idempotent: every run starts from what
 * is left in the source.
 *
 * <p><b>One run at a time: the lease.</b> A run works only while it holds the migration lease on the workspace item
 * (one conditional UpdateItem, before the first query, again before every batch and before the clean-up), until the
 * moment after which
 * no write it sends can still land: its invocation's deadline, one attempt's timeout and a landing margin ({@link
 * InvocationDeadline#untilSentWritesLand}). Lambda ends an invocation at its deadline, so a run that stalls cannot write
 * past its lease. A second run (an operator's, or a client re-sending a long synchronous invoke) is refused while
 * the first holds it, so no stale copy of one run can follow another run's move, and the tombstones, removed when
 * the source is empty, are removed by the one run that could still copy. The same write refuses a workspace being
 * purged: once a DELETE has marked it, no batch starts, and the purge sweeps only after the lease is over (see
 * {@link dev.oneread.store.purge.WorkspacePurge}). A run releases its lease when it stops.
 *
 * <p><b>A batch at once.</b> The 25 projects of a batch move side by side on the query pool, each its own copy
 * then delete: the moves are independent (each decides by its own item's version and tombstone), so their order
 * does not matter, and one at a time a million projects took hours. The pace sees the batch as one page: it starts
 * only while the source partition's share is not spent, and the next waits out what the batch took.
 *
 * <pre>{@code Progress p = migration.run(WorkspaceId.of("acme"), tally, line -> log(Json.write(line)));}</pre>
 */
public final class ShardMigration {
    static final int BATCH = 25;

    private final StoreCalls calls;
    private final OperationContext context;
    private final ShardPlan plan;
    /** The lease's clock: when a lease another run holds is over. */
    private final Clock clock = Clock.systemUTC();

    private final JobPace.Share share;

    /** A migration at the default share of each partition (see {@link JobPace.Share#DEFAULT_FRACTION}). */
    public ShardMigration(DynamoDbClient client, String tableName, ShardPlan plan) {
        this(client, QueryPool.shared(), tableName, plan, JobPace.Share.of(JobPace.Share.DEFAULT_FRACTION));
    }

    /**
     * @param share the most of each partition's capacity a run may take (see {@link JobPace}): no query and no
     *              move starts while the source partition's share is spent, nor with too little time left, so a
     *              run ends cleanly (done: false) instead of dying mid-batch
     * @param pool  the threads a batch's moves run on at once
     */
    public ShardMigration(
            DynamoDbClient client, QueryPool pool, String tableName, ShardPlan plan, JobPace.Share share) {
        this.calls = new StoreCalls(client, pool);
        this.context = OperationContext.of(tableName, plan);
        this.plan = plan;
        this.share = share;
    }

    /**
     * What one run did: projects moved, whether the source is now empty, and how the run ended: {@code done}, {@code
     * continues} (its time ran out), {@code busy} (another run holds the lease), {@code purging} (the workspace was
     * deleted), {@code gone} (there is no such workspace).
     */
    public record Progress(int moved, int passes, boolean done, String state) {}

    /** Why a run could not take or keep the lease, and until when the lease is held (by another run). */
    private record Refusal(String state, Optional<Instant> heldUntil) {}

    /**
     * Moves projects until the source is empty or the time is up, under a lease of its own (a new run id).
     *
     * @param log receives one structured line per batch (and one when done, or refused), for the caller to write out
     */
    public Progress run(WorkspaceId workspaceId, CallTally tally, Consumer<Map<String, Object>> log) {
        if (!plan.isSharded(workspaceId)) {
            throw new IllegalArgumentException(workspaceId + " is not in HotTenantShards");
        }
        JobPace pace = new JobPace(share);
        Lease lease = new Lease(workspaceId, Ulid.generator().next().value(), tally, pace);
        Optional<Refusal> refused = lease.hold();
        if (refused.isPresent()) {
            return refused(workspaceId, new Progress(0, 0, false, refused.get().state()), refused.get(), log);
        }
        boolean ended = false;
        try {
            Progress progress = moveAll(workspaceId, lease, pace, tally, log);
            ended = true;
            return progress;
        } finally {
            lease.end(ended);
        }
    }

    /** The end of a run refused the lease: one log line that says why. */
    private static Progress refused(
            WorkspaceId workspaceId, Progress progress, Refusal refusal, Consumer<Map<String, Object>> log) {
        Map<String, Object> line = line(workspaceId, progress.moved());
        line.put("refused", refusal.state());
        refusal.heldUntil().ifPresent(until -> line.put("leaseHeldUntil", until.toString()));
        line.put("done", false);
        log.accept(line);
        return progress;
    }

    /**
     * The lease of one run: taken, renewed before every batch and before the clean-up, ended when the run stops. Each hold is the same
     * conditional write (see {@link MigrateHotTenantOperation#holdLease}).
     */
    private final class Lease {
        private final WorkspaceId workspaceId;
        private final String run;
        private final CallTally tally;
        private final JobPace pace;

        Lease(WorkspaceId workspaceId, String run, CallTally tally, JobPace pace) {
            this.workspaceId = workspaceId;
            this.run = run;
            this.tally = tally;
            this.pace = pace;
        }

        /**
         * Takes or renews the lease: empty when this run holds it now, else why not. The lease is a write to the
         * workspace's item, in the very partition the tenant's load made hot: a throttled hold waits and tries
         * again, as a page does, while the run has time, instead of failing the run.
         */
        Optional<Refusal> hold() {
            if (pace.call(KeyCodec.workspacePartition(workspaceId), tally, () -> {
                        Instant now = clock.instant();
                        return calls.update(
                                MigrateHotTenantOperation.holdLease(
                                        context,
                                        workspaceId,
                                        run,
                                        now.plus(tally.deadline().untilSentWritesLand()),
                                        now),
                                tally);
                    })
                    .written()) {
                return Optional.empty();
            }
            return Optional.of(readWorkspace(workspaceId, tally)
                    .map(item ->
                            new Refusal(Items.isPurging(item) ? "purging" : "busy", Items.migrationLeaseUntil(item)))
                    .orElse(new Refusal("gone", Optional.empty())));
        }

        /**
         * Ends the lease. After a run that ended normally every write it sent has landed, so the lease goes; after
         * one that ended on an error (a call whose outcome is unknown may still land), it ends when that call can
         * land no more. A failure here leaves the lease to run out by itself, which only delays the next run.
         */
        void end(boolean cleanly) {
            try {
                calls.update(
                        cleanly
                                ? MigrateHotTenantOperation.releaseLease(context, workspaceId, run, clock.instant())
                                : MigrateHotTenantOperation.shortenLease(
                                        context,
                                        workspaceId,
                                        run,
                                        clock.instant().plus(InvocationDeadline.IN_FLIGHT)),
                        tally);
            } catch (RuntimeException e) {
                // The lease runs out at its deadline: safe, and the caller sees the run's own outcome or error.
            }
        }
    }

    private Optional<Map<String, AttributeValue>> readWorkspace(WorkspaceId workspaceId, CallTally tally) {
        return calls.get(MigrateHotTenantOperation.readWorkspace(context, workspaceId), tally)
                .filter(item -> item.containsKey(Items.VERSION));
    }

    private Progress moveAll(
            WorkspaceId workspaceId, Lease lease, JobPace pace, CallTally tally, Consumer<Map<String, Object>> log) {
        int moved = 0;
        int passes = 0;
        String source = KeyCodec.workspacePartition(workspaceId);
        // Where this pass is: each batch reads on from the last project the one before it read, and a pass that
        // reaches the end starts again from the top, to find what stayed (changed meanwhile) or was written since.
        // The source is done only when a pass from the top finds nothing. Reading from the top every batch would be
        // the same on DynamoDB, whose deleted items cost nothing to skip; an engine that keeps deletes as markers
        // (dynalite's LevelDB) walks every one moved so far, and a million-project move slowed down as it went.
        Optional<PrimaryKey> after = Optional.empty();
        while (pace.mayStart(source, tally)) {
            Optional<PrimaryKey> position = after;
            List<Map<String, AttributeValue>> batch = pace.call(
                            source,
                            tally,
                            () -> calls.query(
                                    MigrateHotTenantOperation.unmovedProjects(context, workspaceId, BATCH, position),
                                    source,
                                    tally))
                    .items();
            if (batch.isEmpty() && after.isPresent()) {
                after = Optional.empty();
                continue;
            }
            // Before every batch, and before the clean-up: this run still holds the lease, and the workspace is
            // not being purged.
            Optional<Refusal> refused = lease.hold();
            if (refused.isPresent()) {
                return refused(
                        workspaceId,
                        new Progress(moved, passes, false, refused.get().state()),
                        refused.get(),
                        log);
            }
            if (batch.isEmpty()) {
                return cleanUp(workspaceId, moved, passes, pace, tally, log);
            }
            passes++;
            after = Optional.of(Items.keyOf(batch.get(batch.size() - 1)));
            moved += moveBatch(workspaceId, batch, pace, tally);
            Map<String, Object> line = line(workspaceId, moved);
            line.put("batch", batch.size());
            line.put("done", false);
            log.accept(line);
        }
        return new Progress(moved, passes, false, "continues");
    }

    /** The source is empty: the move's tombstones go, and the move is done, unless the time runs out first. */
    private Progress cleanUp(
            WorkspaceId workspaceId,
            int moved,
            int passes,
            JobPace pace,
            CallTally tally,
            Consumer<Map<String, Object>> log) {
        Optional<Integer> removed = removeTombstones(workspaceId, pace, tally);
        if (removed.isEmpty()) {
            // Out of time: the next run finds the source empty and finishes the clean-up.
            return new Progress(moved, passes, false, "continues");
        }
        Map<String, Object> line = line(workspaceId, moved);
        line.put("remaining", 0);
        line.put("tombstonesRemoved", removed.get());
        line.put("done", true);
        log.accept(line);
        return new Progress(moved, passes, true, "done");
    }

    /**
     * The end of a move: the tombstones that deletes left in the shards while it ran are no longer needed (this run
     * holds the lease and has no copy left to make, and every earlier run's writes landed before its lease was
     * over), so they go. One consistent Query per page of each shard, one conditional
     * DeleteItem per tombstone; empty when the time ran out first.
     */
    private Optional<Integer> removeTombstones(WorkspaceId workspaceId, JobPace pace, CallTally tally) {
        int removed = 0;
        String source = KeyCodec.workspacePartition(workspaceId);
        for (String shard : plan.projectPartitions(workspaceId).partitions()) {
            if (shard.equals(source)) {
                continue;
            }
            Optional<PrimaryKey> after = Optional.empty();
            do {
                if (!pace.mayStart(shard, tally)) {
                    return Optional.empty();
                }
                Optional<PrimaryKey> position = after;
                QueryResponse page = pace.call(
                        shard,
                        tally,
                        () -> calls.query(
                                MigrateHotTenantOperation.shardProjects(context, shard, BATCH, position),
                                shard,
                                tally));
                for (Map<String, AttributeValue> item : page.items()) {
                    if (Items.isTombstone(item)
                            && calls.delete(
                                            MigrateHotTenantOperation.removeTombstone(context, Items.keyOf(item)),
                                            tally)
                                    .written()) {
                        removed++;
                    }
                }
                after = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
                        ? Optional.of(Items.keyOf(page.lastEvaluatedKey()))
                        : Optional.empty();
            } while (after.isPresent());
        }
        return Optional.of(removed);
    }

    private static Map<String, Object> line(WorkspaceId workspaceId, int moved) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("job", "MigrateHotTenant");
        line.put("workspaceId", workspaceId.value());
        line.put("moved", moved);
        return line;
    }

    /** What became of one project's move in a batch. */
    private enum Move {
        MOVED,
        /** Changed or deleted meanwhile: a later pass, or the DELETE that took both copies, settles it. */
        STAYED,
        /** Throttled past the client's retries: tried again, one at a time, at the pace's backoff. */
        THROTTLED
    }

    /**
     * Moves a batch's projects all at once; those throttled past the client's retries again one by one, through
     * the pace (which slows down on their partition). Returns how many moved.
     */
    private int moveBatch(
            WorkspaceId workspaceId, List<Map<String, AttributeValue>> batch, JobPace pace, CallTally tally) {
        Map<Integer, Supplier<Move>> moves = new LinkedHashMap<>();
        for (int i = 0; i < batch.size(); i++) {
            Map<String, AttributeValue> item = batch.get(i);
            moves.put(i, () -> {
                try {
                    return move(workspaceId, item, tally) ? Move.MOVED : Move.STAYED;
                } catch (StoreUnavailableException e) {
                    if (JobPace.throttled(e)) {
                        return Move.THROTTLED;
                    }
                    throw e;
                }
            });
        }
        int moved = 0;
        String source = KeyCodec.workspacePartition(workspaceId);
        for (Map.Entry<Integer, Move> outcome : calls.all(moves).entrySet()) {
            Map<String, AttributeValue> item = batch.get(outcome.getKey());
            if (outcome.getValue() == Move.MOVED
                    || (outcome.getValue() == Move.THROTTLED
                            && pace.call(source, tally, () -> move(workspaceId, item, tally)))) {
                moved++;
            }
        }
        return moved;
    }

    /** One project: copy, then delete the source at the copied version. True when the source is gone. */
    private boolean move(WorkspaceId workspaceId, Map<String, AttributeValue> source, CallTally tally) {
        ProjectId id = Items.projectId(source);
        PrimaryKey target = plan.locate(workspaceId, id).home();
        long version = Long.parseLong(source.get(Items.VERSION).n());
        // Refused: a previous run copied it (or a newer version), and the delete below finishes that move.
        calls.put(MigrateHotTenantOperation.copyProject(context, source, target), tally);
        // Refused: changed since the copy (the next pass copies the new version), or gone (a DELETE took both).
        return calls.delete(MigrateHotTenantOperation.deleteSource(context, workspaceId, id, version), tally)
                .written();
    }
}
