package dev.oneread.store.calls;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads a fan-out's queries run on at once, each a call of the sync client: a hot tenant's shards, or the
 * index's. It replaced the async client on the CRT HTTP client, whose native library for every platform made each
 * list function's zip 33 MB: the sync URLConnection client on plain threads is as parallel for a page of at most
 * 99 queries, and ships nothing native. Threads start on first use and stop after a minute idle, so a function
 * that never fans out starts none.
 *
 * <pre>{@code ControlPlaneStore store = new ControlPlaneStore(client, QueryPool.shared(), table, plan);}</pre>
 */
public final class QueryPool {
    /** Enough threads for every shard of the largest plan at once (the codec's 99). */
    public static final int MAX_FAN_OUT = 100;

    private final ThreadPoolExecutor executor;

    private QueryPool(int threads) {
        AtomicInteger count = new AtomicInteger();
        this.executor =
                new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
                    Thread thread = new Thread(task, "fan-out-" + count.incrementAndGet());
                    thread.setDaemon(true); // never keeps a JVM (the runner, a test) alive
                    return thread;
                });
        this.executor.allowCoreThreadTimeOut(true);
    }

    /** A pool of its own (tests, tools). */
    public static QueryPool create() {
        return new QueryPool(MAX_FAN_OUT);
    }

    /** The pool of this execution environment. */
    public static QueryPool shared() {
        return Holder.POOL;
    }

    public Executor executor() {
        return executor;
    }

    private static final class Holder {
        static final QueryPool POOL = create();
    }
}
