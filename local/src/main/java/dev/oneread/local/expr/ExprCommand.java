package dev.oneread.local.expr;

import dev.oneread.expr.Expression;
import dev.oneread.expr.KeyCondition;
import dev.oneread.expr.KeyCondition.SortOperator;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.cli.CommandIo;
import dev.oneread.local.cli.Converters;
import dev.oneread.store.ControlPlaneRequests;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * {@code expr}: the expression builder as a command. {@code expr query} builds a key condition from flags;
 * {@code expr list-projects} and {@code expr workspace-collection} print the request the store really
 * sends, taken from {@link ControlPlaneRequests}, so the two can never drift.
 */
@Command(
        name = "expr",
        synopsisHeading = "usage: ",
        customSynopsis = {
            "expr query --pk NAME=VALUE [SORT] [--desc] [--table NAME] [--limit N]",
            "         SORT is one of:",
            "           --sk-eq NAME=VALUE   --sk-lt NAME=VALUE   --sk-le NAME=VALUE",
            "           --sk-gt NAME=VALUE   --sk-ge NAME=VALUE",
            "           --sk-begins-with NAME=PREFIX   --sk-between NAME=LOW HIGH",
            "       expr list-projects --workspace ID [--limit N] [--table NAME]",
            "       expr workspace-collection --workspace ID [--limit N] [--table NAME]",
            "       expr by-status --status STATUS [--shard N] [--index-shards N] [--limit N] [--table NAME]",
            "       expr workspaces [--shard N] [--index-shards N] [--limit N] [--table NAME]"
        },
        description = {
            "Prints a DynamoDB Query three ways.",
            "The expression with its maps, an AWS SDK for Java v2 snippet, and the aws dynamodb query command "
                    + "line. The named access patterns print the request the store itself builds."
        },
        subcommands = {
            ExprCommand.Query.class,
            ExprCommand.ListProjects.class,
            ExprCommand.WorkspaceCollection.class,
            ExprCommand.ByStatus.class,
            ExprCommand.Workspaces.class
        })
public final class ExprCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "missing subcommand");
    }

    /**
     * The Query for a key condition, as {@code expr query} prints it and the console's builder shows and runs it.
     *
     * @throws IllegalArgumentException or IllegalStateException for a condition the builder refuses
     */
    public static QueryRequest query(String table, KeyCondition condition, boolean descending, Integer limit) {
        Expression expression = condition.build();
        QueryRequest.Builder builder = QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression(expression.expression())
                .expressionAttributeNames(expression.names())
                .expressionAttributeValues(expression.valuesOrNull())
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL);
        if (descending) {
            builder.scanIndexForward(false);
        }
        if (limit != null) {
            builder.limit(limit);
        }
        return builder.build();
    }

    /** Prints the three renderings of {@code request} and returns the exit code. */
    static int print(CommandIo io, QueryRequest request) {
        RequestPrinter.expressionLines(request).forEach(io.out()::println);
        io.out().println();
        RequestPrinter.javaSnippet(request).forEach(io.out()::println);
        io.out().println();
        RequestPrinter.awsCli(request).forEach(io.out()::println);
        return 0;
    }

    /** {@code NAME=VALUE}, as the key condition flags take it. */
    record NameValue(String name, String value) {
        static NameValue parse(String argument) {
            int eq = argument.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("expected NAME=VALUE, got " + argument);
            }
            return new NameValue(argument.substring(0, eq), argument.substring(eq + 1));
        }

        static final class Converter implements ITypeConverter<NameValue> {
            @Override
            public NameValue convert(String argument) {
                try {
                    return parse(argument);
                } catch (IllegalArgumentException e) {
                    throw new TypeConversionException(e.getMessage());
                }
            }
        }
    }

    /** The options every named access pattern takes. */
    static final class PatternOptions {
        @Option(
                names = "--workspace",
                required = true,
                paramLabel = "ID",
                converter = Converters.Workspace.class,
                description = "the workspace")
        WorkspaceId workspace;

        @Option(
                names = "--limit",
                paramLabel = "N",
                defaultValue = "20",
                converter = Converters.Positive.class,
                description = "the page size (default: ${DEFAULT-VALUE})")
        int limit;

        @Option(
                names = "--table",
                paramLabel = "NAME",
                defaultValue = "oneread",
                description = "the table name (default: ${DEFAULT-VALUE})")
        String table;
    }

    @Command(
            name = "query",
            sortOptions = false,
            synopsisHeading = "usage: ",
            description = "A key condition from flags.")
    static final class Query implements Callable<Integer> {
        private final CommandIo io;

        @Spec
        private CommandSpec spec;

        @Option(
                names = "--pk",
                required = true,
                paramLabel = "NAME=VALUE",
                converter = NameValue.Converter.class,
                description = "the partition key: attribute name and value")
        private NameValue partition;

        @ArgGroup(exclusive = true, multiplicity = "0..1", heading = "at most one sort key condition:%n")
        private Sort sort;

        @Option(names = "--desc", description = "newest first (ScanIndexForward false)")
        private boolean descending;

        @Option(
                names = "--table",
                paramLabel = "NAME",
                defaultValue = "oneread",
                description = "the table name (default: ${DEFAULT-VALUE})")
        private String table;

        @Option(
                names = "--limit",
                paramLabel = "N",
                converter = Converters.Positive.class,
                description = "the most items one call reads (Limit)")
        private Integer limit;

        Query(CommandIo io) {
            this.io = io;
        }

        /** The one sort key condition; each flag records its operator (and BETWEEN its upper bound). */
        static final class Sort {
            private SortOperator operator;
            private NameValue key;
            private String[] between;

            @Option(
                    names = "--sk-eq",
                    paramLabel = "NAME=VALUE",
                    converter = NameValue.Converter.class,
                    order = 1,
                    description = "sort key = VALUE")
            void equalTo(NameValue value) {
                set(SortOperator.EQ, value);
            }

            @Option(
                    names = "--sk-lt",
                    paramLabel = "NAME=VALUE",
                    converter = NameValue.Converter.class,
                    order = 2,
                    description = "sort key < VALUE")
            void lessThan(NameValue value) {
                set(SortOperator.LT, value);
            }

            @Option(
                    names = "--sk-le",
                    paramLabel = "NAME=VALUE",
                    converter = NameValue.Converter.class,
                    order = 3,
                    description = "sort key <= VALUE")
            void lessThanOrEqualTo(NameValue value) {
                set(SortOperator.LE, value);
            }

            @Option(
                    names = "--sk-gt",
                    paramLabel = "NAME=VALUE",
                    converter = NameValue.Converter.class,
                    order = 4,
                    description = "sort key > VALUE")
            void greaterThan(NameValue value) {
                set(SortOperator.GT, value);
            }

            @Option(
                    names = "--sk-ge",
                    paramLabel = "NAME=VALUE",
                    converter = NameValue.Converter.class,
                    order = 5,
                    description = "sort key >= VALUE")
            void greaterThanOrEqualTo(NameValue value) {
                set(SortOperator.GE, value);
            }

            @Option(
                    names = "--sk-begins-with",
                    paramLabel = "NAME=PREFIX",
                    converter = NameValue.Converter.class,
                    order = 6,
                    description = "begins_with(sort key, PREFIX)")
            void beginsWith(NameValue value) {
                set(SortOperator.BEGINS_WITH, value);
            }

            @Option(
                    names = "--sk-between",
                    arity = "2",
                    paramLabel = "NAME=LOW HIGH",
                    hideParamSyntax = true,
                    order = 7,
                    description = "sort key BETWEEN LOW AND HIGH")
            void between(String[] lowAndHigh) {
                operator = SortOperator.BETWEEN;
                between = lowAndHigh;
            }

            private void set(SortOperator operator, NameValue key) {
                this.operator = operator;
                this.key = key;
            }

            /** @throws IllegalArgumentException for a BETWEEN whose low bound is not NAME=LOW */
            KeyCondition applyTo(KeyCondition condition) {
                if (operator == SortOperator.BETWEEN) {
                    NameValue low = NameValue.parse(between[0]);
                    return condition.sort(operator, low.name(), low.value(), between[1]);
                }
                return condition.sort(operator, key.name(), key.value(), null);
            }
        }

        @Override
        public Integer call() {
            QueryRequest request;
            try {
                KeyCondition condition = KeyCondition.partitionEquals(partition.name(), partition.value());
                if (sort != null) {
                    condition = sort.applyTo(condition);
                }
                request = query(table, condition, descending, limit);
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            return print(io, request);
        }
    }

    @Command(
            name = "list-projects",
            sortOptions = false,
            synopsisHeading = "usage: ",
            description = "The request ListProjects sends.")
    static final class ListProjects implements Callable<Integer> {
        private final CommandIo io;

        @Mixin
        private PatternOptions options;

        ListProjects(CommandIo io) {
            this.io = io;
        }

        @Override
        public Integer call() {
            return print(
                    io,
                    new ControlPlaneRequests(options.table)
                            .listProjects(options.workspace, options.limit, Optional.empty()));
        }
    }

    @Command(
            name = "workspace-collection",
            sortOptions = false,
            synopsisHeading = "usage: ",
            description = "The request GetWorkspaceCollection sends.")
    static final class WorkspaceCollection implements Callable<Integer> {
        private final CommandIo io;

        @Mixin
        private PatternOptions options;

        WorkspaceCollection(CommandIo io) {
            this.io = io;
        }

        @Override
        public Integer call() {
            return print(
                    io,
                    new ControlPlaneRequests(options.table)
                            .workspaceCollection(options.workspace, options.limit, Optional.empty()));
        }
    }

    /** The options of the index patterns: which shard's query, of how many, and the page size. */
    static final class IndexOptions {
        @Option(
                names = "--shard",
                paramLabel = "N",
                defaultValue = "1",
                converter = Converters.Positive.class,
                description = "which index shard's query to print (default: ${DEFAULT-VALUE})")
        int shard;

        @Option(
                names = "--index-shards",
                paramLabel = "N",
                defaultValue = "8",
                converter = Converters.Positive.class,
                description = "the template's IndexShards (default: ${DEFAULT-VALUE})")
        int shards;

        @Option(
                names = "--limit",
                paramLabel = "N",
                defaultValue = "20",
                converter = Converters.Positive.class,
                description = "the page size (default: ${DEFAULT-VALUE})")
        int limit;

        @Option(
                names = "--table",
                paramLabel = "NAME",
                defaultValue = "oneread",
                description = "the table name (default: ${DEFAULT-VALUE})")
        String table;

        /** The store's requests with this many index shards, and the shard's place among them. */
        ControlPlaneRequests requests(CommandSpec spec) {
            if (shard > shards) {
                throw new ParameterException(spec.commandLine(), "--shard must be 1.." + shards);
            }
            return new ControlPlaneRequests(
                    table, dev.oneread.keys.ShardPlan.none().withIndex(dev.oneread.keys.IndexPlan.of(shards)));
        }

        dev.oneread.keys.IndexPlan plan() {
            return dev.oneread.keys.IndexPlan.of(shards);
        }

        /** Prints the query of this shard, among {@code partitions} (one per shard), as the store builds it. */
        int print(
                CommandIo io,
                CommandSpec spec,
                dev.oneread.keys.ListPartitions partitions,
                String order,
                java.util.function.BiFunction<ControlPlaneRequests, String, QueryRequest> query) {
            ControlPlaneRequests requests = requests(spec);
            io.out()
                    .println("# shard " + shard + " of " + shards
                            + ": the page sends one such query per shard, at once, and merges them " + order);
            return ExprCommand.print(io, query.apply(requests, partitions.get(shard - 1)));
        }
    }

    @Command(
            name = "by-status",
            sortOptions = false,
            synopsisHeading = "usage: ",
            description = "One of the queries GET /projects?status= sends: one per index shard, all at once.")
    static final class ByStatus implements Callable<Integer> {
        private final CommandIo io;

        @Spec
        private CommandSpec spec;

        @Option(names = "--status", required = true, paramLabel = "STATUS", description = "ACTIVE, PAUSED or ARCHIVED")
        private dev.oneread.model.ProjectStatus status;

        @Mixin
        private IndexOptions options;

        ByStatus(CommandIo io) {
            this.io = io;
        }

        @Override
        public Integer call() {
            return options.print(
                    io,
                    spec,
                    options.plan().statusPartitions(status.name()),
                    "newest first",
                    (requests, partition) -> requests.projectsByStatusIn(partition, options.limit, Optional.empty()));
        }
    }

    @Command(
            name = "workspaces",
            sortOptions = false,
            synopsisHeading = "usage: ",
            description = "One of the queries GET /workspaces sends: one per index shard, all at once.")
    static final class Workspaces implements Callable<Integer> {
        private final CommandIo io;

        @Spec
        private CommandSpec spec;

        @Mixin
        private IndexOptions options;

        Workspaces(CommandIo io) {
            this.io = io;
        }

        @Override
        public Integer call() {
            return options.print(
                    io,
                    spec,
                    options.plan().registryPartitions(),
                    "in id order",
                    (requests, partition) -> requests.workspacesIn(partition, options.limit, Optional.empty()));
        }
    }
}
