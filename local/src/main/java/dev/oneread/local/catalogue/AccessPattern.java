package dev.oneread.local.catalogue;

import dev.oneread.expr.KeyCondition.SortOperator;
import dev.oneread.http.CostBudget;
import java.util.Set;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbRequest;

/**
 * One access pattern, declared once in {@link AccessPatterns}: its route and function, the request the store builds
 * for it, the keys it reads or writes, and what it may cost. The README's table, the {@code expr} subcommands, the
 * console's builder and the budgets are all taken from it, and tests hold openapi.yaml and template.yaml to it. Its
 * cost budget is its route's, declared in {@link CostBudget} (shared, since each function logs against it).
 *
 * @param name what {@code expr} and the console call it ({@code list-projects})
 * @param function the template's logical id of its function ({@code ListProjects})
 * @param operators whether only operators may call it (the route requires the {@code oneread/admin} scope alone)
 * @param calls its DynamoDB calls, in words, as the README's table gives them
 * @param inputs what a sample of it needs besides the table (and so which flags {@code expr} gives it)
 * @param tools where the local runner offers it
 * @param request the store's own pure request builder, applied to sample inputs
 * @param key the keys it reads or writes, for the same sample
 */
public record AccessPattern(
        String name,
        Route route,
        String function,
        boolean operators,
        String calls,
        Set<Input> inputs,
        Set<Tool> tools,
        Function<Sample, DynamoDbRequest> request,
        Function<Sample, KeyRange> key) {

    /** What a sample request of a pattern is built from, besides the table. */
    public enum Input {
        WORKSPACE,
        PROJECT,
        STATUS,
        /** One shard of the cross-workspace index (of {@code IndexShards}). */
        INDEX_SHARD
    }

    /** Where the local runner offers a pattern. */
    public enum Tool {
        /** An {@code expr} subcommand that prints the request. */
        EXPR,
        /** A choice of the console's expression builder, which prints and runs its Query. */
        CONSOLE
    }

    /**
     * An HTTP API route.
     *
     * @param query how the README shows its query parameters ({@code ?status=}), or empty
     */
    public record Route(String method, String path, String query) {
        /** {@code GET /projects?status=}, as the README and {@code expr} name a route. */
        @Override
        public String toString() {
            return method + " " + path + query;
        }

        /** The route key API Gateway sends in the event, {@code GET /projects}: no query. */
        public String key() {
            return method + " " + path;
        }
    }

    /**
     * The keys a pattern addresses: a partition (of the table, or of the index the request names) and a condition
     * on the sort key, or none. For a GetItem or a write it is the one item's key.
     *
     * @param high BETWEEN's upper bound, or null
     * @param descending whether the pattern reads newest first
     */
    public record KeyRange(String partition, SortOperator operator, String value, String high, boolean descending) {}

    /** The folder of its function under {@code functions/}: the logical id in kebab case. */
    public String directory() {
        return function.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
    }

    /** What it may cost: its route's budget. */
    public CostBudget budget() {
        return CostBudget.ofRoute(route.key())
                .orElseThrow(() -> new IllegalStateException("no cost budget for " + route.key()));
    }

    /** The request the store sends for {@code sample}. */
    public DynamoDbRequest request(Sample sample) {
        return request.apply(sample);
    }

    /** The keys it addresses for {@code sample}. */
    public KeyRange key(Sample sample) {
        return key.apply(sample);
    }
}
