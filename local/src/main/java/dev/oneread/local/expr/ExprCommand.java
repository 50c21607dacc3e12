package dev.oneread.local.expr;

import dev.oneread.expr.Expression;
import dev.oneread.expr.KeyCondition;
import dev.oneread.expr.KeyCondition.SortOperator;
import dev.oneread.keys.IndexPlan;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.catalogue.AccessPattern;
import dev.oneread.local.catalogue.AccessPatterns;
import dev.oneread.local.catalogue.Sample;
import dev.oneread.local.cli.CommandIo;
import dev.oneread.local.cli.Converters;
import dev.oneread.model.ProjectStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
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
 * {@code expr}: the expression builder as a command. {@code expr query} builds a key condition from flags; a
 * subcommand per access pattern the catalogue offers here ({@code expr list-projects}, {@code expr by-status}, ...)
 * prints the request the store really sends, built by the pattern's own request builder, so the two can never drift.
 */
@Command(
        name = "expr",
        synopsisHeading = "usage: ",
        customSynopsis = {
            "expr query --pk NAME=VALUE [SORT] [--desc] [--table NAME] [--limit N]",
            "         SORT is one of:",
            "           --sk-eq NAME=VALUE   --sk-lt NAME=VALUE   --sk-le NAME=VALUE",
            "           --sk-gt NAME=VALUE   --sk-ge NAME=VALUE",
            "           --sk-begins-with NAME=PREFIX   --sk-between NAME=LOW HIGH"
            // then a line per access pattern: addPatterns
        },
        description = {
            "Prints a DynamoDB Query three ways.",
            "The expression with its maps, an AWS SDK for Java v2 snippet, and the aws dynamodb query command "
                    + "line. The named access patterns print the request the store itself builds."
        },
        subcommands = {ExprCommand.Query.class})
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

    /**
     * Adds a subcommand for each access pattern the catalogue offers in {@code expr}, in its order, with the flags
     * of the inputs it takes, and its line of the usage. Picocli's annotations want constants, so the catalogue's
     * subcommands are added here.
     */
    public static void addPatterns(CommandLine expr, CommandLine.IFactory factory, CommandIo io) {
        List<String> synopsis =
                new ArrayList<>(List.of(expr.getCommandSpec().usageMessage().customSynopsis()));
        for (AccessPattern pattern : AccessPatterns.offeredIn(AccessPattern.Tool.EXPR)) {
            boolean index = pattern.inputs().contains(AccessPattern.Input.INDEX_SHARD);
            synopsis.add("       expr " + pattern.name()
                    + (pattern.inputs().contains(AccessPattern.Input.STATUS) ? " --status STATUS" : "")
                    + (pattern.inputs().contains(AccessPattern.Input.WORKSPACE) ? " --workspace ID" : "")
                    + (index ? " [--shard N] [--index-shards N]" : "")
                    + " [--limit N] [--table NAME]");
            Object command = pattern.inputs().contains(AccessPattern.Input.STATUS)
                    ? new StatusPattern(io, pattern)
                    : index ? new IndexPattern(io, pattern) : new WorkspacePattern(io, pattern);
            CommandLine subcommand = new CommandLine(command, factory);
            subcommand
                    .getCommandSpec()
                    .usageMessage()
                    .description(
                            index
                                    ? "One of the queries " + pattern.route()
                                            + " sends: one per index shard, all at once."
                                    : "The request " + pattern.function() + " sends.");
            expr.addSubcommand(pattern.name(), subcommand);
        }
        expr.getCommandSpec().usageMessage().customSynopsis(synopsis.toArray(String[]::new));
    }

    /** Prints the request the store sends for {@code pattern} (a Query: {@code expr} offers only those). */
    static int print(CommandIo io, AccessPattern pattern, Sample sample) {
        return print(io, (QueryRequest) pattern.request(sample));
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

        /** The sample these flags give: this many index shards, and this shard's query among them. */
        Sample sample(CommandSpec spec) {
            if (shard > shards) {
                throw new ParameterException(spec.commandLine(), "--shard must be 1.." + shards);
            }
            return Sample.of(table)
                    .withPlan(ShardPlan.none().withIndex(IndexPlan.of(shards)))
                    .withShard(shard)
                    .withLimit(limit);
        }

        /** Prints this shard's query of {@code pattern}, among the one per shard its page sends. */
        int print(CommandIo io, AccessPattern pattern, Sample sample) {
            io.out()
                    .println("# shard " + shard + " of " + shards
                            + ": the page sends one such query per shard, at once, and merges them "
                            + (pattern.key(sample).descending() ? "newest first" : "in id order"));
            return ExprCommand.print(io, pattern, sample);
        }
    }

    /** {@code expr <pattern> --workspace ID}: a pattern of one workspace's items. */
    @Command(sortOptions = false, synopsisHeading = "usage: ")
    static final class WorkspacePattern implements Callable<Integer> {
        private final CommandIo io;
        private final AccessPattern pattern;

        @Mixin
        private PatternOptions options;

        WorkspacePattern(CommandIo io, AccessPattern pattern) {
            this.io = io;
            this.pattern = pattern;
        }

        @Override
        public Integer call() {
            return print(
                    io,
                    pattern,
                    Sample.of(options.table).withWorkspace(options.workspace).withLimit(options.limit));
        }
    }

    /** {@code expr <pattern> [--shard N]}: one of the queries a pattern of the cross-workspace index sends. */
    @Command(sortOptions = false, synopsisHeading = "usage: ")
    static final class IndexPattern implements Callable<Integer> {
        private final CommandIo io;
        private final AccessPattern pattern;

        @Spec
        private CommandSpec spec;

        @Mixin
        private IndexOptions options;

        IndexPattern(CommandIo io, AccessPattern pattern) {
            this.io = io;
            this.pattern = pattern;
        }

        @Override
        public Integer call() {
            return options.print(io, pattern, options.sample(spec));
        }
    }

    /** An index pattern of one project status: {@code --status} comes first, as the route's own parameter. */
    @Command(sortOptions = false, synopsisHeading = "usage: ")
    static final class StatusPattern implements Callable<Integer> {
        private final CommandIo io;
        private final AccessPattern pattern;

        @Spec
        private CommandSpec spec;

        @Option(names = "--status", required = true, paramLabel = "STATUS", description = "ACTIVE, PAUSED or ARCHIVED")
        private ProjectStatus status;

        @Mixin
        private IndexOptions options;

        StatusPattern(CommandIo io, AccessPattern pattern) {
            this.io = io;
            this.pattern = pattern;
        }

        @Override
        public Integer call() {
            return options.print(io, pattern, options.sample(spec).withStatus(status));
        }
    }
}
