package dev.oneread.store.backfill;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ShardPlan;
import dev.oneread.operations.BackfillIndexOperation;
import dev.oneread.operations.OperationContext;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.calls.JobPace;
import dev.oneread.store.internal.StoreCalls;
import dev.oneread.store.items.Items;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Gives the index keys to items written before the index existed: every workspace its registry entry, every
 * project the entry of its status. It pages through the table (a Scan: a job, never a request path), and per item
 * without keys sends one conditional UpdateItem that only adds keys still missing, for the status still there.
 * Writes that run meanwhile carry their own keys, so they win; a deleted item is not brought back. Resumable (the
 * position is in its result) and idempotent: a second run finds nothing left to do.
 *
 * <pre>{@code Progress p = backfill.run(Optional.empty(), tally, line -> log(Json.write(line)));}</pre>
 */
public final class IndexBackfill {
    static final int PAGE = 100;

    /** The position of a run that read nothing: the next starts from the beginning. */
    public static final PrimaryKey FROM_THE_START = new PrimaryKey("", "");

    private final StoreCalls calls;
    private final OperationContext context;

    private final JobPace.Share share;

    /** A backfill at the default share of each partition (see {@link JobPace.Share#DEFAULT_FRACTION}). */
    public IndexBackfill(DynamoDbClient client, String tableName, ShardPlan plan) {
        this(client, tableName, plan, JobPace.Share.of(JobPace.Share.DEFAULT_FRACTION));
    }

    /**
     * @param share the most of each partition's capacity the backfill may take (see {@link JobPace}): the Scan's
     *              pages are paced as one partition, each update on its item's partition
     */
    public IndexBackfill(DynamoDbClient client, String tableName, ShardPlan plan, JobPace.Share share) {
        this.calls = new StoreCalls(client, null);
        this.context = OperationContext.of(tableName, plan);
        this.share = share;
    }

    /** What one run did, and where the next starts (empty when the whole table has been read). */
    public record Progress(int scanned, int indexed, int skipped, Optional<PrimaryKey> resumeAfter) {
        public boolean done() {
            return resumeAfter.isEmpty();
        }
    }

    /**
     * Reads pages from {@code after} (empty: the start) until the table ends or the time is up.
     *
     * @param log receives one structured line per page, for the caller to write out
     */
    public Progress run(Optional<PrimaryKey> after, CallTally tally, Consumer<Map<String, Object>> log) {
        int scanned = 0;
        int indexed = 0;
        int skipped = 0;
        Optional<PrimaryKey> position = after.filter(p -> !p.equals(FROM_THE_START));
        JobPace pace = new JobPace(share);
        do {
            if (!pace.mayStart(JobPace.SCAN, tally)) {
                // Out of time: the next run resumes here (from the start, if not even one page was read).
                return new Progress(scanned, indexed, skipped, Optional.of(position.orElse(FROM_THE_START)));
            }
            Optional<PrimaryKey> from = position;
            ScanResponse page = pace.call(
                    JobPace.SCAN,
                    tally,
                    () -> calls.scan(BackfillIndexOperation.unindexed(context, from, PAGE), tally));
            scanned += page.scannedCount();
            for (Map<String, AttributeValue> item : page.items()) {
                String partition = Items.keyOf(item).partition();
                // A page once started is finished: its position is the page's end, not an item within it.
                pace.mayStart(partition, tally);
                Optional<Boolean> outcome = pace.call(partition, tally, () -> index(item, tally));
                if (outcome.isPresent()) {
                    if (outcome.get()) {
                        indexed++;
                    } else {
                        skipped++;
                    }
                }
            }
            position = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
                    ? Optional.of(Items.keyOf(page.lastEvaluatedKey()))
                    : Optional.empty();
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("job", "BackfillIndex");
            line.put("scanned", scanned);
            line.put("indexed", indexed);
            line.put("skipped", skipped);
            line.put("done", position.isEmpty());
            log.accept(line);
        } while (position.isPresent());
        return new Progress(scanned, indexed, skipped, Optional.empty());
    }

    /**
     * One item: empty when it does not belong in the index (an idempotency record, a tombstone, an unknown item);
     * true when it got its keys; false when a concurrent write was first (it has keys now, or is gone).
     */
    private Optional<Boolean> index(Map<String, AttributeValue> item, CallTally tally) {
        PrimaryKey key = Items.keyOf(item);
        if (!item.containsKey(Items.VERSION) || Items.isTombstone(item)) {
            return Optional.empty();
        }
        if (KeyCodec.workspaceSortKey().equals(key.sort())) {
            return Optional.of(calls.update(BackfillIndexOperation.indexWorkspace(context, key), tally)
                    .written());
        }
        if (key.sort().startsWith(KeyCodec.projectSortKeyPrefix()) && item.get(Items.STATUS) != null) {
            return Optional.of(calls.update(
                            BackfillIndexOperation.indexProject(
                                    context, key, item.get(Items.STATUS).s()),
                            tally)
                    .written());
        }
        return Optional.empty();
    }
}
