package dev.oneread.local.console;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The heat of the last five minutes, one point a second per group (a tenant, or an index key, as {@link HeatFold}
 * folds them): units offered and accepted per second, throttles counted, and the hottest partition's offered and
 * accepted share of its limit. It is fed every frame the poller folds, whether or not a console is open, so a page
 * opened after a burst still draws it, and a group stays listed until its five minutes have passed, long after
 * "most accessed" (one interval) has emptied.
 *
 * <p>Bounded: {@link #SECONDS} points in a ring per group kept, and at most {@link #KEPT} groups by units offered over
 * the window, plus {@link #KEPT_THROTTLED} more among those throttled in it (a throttled tenant stays, however small).
 * A group that is not kept has no history: it enters with the second it makes the cut. Each kept group holds five
 * arrays of 300 doubles (12 KB), so the whole is at most 30 x 12 KB = 360 KB, whatever the number of tenants.
 *
 * <pre>{@code history.add(frame); Map<String, Object> drawn = history.render(10);}</pre>
 */
final class HeatHistory {
    /** Points kept per group: one a second for five minutes. */
    static final int SECONDS = 300;
    /** Groups kept by units offered over the window. */
    static final int KEPT = 20;
    /** Groups kept beyond those because they were throttled in the window. */
    static final int KEPT_THROTTLED = 10;

    private static final double PERCENT_UNKNOWN = Double.NaN;

    private record GroupKey(HeatFold.Kind kind, String index, String name) {
        static GroupKey of(HeatFold.Group g) {
            return new GroupKey(g.kind(), g.index(), g.name());
        }
    }

    /** One group's points, in the ring's slots. */
    private static final class Series {
        final double[] offered = new double[SECONDS];
        final double[] accepted = new double[SECONDS];
        final double[] throttles = new double[SECONDS];
        final double[] offeredPercent = new double[SECONDS];
        final double[] acceptedPercent = new double[SECONDS];

        /** The group's point over an interval of {@code seconds}: its throttles counted, its units as rates. */
        void set(int slot, HeatFold.Group g, double seconds) {
            offered[slot] = g == null ? 0 : g.offeredUnits();
            accepted[slot] = g == null ? 0 : g.units();
            throttles[slot] = g == null ? 0 : Math.round(g.throttlesPerSecond() * seconds);
            // A second without traffic is 0% of the limit; with traffic and no limit, unknown.
            Double o = g == null ? Double.valueOf(0) : g.hottestOfferedPercent();
            Double a = g == null ? Double.valueOf(0) : g.hottestPercent();
            offeredPercent[slot] = o == null ? PERCENT_UNKNOWN : o;
            acceptedPercent[slot] = a == null ? PERCENT_UNKNOWN : a;
        }
    }

    /** A group's standing over the window: what ranks it for keeping and for showing. */
    private record Score(GroupKey key, double offered, double throttles) {}

    private final long[] at = new long[SECONDS];
    /** Points written since start; the newest is in slot (points - 1) % SECONDS. */
    private long points;
    /** Whether the engine enforces limits (the latest frame's): points are then shares of the limit. */
    private boolean limited;

    private final Map<GroupKey, Series> series = new HashMap<>();

    /** Adds a frame's point to each group kept, and keeps the groups that now rank. */
    synchronized void add(HeatFold.Frame frame) {
        if (frame.seconds() <= 0) {
            return; // a first snapshot: no interval, no rates
        }
        int slot = (int) (points % SECONDS);
        points++;
        at[slot] = frame.at();
        limited = frame.limits() != null;
        Map<GroupKey, HeatFold.Group> now = new HashMap<>();
        frame.groups().forEach(g -> now.put(GroupKey.of(g), g));
        List<Score> scores = new ArrayList<>();
        series.forEach((key, s) -> {
            s.set(slot, now.get(key), frame.seconds());
            scores.add(new Score(key, sum(s.offered), sum(s.throttles)));
        });
        now.forEach((key, g) -> {
            if (!series.containsKey(key) && (g.offeredUnits() > 0 || g.throttlesPerSecond() > 0)) {
                scores.add(new Score(key, g.offeredUnits(), g.throttlesPerSecond() * frame.seconds()));
            }
        });
        Map<GroupKey, Series> kept = new LinkedHashMap<>();
        for (Score score : ranked(scores)) {
            Series s = series.get(score.key());
            if (s == null) {
                s = new Series();
                s.set(slot, now.get(score.key()), frame.seconds());
            }
            kept.put(score.key(), s);
        }
        series.clear();
        series.putAll(kept);
    }

    /** The top {@link #KEPT} by units offered, then up to {@link #KEPT_THROTTLED} more of the throttled. */
    private static List<Score> ranked(List<Score> scores) {
        List<Score> byOffered = scores.stream()
                .filter(s -> s.offered() > 0 || s.throttles() > 0)
                .sorted(Comparator.comparingDouble(Score::offered).reversed())
                .toList();
        List<Score> out = new ArrayList<>(byOffered.subList(0, Math.min(KEPT, byOffered.size())));
        byOffered.stream()
                .skip(KEPT)
                .filter(s -> s.throttles() > 0)
                .sorted(Comparator.comparingDouble(Score::throttles).reversed())
                .limit(KEPT_THROTTLED)
                .forEach(out::add);
        return out;
    }

    /**
     * The {@code top} groups, throttled in the window first (by throttles), then by units offered, each with its
     * points oldest first, to a tenth: offered and accepted as its hottest partition's share of the limit
     * ({@code unit} "percent"; in units a second, "units/s", when the engine enforces no limit), and the throttles
     * counted in its interval; its peak offered share of the limit and the accepted share at that second, and its
     * throttles over the window.
     */
    synchronized Map<String, Object> render(int top) {
        int n = (int) Math.min(points, SECONDS);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("seconds", SECONDS);
        out.put("points", n);
        out.put("unit", limited ? "percent" : "units/s");
        out.put("from", n == 0 ? null : at[slot(0, n)]);
        out.put("to", n == 0 ? null : at[slot(n - 1, n)]);
        List<Map<String, Object>> groups = new ArrayList<>();
        series.entrySet().stream()
                .sorted(Comparator.comparingDouble((Map.Entry<GroupKey, Series> e) -> sum(e.getValue().throttles))
                        .thenComparingDouble(e -> sum(e.getValue().offered))
                        .reversed()
                        .thenComparing(e -> e.getKey().name()))
                .limit(top)
                .forEach(e -> groups.add(group(e.getKey(), e.getValue(), n)));
        out.put("groups", groups);
        return out;
    }

    private Map<String, Object> group(GroupKey key, Series s, int n) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("kind", key.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        one.put("index", key.index());
        one.put("name", key.name());
        List<Double> offered = new ArrayList<>(n);
        List<Double> accepted = new ArrayList<>(n);
        List<Double> throttles = new ArrayList<>(n);
        int peak = -1;
        for (int i = 0; i < n; i++) {
            int slot = slot(i, n);
            offered.add(tenth(limited ? zeroIfUnknown(s.offeredPercent[slot]) : s.offered[slot]));
            accepted.add(tenth(limited ? zeroIfUnknown(s.acceptedPercent[slot]) : s.accepted[slot]));
            throttles.add(s.throttles[slot]);
            if (!Double.isNaN(s.offeredPercent[slot])
                    && (peak < 0 || s.offeredPercent[slot] > s.offeredPercent[peak])) {
                peak = slot;
            }
        }
        one.put("offered", offered);
        one.put("accepted", accepted);
        one.put("throttles", throttles);
        one.put("throttled", Math.round(sum(s.throttles)));
        one.put("peakOfferedPercent", peak < 0 ? null : tenth(s.offeredPercent[peak]));
        one.put("acceptedPercentAtPeak", peak < 0 ? null : tenth(s.acceptedPercent[peak]));
        one.put("peakAt", peak < 0 ? null : at[peak]);
        return one;
    }

    /** The ring slot of the i-th of the n newest points, oldest first. */
    private int slot(int i, int n) {
        return (int) ((points - n + i) % SECONDS);
    }

    private static double sum(double[] values) {
        double total = 0;
        for (double v : values) {
            total += v;
        }
        return total;
    }

    private static double zeroIfUnknown(double percent) {
        return Double.isNaN(percent) ? 0 : percent;
    }

    private static double tenth(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
