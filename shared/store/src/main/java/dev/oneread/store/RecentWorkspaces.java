package dev.oneread.store;

import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.Workspace;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Live workspaces this execution environment read lately, reused for up to {@code maxAge} by the writes that only
 * need to know the workspace is live and under its quota (CreateProject).
 *
 * <p>Why: every create reads its workspace item, and that item sits in one partition however many shards the
 * tenant's projects are spread over. A partition serves 3,000 read units a second, so 6,000 eventually consistent
 * reads of the workspace capped a 10-shard tenant's creates at 6,000 a second, below the 10,000 its shards can take
 * (bench/hot-tenant measured it, scaled). Reused for a second, the item is read about once a second per execution
 * environment instead of once per create.
 *
 * <p>What it costs: a create may act on a read up to {@code maxAge} old. The quota is counted as of the last stats
 * run anyway; and a create that saw the workspace live just before its DELETE lands within {@code maxAge} plus its
 * function's timeout of that read, which the purge's fence (62 s, against CreateProject's 10 s timeout and this
 * second) waits out before it sweeps, so nothing is left behind (see WorkspacePurge). Only live workspaces are kept:
 * a missing one is read again every time.
 */
public final class RecentWorkspaces {
    /** Enough for every tenant an environment serves at once; past it the oldest reads simply go. */
    private static final int MAX_ENTRIES = 4096;

    private final Duration maxAge;
    private final LongSupplier nanoClock;
    private final Map<WorkspaceId, Read> reads = new ConcurrentHashMap<>();

    private record Read(Workspace workspace, long startedNanos) {}

    /** @param nanoClock {@link System#nanoTime}, or a clock a test moves */
    public RecentWorkspaces(Duration maxAge, LongSupplier nanoClock) {
        if (maxAge.isNegative()) {
            throw new IllegalArgumentException("maxAge must not be negative");
        }
        this.maxAge = maxAge;
        this.nanoClock = nanoClock;
    }

    /** Nothing reused: every create reads its workspace. */
    public static RecentWorkspaces none() {
        return new RecentWorkspaces(Duration.ZERO, System::nanoTime);
    }

    /**
     * The workspace as read at most {@code maxAge} ago, else as {@code read} reads it now. The age counts from when
     * the read was sent, not answered: the workspace was live at some moment of that read, no later.
     */
    Workspace get(WorkspaceId id, Supplier<Workspace> read) {
        if (maxAge.isZero()) {
            return read.get();
        }
        long now = nanoClock.getAsLong();
        Read recent = reads.get(id);
        if (recent != null && now - recent.startedNanos() < maxAge.toNanos()) {
            return recent.workspace();
        }
        Workspace workspace = read.get();
        if (reads.size() >= MAX_ENTRIES) {
            reads.clear();
        }
        reads.put(id, new Read(workspace, now));
        return workspace;
    }
}
