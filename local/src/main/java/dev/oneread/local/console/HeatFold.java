package dev.oneread.local.console;

import dev.oneread.keys.KeyCodec;
import dev.oneread.local.engine.EngineHeat;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The console's heat, from two of the engine's cumulative snapshots: each partition key value's consumed units,
 * requests and throttles per second over the interval between them, against the per-partition limit, folded by
 * tenant as the key codec reads the key (a hot tenant's {@code WS#acme#01..#NN} under {@code acme}, an index key's
 * shards {@code STATUS#ACTIVE#01..#NN} under {@code STATUS#ACTIVE}). Contributor Insights for DynamoDB ranks keys
 * the same way (most accessed, most throttled), per minute and per key; this is per second and per tenant.
 *
 * <p>Pure: no I/O, so the diffing and the folding are tested on snapshots built by hand.
 *
 * <pre>{@code HeatFold.Frame frame = HeatFold.fold(previous, current, "oneread");}</pre>
 */
public final class HeatFold {
    private static final double MILLIS_PER_SECOND = 1_000.0;
    private static final double PERCENT = 100.0;

    private HeatFold() {}

    /** How a group was read from its partition keys. */
    public enum Kind {
        /** A workspace's partition and its shards, decoded by the key codec. */
        TENANT,
        /** The partitions of one key an index spreads over its shards (a status, the workspace registry). */
        INDEX_KEY,
        /** A key the codec does not read as either: shown as it is, on its own. */
        OTHER
    }

    /**
     * One partition key value over the interval: units consumed (accepted) and offered (accepted plus what its
     * throttled requests would have consumed), requests and throttles per second, and the share of its limit each
     * is: offered above 100% is a key asked for more than one partition serves, accepted stays near 100% or below.
     */
    public record PartitionHeat(
            String index,
            String key,
            int shard,
            double readUnits,
            double writeUnits,
            double offeredReadUnits,
            double offeredWriteUnits,
            double requests,
            Map<String, Double> throttles,
            Map<String, Long> throttledTotal,
            Double readPercent,
            Double writePercent,
            Double offeredReadPercent,
            Double offeredWritePercent) {
        public PartitionHeat {
            throttles = Map.copyOf(throttles);
            throttledTotal = Map.copyOf(throttledTotal);
        }

        public double throttlesPerSecond() {
            return sum(throttles);
        }

        public long throttledSinceStart() {
            return throttledTotal.values().stream().mapToLong(Long::longValue).sum();
        }

        /** The larger of the two shares of its limit (null when the engine enforces none). */
        Double hottestPercent() {
            return readPercent == null ? null : Math.max(readPercent, writePercent);
        }

        /** The larger of the two offered shares of its limit (null when the engine enforces none). */
        Double hottestOfferedPercent() {
            return offeredReadPercent == null ? null : Math.max(offeredReadPercent, offeredWritePercent);
        }
    }

    /**
     * A tenant (or an index key) with its partitions: its totals per second, its throttles per second and since the
     * engine started by reason, and its hottest partition's share of the limit, read and write apart (the limit is
     * per partition: a tenant of ten shards can consume ten partitions' worth and still be at 100% in none).
     */
    public record Group(
            Kind kind,
            String index,
            String name,
            List<PartitionHeat> partitions,
            double readUnits,
            double writeUnits,
            double offeredReadUnits,
            double offeredWriteUnits,
            double requests,
            Map<String, Double> throttles,
            Map<String, Long> throttledTotal,
            Double hottestReadPercent,
            Double hottestWritePercent,
            Double hottestOfferedReadPercent,
            Double hottestOfferedWritePercent) {
        public Group {
            partitions = List.copyOf(partitions);
            throttles = Map.copyOf(throttles);
            throttledTotal = Map.copyOf(throttledTotal);
        }

        public double units() {
            return readUnits + writeUnits;
        }

        public double offeredUnits() {
            return offeredReadUnits + offeredWriteUnits;
        }

        /** Its hottest partition's larger offered share of the limit, read or write (null when none is enforced). */
        public Double hottestOfferedPercent() {
            return hottestOfferedReadPercent == null
                    ? null
                    : Math.max(hottestOfferedReadPercent, hottestOfferedWritePercent);
        }

        /** Its hottest partition's larger accepted share of the limit, read or write (null when none is enforced). */
        public Double hottestPercent() {
            return hottestReadPercent == null ? null : Math.max(hottestReadPercent, hottestWritePercent);
        }

        public double throttlesPerSecond() {
            return sum(throttles);
        }

        public long throttledSinceStart() {
            return throttledTotal.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /**
     * One interval: when it ended, how long it was ({@code seconds} 0 for the first snapshot, whose rates are all
     * 0), the limits, every group (unordered) and the table's own throttles (its OnDemandThroughput caps).
     */
    public record Frame(
            long at,
            double seconds,
            double scale,
            EngineHeat.Limits limits,
            List<Group> groups,
            Map<String, Double> tableThrottles,
            Map<String, Long> tableThrottledTotal) {
        public Frame {
            groups = List.copyOf(groups);
            tableThrottles = Map.copyOf(tableThrottles);
            tableThrottledTotal = Map.copyOf(tableThrottledTotal);
        }

        /**
         * The {@code top} groups that consumed the most units per second, read and write together (as Contributor
         * Insights ranks its most accessed items, by consumed capacity), then the most offered: a key refused whole
         * is listed too.
         */
        public List<Group> mostAccessed(int top) {
            return groups.stream()
                    .filter(g -> g.units() > 0 || g.offeredUnits() > 0)
                    .sorted(Comparator.comparingDouble(Group::units)
                            .thenComparingDouble(Group::offeredUnits)
                            .reversed()
                            .thenComparing(Group::name))
                    .limit(top)
                    .toList();
        }

        /**
         * The {@code top} groups throttled the most per second, then since the engine started: a tenant throttled
         * a minute ago stays listed, below those throttled now.
         */
        public List<Group> mostThrottled(int top) {
            return groups.stream()
                    .filter(g -> g.throttledSinceStart() > 0)
                    .sorted(Comparator.comparingDouble(Group::throttlesPerSecond)
                            .thenComparingLong(Group::throttledSinceStart)
                            .reversed()
                            .thenComparing(Group::name))
                    .limit(top)
                    .toList();
        }
    }

    /**
     * The rates of {@code table}'s partitions (and its indexes') between {@code previous} (null: none yet) and
     * {@code current}. A partition absent from {@code previous}, or whose counters went down (the engine
     * restarted), counts from zero.
     */
    public static Frame fold(EngineHeat.Snapshot previous, EngineHeat.Snapshot current, String table) {
        double seconds = previous == null ? 0 : Math.max(0, (current.at() - previous.at()) / MILLIS_PER_SECOND);
        Map<String, EngineHeat.Partition> before = new java.util.HashMap<>();
        if (previous != null) {
            previous.partitions().stream().filter(p -> p.table().equals(table)).forEach(p -> before.put(id(p), p));
        }
        Map<GroupKey, List<PartitionHeat>> grouped = new LinkedHashMap<>();
        for (EngineHeat.Partition now : current.partitions()) {
            if (!now.table().equals(table)) {
                continue;
            }
            EngineHeat.Partition then = before.get(id(now));
            if (then != null && restarted(then, now)) {
                then = null;
            }
            Place place = place(now.index(), now.key());
            grouped.computeIfAbsent(place.group(), k -> new ArrayList<>())
                    .add(rate(then, now, place.shard(), seconds, current.limits()));
        }
        List<Group> groups = new ArrayList<>();
        grouped.forEach((key, partitions) -> groups.add(group(key, partitions)));
        Map<String, Long> tableNow = tableCounts(current, table);
        Map<String, Long> tableThen = previous == null ? tableNow : tableCounts(previous, table);
        return new Frame(
                current.at(),
                seconds,
                current.scale(),
                current.limits(),
                groups,
                perSecond(tableThen, tableNow, seconds),
                tableNow);
    }

    /** The group a partition folds into, and its shard there (0: the unsharded partition, or not a shard). */
    private record Place(GroupKey group, int shard) {}

    private record GroupKey(Kind kind, String index, String name) {}

    /** Read by the key codec only: a key it cannot read stays a group of its own, named by the key as it is. */
    private static Place place(String index, String key) {
        if (index == null) {
            try {
                KeyCodec.PartitionRef ref = KeyCodec.decodePartition(key);
                return new Place(
                        new GroupKey(Kind.TENANT, null, ref.workspaceId().value()), ref.shard());
            } catch (IllegalArgumentException e) {
                return new Place(new GroupKey(Kind.OTHER, null, key), 0);
            }
        }
        try {
            KeyCodec.IndexPartitionRef ref = KeyCodec.decodeIndexPartition(key);
            return new Place(new GroupKey(Kind.INDEX_KEY, index, ref.key()), ref.shard());
        } catch (IllegalArgumentException e) {
            return new Place(new GroupKey(Kind.OTHER, index, key), 0);
        }
    }

    private static PartitionHeat rate(
            EngineHeat.Partition then, EngineHeat.Partition now, int shard, double seconds, EngineHeat.Limits limits) {
        double read = perSecond(then == null ? 0 : then.consumedRead(), now.consumedRead(), seconds);
        double write = perSecond(then == null ? 0 : then.consumedWrite(), now.consumedWrite(), seconds);
        double offeredRead = perSecond(then == null ? 0 : then.offeredRead(), now.offeredRead(), seconds);
        double offeredWrite = perSecond(then == null ? 0 : then.offeredWrite(), now.offeredWrite(), seconds);
        double requests = perSecond(
                then == null ? 0 : then.requestsRead() + then.requestsWrite(),
                now.requestsRead() + now.requestsWrite(),
                seconds);
        return new PartitionHeat(
                now.index(),
                now.key(),
                shard,
                read,
                write,
                offeredRead,
                offeredWrite,
                requests,
                perSecond(then == null ? Map.of() : then.throttled(), now.throttled(), seconds),
                now.throttled(),
                limits == null ? null : PERCENT * read / limits.read(),
                limits == null ? null : PERCENT * write / limits.write(),
                limits == null ? null : PERCENT * offeredRead / limits.read(),
                limits == null ? null : PERCENT * offeredWrite / limits.write());
    }

    private static Group group(GroupKey key, List<PartitionHeat> partitions) {
        double read = 0;
        double write = 0;
        double offeredRead = 0;
        double offeredWrite = 0;
        double requests = 0;
        Double hottestRead = null;
        Double hottestWrite = null;
        Double hottestOfferedRead = null;
        Double hottestOfferedWrite = null;
        Map<String, Double> throttles = new TreeMap<>();
        Map<String, Long> total = new TreeMap<>();
        for (PartitionHeat p : partitions) {
            read += p.readUnits();
            write += p.writeUnits();
            offeredRead += p.offeredReadUnits();
            offeredWrite += p.offeredWriteUnits();
            requests += p.requests();
            p.throttles().forEach((reason, n) -> throttles.merge(reason, n, Double::sum));
            p.throttledTotal().forEach((reason, n) -> total.merge(reason, n, Long::sum));
            if (p.readPercent() != null) {
                hottestRead = hottestRead == null ? p.readPercent() : Math.max(hottestRead, p.readPercent());
                hottestWrite = hottestWrite == null ? p.writePercent() : Math.max(hottestWrite, p.writePercent());
                hottestOfferedRead = max(hottestOfferedRead, p.offeredReadPercent());
                hottestOfferedWrite = max(hottestOfferedWrite, p.offeredWritePercent());
            }
        }
        return new Group(
                key.kind(),
                key.index(),
                key.name(),
                partitions,
                read,
                write,
                offeredRead,
                offeredWrite,
                requests,
                throttles,
                total,
                hottestRead,
                hottestWrite,
                hottestOfferedRead,
                hottestOfferedWrite);
    }

    private static Double max(Double a, double b) {
        return a == null ? b : Math.max(a, b);
    }

    private static String id(EngineHeat.Partition p) {
        return p.table() + '\u0000' + Objects.requireNonNullElse(p.index(), "") + '\u0000' + p.key();
    }

    private static boolean restarted(EngineHeat.Partition then, EngineHeat.Partition now) {
        return now.consumedRead() < then.consumedRead()
                || now.consumedWrite() < then.consumedWrite()
                || now.offeredRead() < then.offeredRead()
                || now.offeredWrite() < then.offeredWrite()
                || now.requestsRead() < then.requestsRead()
                || now.requestsWrite() < then.requestsWrite()
                || now.throttledTotal() < then.throttledTotal();
    }

    private static Map<String, Long> tableCounts(EngineHeat.Snapshot snapshot, String table) {
        return snapshot.tables().stream()
                .filter(t -> t.table().equals(table))
                .findFirst()
                .map(EngineHeat.Table::throttled)
                .orElse(Map.of());
    }

    private static double perSecond(double then, double now, double seconds) {
        return seconds <= 0 ? 0 : Math.max(0, now - then) / seconds;
    }

    private static Map<String, Double> perSecond(Map<String, Long> then, Map<String, Long> now, double seconds) {
        Map<String, Double> out = new TreeMap<>();
        now.forEach((reason, n) -> out.put(reason, perSecond(then.getOrDefault(reason, 0L), n, seconds)));
        return out;
    }

    private static double sum(Map<String, Double> counts) {
        return counts.values().stream().mapToDouble(Double::doubleValue).sum();
    }
}
