package dev.oneread.local.console;

import dev.oneread.local.engine.EngineHeat;
import dev.oneread.model.HotPartition;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.stats.HotTenantReport;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The console's heat, live: once a second, one read of the engine's heat ({@link EngineHeat}, one HTTP call whatever
 * the load), folded by {@link HeatFold}, added to the last five minutes ({@link HeatHistory}) and, while at least one
 * console is open, pushed to every console as a {@code heat} event on the console's one event stream. The engine is
 * read whether or not a console is open, so that a page opened after a burst still draws it. Nothing runs per API
 * request: the work of a tick grows with the partitions the engine has seen, not with the request rate, and what a
 * tick sends is bounded (the top {@link #TOP} groups, each with its {@link #PARTITIONS_SHOWN} hottest partitions,
 * and the history of {@link #TOP} groups).
 *
 * <p>The hot-tenant report's recommendations come from the report's own store call ({@link HotTenantReport}, the
 * one get-hot-tenant-report makes): one Query of its partition every {@link #REPORT_EVERY}, only while watched, so
 * the console adds at most 0.05 read units per second (an eventually consistent read every 10 s) to a table under
 * load. The stats job writes the report hours apart; ten seconds late is on time.
 */
final class HeatPoller implements AutoCloseable {
    static final Duration TICK = Duration.ofSeconds(1);
    static final Duration REPORT_EVERY = Duration.ofSeconds(10);
    /** Groups per list (most accessed, most throttled) in each event; the endpoint's {@code top} is at most this. */
    static final int TOP = 10;
    /** A group's partitions listed under it, hottest first: a tenant may have 99 shards. */
    static final int PARTITIONS_SHOWN = 10;
    /** Report entries read per refresh: one Query page; a report longer than this shows its first entries only. */
    private static final int REPORT_ENTRIES = 100;
    /** After the engine failed to answer (not oneread's engine, or gone), ask again this much later. */
    private static final Duration RETRY_AFTER_FAILURE = Duration.ofSeconds(10);

    private final URI engine;
    private final String table;
    private final ConsoleEvents events;
    private final HotTenantReport report;
    private final PrintStream out;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "console-heat");
        thread.setDaemon(true);
        return thread;
    });

    // Written by the timer's one thread only; read by the endpoint's threads.
    private EngineHeat.Snapshot previous;
    private static final Map<String, Object> UNAVAILABLE =
            Map.of("available", false, "reason", "the engine serves no heat (is it oneread's engine?)");
    private volatile Map<String, Object> latest = Map.of("available", false, "reason", "no reading yet");
    private volatile HeatFold.Frame frame;
    private final HeatHistory history = new HeatHistory();
    private Map<String, Recommendation> recommendations = Map.of();
    private long reportReadNanos;
    private long engineRetryNanos;
    private boolean reportFailed;
    private boolean engineFailed;

    /** The report's advice for one tenant: its largest recommendation over its reported partitions. */
    record Recommendation(int currentShards, int recommendedShards, String asOf) {}

    HeatPoller(URI engine, String table, HotTenantReport report, ConsoleEvents events, PrintStream out) {
        this.engine = engine;
        this.table = table;
        this.report = report;
        this.events = events;
        this.out = out;
    }

    void start() {
        timer.scheduleWithFixedDelay(this::tick, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The latest view, {@code top} groups per list (the stream sends {@link #TOP}). */
    Map<String, Object> view(int top) {
        HeatFold.Frame f = frame;
        return f == null ? latest : render(f, top, recommendationsNow(), history);
    }

    private synchronized Map<String, Recommendation> recommendationsNow() {
        return recommendations;
    }

    private void tick() {
        try {
            long now = System.nanoTime();
            if (engineRetryNanos != 0 && now < engineRetryNanos) {
                return;
            }
            EngineHeat.Snapshot current;
            try {
                current = EngineHeat.read(engine, table);
            } catch (RuntimeException e) {
                // Not oneread's engine (an endpoint override), or gone: say so once, and ask again later.
                if (!engineFailed) {
                    out.println("console: heat: " + e.getMessage());
                }
                engineFailed = true;
                engineRetryNanos = now + RETRY_AFTER_FAILURE.toNanos();
                previous = null;
                frame = null;
                latest = UNAVAILABLE;
                if (events.watched()) {
                    events.publish("heat", latest);
                }
                return;
            }
            engineFailed = false;
            engineRetryNanos = 0;
            HeatFold.Frame folded = HeatFold.fold(previous, current, table);
            previous = current;
            frame = folded;
            history.add(folded);
            // The report is a Query of the table: made only while someone reads its advice.
            if (events.watched()) {
                refreshReport(now);
                events.publish("heat", render(folded, TOP, recommendationsNow(), history));
            }
        } catch (RuntimeException e) {
            // The timer stops for good on an exception: log it and keep ticking.
            out.println("console: heat: " + e);
        }
    }

    private void refreshReport(long now) {
        if (reportReadNanos != 0 && now - reportReadNanos < REPORT_EVERY.toNanos()) {
            return;
        }
        reportReadNanos = now;
        try {
            Map<String, Recommendation> read = new HashMap<>();
            for (HotPartition entry : report.page(REPORT_ENTRIES, Optional.empty(), new CallTally())
                    .items()) {
                read.merge(
                        entry.workspaceId().value(),
                        new Recommendation(
                                entry.currentShards(),
                                entry.recommendedShards(),
                                entry.asOf().toString()),
                        (a, b) -> a.recommendedShards() >= b.recommendedShards() ? a : b);
            }
            synchronized (this) {
                recommendations = Map.copyOf(read);
            }
            reportFailed = false;
        } catch (RuntimeException e) {
            // Throttled, or the table is gone: keep the last advice, say it once.
            if (!reportFailed) {
                out.println("console: heat: cannot read the hot-tenant report: " + e.getMessage());
            }
            reportFailed = true;
        }
    }

    /** The frame as the page draws it: numbers rounded to a tenth, the lists cut to {@code top}. */
    static Map<String, Object> render(
            HeatFold.Frame frame, int top, Map<String, Recommendation> advice, HeatHistory history) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("available", true);
        out.put("at", frame.at());
        out.put("seconds", tenth(frame.seconds()));
        out.put("scale", frame.scale());
        out.put(
                "limits",
                frame.limits() == null
                        ? null
                        : Map.of(
                                "read",
                                frame.limits().read(),
                                "write",
                                frame.limits().write()));
        out.put("groups", frame.groups().size());
        out.put(
                "partitions",
                frame.groups().stream().mapToInt(g -> g.partitions().size()).sum());
        out.put("tableThrottles", tenths(frame.tableThrottles()));
        out.put("tableThrottledTotal", frame.tableThrottledTotal());
        out.put("mostAccessed", groups(frame.mostAccessed(top), advice));
        out.put("mostThrottled", groups(frame.mostThrottled(top), advice));
        out.put("history", history.render(top));
        return out;
    }

    private static List<Map<String, Object>> groups(List<HeatFold.Group> groups, Map<String, Recommendation> advice) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (HeatFold.Group g : groups) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("kind", g.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
            one.put("index", g.index());
            one.put("name", g.name());
            one.put("partitionCount", g.partitions().size());
            one.put("readUnits", tenth(g.readUnits()));
            one.put("writeUnits", tenth(g.writeUnits()));
            one.put("offeredReadUnits", tenth(g.offeredReadUnits()));
            one.put("offeredWriteUnits", tenth(g.offeredWriteUnits()));
            one.put("requests", tenth(g.requests()));
            one.put("throttles", tenths(g.throttles()));
            one.put("throttledTotal", g.throttledTotal());
            one.put("hottestReadPercent", tenth(g.hottestReadPercent()));
            one.put("hottestWritePercent", tenth(g.hottestWritePercent()));
            one.put("hottestOfferedReadPercent", tenth(g.hottestOfferedReadPercent()));
            one.put("hottestOfferedWritePercent", tenth(g.hottestOfferedWritePercent()));
            Recommendation r = g.kind() == HeatFold.Kind.TENANT ? advice.get(g.name()) : null;
            one.put(
                    "recommendation",
                    r == null
                            ? null
                            : Map.of(
                                    "currentShards", r.currentShards(),
                                    "recommendedShards", r.recommendedShards(),
                                    "asOf", r.asOf()));
            one.put("partitions", partitions(g.partitions()));
            out.add(one);
        }
        return out;
    }

    /** The hottest partitions first: throttled now, then the most units, then throttled before. */
    private static List<Map<String, Object>> partitions(List<HeatFold.PartitionHeat> partitions) {
        List<Map<String, Object>> out = new ArrayList<>();
        partitions.stream()
                .sorted(Comparator.comparingDouble(HeatFold.PartitionHeat::throttlesPerSecond)
                        .thenComparingDouble(p -> p.readUnits() + p.writeUnits())
                        .thenComparingLong(HeatFold.PartitionHeat::throttledSinceStart)
                        .reversed()
                        .thenComparing(HeatFold.PartitionHeat::key))
                .limit(PARTITIONS_SHOWN)
                .forEach(p -> {
                    Map<String, Object> one = new LinkedHashMap<>();
                    one.put("key", p.key());
                    one.put("shard", p.shard());
                    one.put("readUnits", tenth(p.readUnits()));
                    one.put("writeUnits", tenth(p.writeUnits()));
                    one.put("offeredReadUnits", tenth(p.offeredReadUnits()));
                    one.put("offeredWriteUnits", tenth(p.offeredWriteUnits()));
                    one.put("requests", tenth(p.requests()));
                    one.put("readPercent", tenth(p.readPercent()));
                    one.put("writePercent", tenth(p.writePercent()));
                    one.put("offeredReadPercent", tenth(p.offeredReadPercent()));
                    one.put("offeredWritePercent", tenth(p.offeredWritePercent()));
                    one.put("throttles", tenths(p.throttles()));
                    one.put("throttledTotal", p.throttledTotal());
                    out.add(one);
                });
        return out;
    }

    private static Double tenth(Double value) {
        return value == null ? null : Math.round(value * 10) / 10.0;
    }

    private static Map<String, Double> tenths(Map<String, Double> values) {
        Map<String, Double> out = new java.util.TreeMap<>();
        values.forEach((k, v) -> out.put(k, tenth(v)));
        return out;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
