package dev.oneread.store.stats;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.HotPartition;
import dev.oneread.model.HotPartitionThreshold;
import dev.oneread.model.ProjectStatus;
import dev.oneread.operations.OperationContext;
import dev.oneread.operations.RunJobOperation;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.calls.JobPace;
import dev.oneread.store.internal.StoreCalls;
import dev.oneread.store.internal.WriteOutcome;
import dev.oneread.store.items.ItemSize;
import dev.oneread.store.items.Items;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The stats job for one workspace: counts its projects by status over every partition they may be in (its shards,
 * for a hot tenant), page by page, and writes the counts onto the workspace item, once per run. Counts are
 * absolute, so running a task again gives the same numbers, never doubled ones. The same count keeps the hot-tenant
 * report: see {@link #run}.
 *
 * <pre>{@code Outcome o = rollup.run(WorkspaceId.of("acme"), 0, runId, Instant.now(), tally, Partial.START);}</pre>
 */
public final class StatsRollup {
    private final StoreCalls calls;
    private final OperationContext context;
    private final ShardPlan plan;
    private final HotPartitionThreshold threshold;

    private final JobPace.Share share;

    /** A rollup at the default share of each partition (see {@link JobPace.Share#DEFAULT_FRACTION}). */
    public StatsRollup(DynamoDbClient client, String tableName, ShardPlan plan, HotPartitionThreshold threshold) {
        this(client, tableName, plan, threshold, JobPace.Share.of(JobPace.Share.DEFAULT_FRACTION));
    }

    /** @param share the most of each partition's capacity the count may take (see {@link JobPace}) */
    public StatsRollup(
            DynamoDbClient client,
            String tableName,
            ShardPlan plan,
            HotPartitionThreshold threshold,
            JobPace.Share share) {
        this.calls = new StoreCalls(client, null);
        this.context = OperationContext.of(tableName, plan);
        this.plan = plan;
        this.threshold = threshold;
        this.share = share;
    }

    /**
     * Where a count that ran out of time stopped, and what it had counted until then: its continuation goes on
     * from here. {@code partition} is the index, in the task's list of partitions, of the one it was in;
     * {@code after} the last project it counted there (empty: that partition's start).
     */
    public record Partial(int partition, Optional<ProjectId> after, Map<ProjectStatus, Integer> counts, long bytes) {
        public Partial {
            if (partition < 0 || partition > KeyCodec.MAX_SHARDS || bytes < 0) {
                throw new IllegalArgumentException("a partial count's partition and bytes are not negative");
            }
            if (counts.values().stream().anyMatch(n -> n == null || n < 0)) {
                throw new IllegalArgumentException("a partial count's counts are not negative");
            }
            counts = counts.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(counts));
        }

        /** A count that has not started. */
        public static final Partial START = new Partial(0, Optional.empty(), Map.of(), 0);
    }

    /**
     * The counts and the bytes of the projects counted; whether this task wrote them (false: the workspace already
     * had this run, or is gone); whether they make the partition hot.
     */
    public record Outcome(
            Map<ProjectStatus, Integer> counts,
            long bytes,
            boolean applied,
            boolean hot,
            Optional<Partial> continueFrom,
            Duration continueAfter,
            int pages) {
        /**
         * False when the time ran out first: a continuation from {@link #continueFrom} goes on counting, sent after
         * {@code continueAfter} (the job's debt on its partition, see {@link JobPace#debt}).
         */
        public boolean finished() {
            return continueFrom.isEmpty();
        }
    }

    /** What a stats write came to: whether it happened, and whether the counts it replaced were hot. */
    private record Written(boolean applied, boolean wasHot) {}

    /**
     * Counts the whole workspace (shard 0), or one shard of a sharded tenant, from {@code from} (a continuation's
     * partial count, or {@link Partial#START}), at the job's pace, page by page. When the time runs short it
     * stops between pages and answers where (an unfinished outcome): nothing is written until the whole count is
     * done. Then it writes the counts once, and keeps the hot-tenant report's entry for the partition: written
     * while it is hot, taken back when it no longer is. A partition that is not hot and was not costs no call for
     * the report.
     */
    public Outcome run(WorkspaceId workspaceId, int shard, String runId, Instant now, CallTally tally) {
        return run(workspaceId, shard, runId, now, tally, Partial.START);
    }

    /** A count from {@code from}: see {@link #run(WorkspaceId, int, String, Instant, CallTally)}. */
    public Outcome run(WorkspaceId workspaceId, int shard, String runId, Instant now, CallTally tally, Partial from) {
        Map<ProjectStatus, Integer> counts = new EnumMap<>(ProjectStatus.class);
        counts.putAll(from.counts());
        long bytes = from.bytes();
        int pages = 0;
        JobPace pace = new JobPace(share);
        List<String> partitions = shard == 0
                ? plan.projectPartitions(workspaceId).partitions()
                : List.of(KeyCodec.shardPartition(workspaceId, shard));
        for (int index = from.partition(); index < partitions.size(); index++) {
            String partition = partitions.get(index);
            Optional<PrimaryKey> after = index == from.partition()
                    ? from.after().map(id -> new PrimaryKey(partition, KeyCodec.projectSortKey(id)))
                    : Optional.empty();
            do {
                if (!pace.mayStart(partition, tally)) {
                    Partial stopped = new Partial(
                            index, after.map(key -> KeyCodec.decodeProjectSortKey(key.sort())), counts, bytes);
                    return new Outcome(counts, bytes, false, false, Optional.of(stopped), pace.debt(), pages);
                }
                Optional<PrimaryKey> position = after;
                QueryResponse page = pace.call(
                        partition,
                        tally,
                        () -> calls.query(
                                RunJobOperation.projectsPage(context, partition, position), partition, tally));
                pages++;
                bytes += count(page, counts);
                after = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
                        ? Optional.of(Items.keyOf(page.lastEvaluatedKey()))
                        : Optional.empty();
            } while (after.isPresent());
        }
        return write(workspaceId, shard, runId, now, tally, pace, counts, bytes, pages);
    }

    /** Adds a page's live projects to {@code counts}, by status; their bytes. */
    private static long count(QueryResponse page, Map<ProjectStatus, Integer> counts) {
        long bytes = 0;
        for (Map<String, AttributeValue> item : page.items()) {
            if (!Items.isTombstone(item) && item.get(Items.STATUS) != null) {
                counts.merge(ProjectStatus.valueOf(item.get(Items.STATUS).s()), 1, Integer::sum);
                bytes += ItemSize.bytes(item);
            }
        }
        return bytes;
    }

    /** A finished count, written once, and the hot-tenant report's entry for the partition kept as it now is. */
    private Outcome write(
            WorkspaceId workspaceId,
            int shard,
            String runId,
            Instant now,
            CallTally tally,
            JobPace pace,
            Map<ProjectStatus, Integer> counts,
            long bytes,
            int pages) {
        long projects = counts.values().stream().mapToLong(Integer::longValue).sum();
        boolean hot = threshold.exceededBy(projects, bytes);
        RunJobOperation.StatsCount count = new RunJobOperation.StatsCount(counts, hot, runId, now);
        // The counts go onto the workspace's item, in the partition a hot tenant's own load keeps busy: each write
        // there waits out a throttle and tries again while the task has time (JobPace.call), instead of failing the
        // task, so that the very tenant the report exists to flag gets counted.
        Written written = shard == 0
                ? onWorkspace(
                                pace,
                                workspaceId,
                                tally,
                                () -> calls.update(RunJobOperation.writeStats(context, workspaceId, count), tally))
                        .then(old -> new Written(true, wasHot(old.get(Items.STATS))), refused -> NOT_APPLIED)
                : writeShardPart(pace, workspaceId, shard, count, tally);
        if (hot && (written.applied() || onWorkspace(pace, workspaceId, tally, () -> isLive(workspaceId, tally)))) {
            // Conditional on no later run: a redelivered task writes it again harmlessly, or is refused. Only for a
            // workspace seen live by this task's own write, or (a refused write: a redelivery, or a workspace gone)
            // by a consistent read: an entry lands within this task's timeout of that moment, and the purge sweeps
            // only after its fence, which outlasts it (see WorkspacePurge).
            int shards = plan.shardCount(workspaceId);
            calls.put(
                    RunJobOperation.putReportEntry(
                            context,
                            new HotPartition(
                                    workspaceId,
                                    shard,
                                    projects,
                                    bytes,
                                    Math.max(1, shards),
                                    threshold.recommendedShards(projects, bytes, shards),
                                    runId,
                                    now)),
                    tally);
        } else if (written.wasHot() || !written.applied()) {
            // Not hot now: take back an entry of an earlier run. A task whose write was refused (a redelivery)
            // cannot tell whether its first delivery did, so it asks again.
            calls.delete(RunJobOperation.deleteReportEntry(context, workspaceId, shard, runId), tally);
        }
        return new Outcome(counts, bytes, written.applied(), hot, Optional.empty(), Duration.ZERO, pages);
    }

    private static final Written NOT_APPLIED = new Written(false, false);

    /** A call on the workspace's item, paced as a page is: a throttle waits and tries again while there is time. */
    private static <T> T onWorkspace(JobPace pace, WorkspaceId workspaceId, CallTally tally, Supplier<T> call) {
        return pace.call(KeyCodec.workspacePartition(workspaceId), tally, call);
    }

    /** Whether the workspace exists and is not being purged: 1 consistent GetItem. */
    private boolean isLive(WorkspaceId workspaceId, CallTally tally) {
        return calls.get(RunJobOperation.readWorkspace(context, workspaceId), tally)
                .filter(item -> item.containsKey(Items.VERSION) && !Items.isPurging(item))
                .isPresent();
    }

    /** Whether replaced counts (UPDATED_OLD of the stats map, or of one part) said hot. */
    private static boolean wasHot(AttributeValue old) {
        return old != null
                && old.hasM()
                && old.m().get(RunJobOperation.HOT) != null
                && Boolean.TRUE.equals(old.m().get(RunJobOperation.HOT).bool());
    }

    /**
     * One call once the tenant has a stats map. Before its first part: the part's write is refused, and the map is
     * created with it. A refusal of both means the part already has this run (or the workspace is gone), unless a
     * sibling shard created the map in between, which the last try covers. DynamoDB's ALL_OLD on the first
     * refusal settles a duplicate in one call; engines without it need the other two.
     */
    private Written writeShardPart(
            JobPace pace, WorkspaceId workspaceId, int shard, RunJobOperation.StatsCount count, CallTally tally) {
        UpdateItemRequest part = RunJobOperation.writeShardStats(context, workspaceId, shard, count);
        String name = RunJobOperation.shardPart(shard);
        WriteOutcome first = onWorkspace(pace, workspaceId, tally, () -> calls.update(part, tally));
        boolean mapExisted = first.then(
                written -> true,
                refused -> refused.current()
                        .map(item -> item.containsKey(Items.STATS))
                        .orElse(false));
        if (first.written() || mapExisted) {
            return first.then(old -> new Written(true, wasHot(part(old, name))), refused -> NOT_APPLIED);
        }
        if (onWorkspace(
                        pace,
                        workspaceId,
                        tally,
                        () -> calls.update(RunJobOperation.createShardStats(context, workspaceId, shard, count), tally))
                .written()) {
            return new Written(true, false);
        }
        return onWorkspace(pace, workspaceId, tally, () -> calls.update(part, tally))
                .then(old -> new Written(true, wasHot(part(old, name))), refused -> NOT_APPLIED);
    }

    /** One part of the stats map that an UPDATED_OLD returned, or null. */
    private static AttributeValue part(Map<String, AttributeValue> old, String name) {
        AttributeValue stats = old == null ? null : old.get(Items.STATS);
        return stats == null || !stats.hasM() ? null : stats.m().get(name);
    }
}
