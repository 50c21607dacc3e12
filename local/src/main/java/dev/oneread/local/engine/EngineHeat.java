package dev.oneread.local.engine;

import com.fasterxml.jackson.jr.ob.JSON;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the local engine's heat ({@code GET /_oneread/heat}): every partition key value touched since the engine
 * started, with its cumulative consumed units, admitted requests and throttles by reason. Counters only grow: a
 * reader that polls diffs two snapshots for rates.
 *
 * <pre>{@code EngineHeat.Snapshot heat = EngineHeat.read(engine.endpoint());}</pre>
 */
public final class EngineHeat {
    /** Where the engine serves its heat, on its own port. */
    public static final String PATH = "/_oneread/heat";

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private EngineHeat() {}

    /** One snapshot: the scale, when it was taken, the per-partition limits after scale (null when off). */
    public record Snapshot(double scale, long at, Limits limits, List<Partition> partitions, List<Table> tables) {
        public Snapshot {
            partitions = List.copyOf(partitions);
            tables = List.copyOf(tables);
        }

        /** The partitions of one table (index null) or one of its indexes. */
        public List<Partition> partitionsOf(String table, String index) {
            return partitions.stream()
                    .filter(p -> p.table().equals(table) && java.util.Objects.equals(p.index(), index))
                    .toList();
        }

        /** One partition key value of a table (index null) or an index, if it was touched. */
        public java.util.Optional<Partition> partition(String table, String index, String key) {
            return partitionsOf(table, index).stream()
                    .filter(p -> p.key().equals(key))
                    .findFirst();
        }
    }

    /** Read and write units per second one partition serves at the engine's scale. */
    public record Limits(double read, double write) {}

    /**
     * A partition key value of a table ({@code index} null) or of an index, and its cumulative counters: the units
     * consumed, and the units offered (consumed, plus what each throttled request would have consumed).
     */
    public record Partition(
            String table,
            String index,
            String key,
            double consumedRead,
            double consumedWrite,
            double offeredRead,
            double offeredWrite,
            long requestsRead,
            long requestsWrite,
            Map<String, Long> throttled) {
        public Partition {
            throttled = Map.copyOf(throttled);
        }

        public long throttledTotal() {
            return throttled.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** A table's own throttles (its OnDemandThroughput caps), by reason. */
    public record Table(String table, Map<String, Long> throttled) {
        public Table {
            throttled = Map.copyOf(throttled);
        }
    }

    public static Snapshot read(URI endpoint) {
        return readPath(endpoint, PATH);
    }

    /**
     * The partitions of {@code table} and its indexes only: what a reader of one table asks for every second, at a
     * cost that grows with that table's partitions, not with every table the engine has served.
     */
    public static Snapshot read(URI endpoint, String table) {
        return readPath(
                endpoint,
                PATH + "?table=" + java.net.URLEncoder.encode(table, java.nio.charset.StandardCharsets.UTF_8));
    }

    private static Snapshot readPath(URI endpoint, String path) {
        try {
            HttpURLConnection connection =
                    (HttpURLConnection) endpoint.resolve(path).toURL().openConnection();
            connection.setConnectTimeout((int) TIMEOUT.toMillis());
            connection.setReadTimeout((int) TIMEOUT.toMillis());
            int status = connection.getResponseCode();
            if (status != HttpURLConnection.HTTP_OK) {
                throw new IllegalStateException("the engine at " + endpoint + " answered " + status + " for " + PATH
                        + " (is it oneread's local engine?)");
            }
            try (InputStream in = connection.getInputStream()) {
                return parse(JSON.std.mapFrom(in));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the engine's heat at " + endpoint, e);
        }
    }

    static Snapshot parse(Map<String, Object> json) {
        Map<String, Object> limits = map(json.get("limits"));
        List<Partition> partitions = new ArrayList<>();
        for (Object o : list(json.get("partitions"))) {
            Map<String, Object> p = map(o);
            Map<String, Object> consumed = map(p.get("consumed"));
            Map<String, Object> requests = map(p.get("requests"));
            Map<String, Object> offered = map(p.get("offered"));
            partitions.add(new Partition(
                    (String) p.get("table"),
                    (String) p.get("index"),
                    (String) p.get("key"),
                    number(consumed.get("read")),
                    number(consumed.get("write")),
                    number(offered.get("read")),
                    number(offered.get("write")),
                    (long) number(requests.get("read")),
                    (long) number(requests.get("write")),
                    counts(p.get("throttled"))));
        }
        List<Table> tables = new ArrayList<>();
        for (Object o : list(json.get("tables"))) {
            Map<String, Object> t = map(o);
            tables.add(new Table((String) t.get("table"), counts(t.get("throttled"))));
        }
        return new Snapshot(
                number(json.get("scale")),
                (long) number(json.get("at")),
                limits.isEmpty() ? null : new Limits(number(limits.get("read")), number(limits.get("write"))),
                partitions,
                tables);
    }

    private static Map<String, Long> counts(Object value) {
        Map<String, Long> out = new LinkedHashMap<>();
        map(value).forEach((k, v) -> out.put(k, (long) number(v)));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private static List<?> list(Object value) {
        return value instanceof List<?> l ? l : List.of();
    }

    private static double number(Object value) {
        return value instanceof Number n ? n.doubleValue() : 0;
    }
}
