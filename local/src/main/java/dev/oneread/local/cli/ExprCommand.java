package dev.oneread.local.cli;

import dev.oneread.expr.KeyCondition;
import dev.oneread.expr.KeyCondition.SortOperator;
import dev.oneread.keys.IndexPlan;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.catalogue.Catalogue;
import dev.oneread.local.expr.RequestPrinter;
import dev.oneread.local.expr.TypedQuery;
import dev.oneread.model.ProjectStatus;
import dev.oneread.operations.Input;
import dev.oneread.operations.Operation;
import dev.oneread.operations.Sample;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.IGetter;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

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

    /*
     * expr runs no engine and cannot know which one the user means, so by default it prints for the deployed
     * table (the CLI's and SDK's own configuration); the flag names a local engine.
     */
    @Option(
            names = "--endpoint-url",
            paramLabel = "URL",
            scope = CommandLine.ScopeType.INHERIT,
            description = "print for a local engine at URL (e.g. http://127.0.0.1:8000) instead of the deployed table")
    private URI endpoint;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "missing subcommand");
    }

    /**
     * Adds a subcommand for each access pattern the catalogue offers in {@code expr}, in its order, with the flags
     * of the inputs it takes, and its line of the usage. Picocli's annotations want constants, so the catalogue's
     * subcommands are added here.
     */
    public static void addPatterns(CommandLine expr, CommandLine.IFactory factory, CommandIo io) {
        List<String> synopsis =
                new ArrayList<>(List.of(expr.getCommandSpec().usageMessage().customSynopsis()));
        for (Operation pattern : Catalogue.offeredIn(Catalogue.Tool.EXPR)) {
            boolean index = pattern.descriptor().inputs().contains(Input.INDEX_SHARD);
            synopsis.add("       expr " + pattern.descriptor().name()
                    + (pattern.descriptor().inputs().contains(Input.STATUS) ? " --status STATUS" : "")
                    + (pattern.descriptor().inputs().contains(Input.WORKSPACE) ? " --workspace ID" : "")
                    + (index ? " [--shard N] [--index-shards N]" : "")
                    + " [--limit N] [--table NAME]");
            Object command = pattern.descriptor().inputs().contains(Input.STATUS)
                    ? new StatusPattern(io, pattern)
                    : index ? new IndexPattern(io, pattern) : new WorkspacePattern(io, pattern);
            CommandLine subcommand = new CommandLine(command, factory);
            subcommand
                    .getCommandSpec()
                    .usageMessage()
                    .description(
                            index
                                    ? "One of the queries "
                                            + pattern.descriptor().route() + " sends: one per index shard, all at once."
                                    : "The request " + pattern.descriptor().function() + " sends.");
            expr.addSubcommand(pattern.descriptor().name(), subcommand);
        }
        expr.getCommandSpec().usageMessage().customSynopsis(synopsis.toArray(String[]::new));
    }

    /** Prints the request the store sends for {@code pattern} (a Query: {@code expr} offers only those). */
    static int print(CommandIo io, Operation pattern, Sample sample, CommandSpec spec) {
        return print(io, (QueryRequest) pattern.sampleRequest(sample), spec);
    }

    /** Prints the three renderings of {@code request} and returns the exit code. */
    static int print(CommandIo io, QueryRequest request, CommandSpec spec) {
        CommandSpec expr = spec;
        while (!(expr.userObject() instanceof ExprCommand)) {
            expr = expr.parent(); // the option is inherited: its value is on expr's own field
        }
        Optional<URI> engine = Optional.ofNullable(((ExprCommand) expr.userObject()).endpoint);
        RequestPrinter.expressionLines(request).forEach(io.out()::println);
        io.out().println();
        RequestPrinter.javaSnippet(request, engine).forEach(io.out()::println);
        io.out().println();
        RequestPrinter.awsCli(request, engine).forEach(io.out()::println);
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

    /** The page size and table every named access pattern takes, after its own options. */
    static final class PageOptions {
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

    /** The options of the workspace patterns: which workspace, then the page's. */
    static final class PatternOptions {
        @Option(
                names = "--workspace",
                required = true,
                paramLabel = "ID",
                converter = Converters.Workspace.class,
                description = "the workspace")
        WorkspaceId workspace;

        @Mixin
        PageOptions page;
    }

    @Command(
            name = "query",
            sortOptions = false,
            synopsisHeading = "usage: ",
            description = "A key condition from flags.",
            modelTransformer = Query.SortFlags.class)
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

        /** Set by the one {@link SortFlag} given, if any. */
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

        /**
         * A sort key flag of {@code expr query}, one for each operator, in the order the usage lists them. The
         * seven differ only in these words, so this table declares them and {@link SortFlags} adds them.
         */
        enum SortFlag {
            EQ("--sk-eq", "NAME=VALUE", "sort key = VALUE", SortOperator.EQ),
            LT("--sk-lt", "NAME=VALUE", "sort key < VALUE", SortOperator.LT),
            LE("--sk-le", "NAME=VALUE", "sort key <= VALUE", SortOperator.LE),
            GT("--sk-gt", "NAME=VALUE", "sort key > VALUE", SortOperator.GT),
            GE("--sk-ge", "NAME=VALUE", "sort key >= VALUE", SortOperator.GE),
            BEGINS_WITH("--sk-begins-with", "NAME=PREFIX", "begins_with(sort key, PREFIX)", SortOperator.BEGINS_WITH),
            // two values, NAME=LOW and HIGH: the label names both, so picocli's own repeat syntax is hidden
            BETWEEN("--sk-between", "NAME=LOW HIGH", "sort key BETWEEN LOW AND HIGH", SortOperator.BETWEEN);

            private final String flag;
            private final String paramLabel;
            private final String description;
            private final SortOperator operator;

            SortFlag(String flag, String paramLabel, String description, SortOperator operator) {
                this.flag = flag;
                this.paramLabel = paramLabel;
                this.description = description;
                this.operator = operator;
            }

            /** The option, whose value the setter records on {@code query} as its one sort key condition. */
            OptionSpec option(Query query) {
                SortBinding binding = new SortBinding(query, operator);
                OptionSpec.Builder option = OptionSpec.builder(flag)
                        .paramLabel(paramLabel)
                        .description(description)
                        .order(ordinal() + 1)
                        .hasInitialValue(false)
                        .getter(binding)
                        .setter(binding);
                return operator == SortOperator.BETWEEN
                        ? option.type(String[].class)
                                .arity("2")
                                .hideParamSyntax(true)
                                .build()
                        : option.type(NameValue.class)
                                .converters(new NameValue.Converter())
                                .build();
            }
        }

        /**
         * Adds the {@link SortFlag}s as one exclusive group, at most one of them, where an {@code @ArgGroup} of
         * seven annotated methods would repeat the same declaration seven times.
         */
        static final class SortFlags implements CommandLine.IModelTransformer {
            @Override
            public CommandSpec transform(CommandSpec spec) {
                ArgGroupSpec.Builder group = ArgGroupSpec.builder()
                        .exclusive(true)
                        .multiplicity("0..1")
                        .heading("at most one sort key condition:%n");
                for (SortFlag flag : SortFlag.values()) {
                    group.addArg(flag.option((Query) spec.userObject()));
                }
                return spec.addArgGroup(group.build());
            }
        }

        /**
         * Binds a sort flag to the query's one condition. The getter gives picocli the value so far, as an annotated
         * method's binding does: a repeated {@code --sk-between} adds its values to the first two, which count.
         */
        private record SortBinding(Query query, SortOperator operator) implements IGetter, ISetter {
            @Override
            @SuppressWarnings("unchecked")
            public <T> T get() {
                return query.sort == null || query.sort.operator() != operator ? null : (T) query.sort.value();
            }

            @Override
            public <T> T set(T value) {
                T previous = get();
                query.sort = new Sort(operator, value);
                return previous;
            }
        }

        /** The one sort key condition: its operator, and the flag's value (BETWEEN's is NAME=LOW and HIGH). */
        record Sort(SortOperator operator, Object value) {
            /** @throws IllegalArgumentException for a BETWEEN whose low bound is not NAME=LOW */
            KeyCondition applyTo(KeyCondition condition) {
                if (value instanceof String[] lowAndHigh) {
                    NameValue low = NameValue.parse(lowAndHigh[0]);
                    return condition.sort(operator, low.name(), low.value(), lowAndHigh[1]);
                }
                NameValue key = (NameValue) value;
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
                request = TypedQuery.of(table, condition, descending, limit);
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            return print(io, request, spec);
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

        @Mixin
        PageOptions page;

        /** The sample these flags give: this many index shards, and this shard's query among them. */
        Sample sample(CommandSpec spec) {
            if (shard > shards) {
                throw new ParameterException(spec.commandLine(), "--shard must be 1.." + shards);
            }
            return Sample.of(page.table)
                    .withPlan(ShardPlan.none().withIndex(IndexPlan.of(shards)))
                    .withShard(shard)
                    .withLimit(page.limit);
        }

        /** Prints this shard's query of {@code pattern}, among the one per shard its page sends. */
        int print(CommandIo io, Operation pattern, Sample sample, CommandSpec spec) {
            io.out()
                    .println("# shard " + shard + " of " + shards
                            + ": the page sends one such query per shard, at once, and merges them "
                            + (pattern.keys(sample).descending() ? "newest first" : "in id order"));
            return ExprCommand.print(io, pattern, sample, spec);
        }
    }

    /** What each pattern's subcommand holds: where it prints, the pattern, and its own spec (for its usage errors). */
    abstract static class PatternCommand implements Callable<Integer> {
        final CommandIo io;
        final Operation pattern;

        @Spec
        CommandSpec spec;

        PatternCommand(CommandIo io, Operation pattern) {
            this.io = io;
            this.pattern = pattern;
        }
    }

    /** {@code expr <pattern> --workspace ID}: a pattern of one workspace's items. */
    @Command(sortOptions = false, synopsisHeading = "usage: ")
    static final class WorkspacePattern extends PatternCommand {
        @Mixin
        private PatternOptions options;

        WorkspacePattern(CommandIo io, Operation pattern) {
            super(io, pattern);
        }

        @Override
        public Integer call() {
            return print(
                    io,
                    pattern,
                    Sample.of(options.page.table)
                            .withWorkspace(options.workspace)
                            .withLimit(options.page.limit),
                    spec);
        }
    }

    /** {@code expr <pattern> [--shard N]}: one of the queries a pattern of the cross-workspace index sends. */
    @Command(sortOptions = false, synopsisHeading = "usage: ")
    static final class IndexPattern extends PatternCommand {
        @Mixin
        private IndexOptions options;

        IndexPattern(CommandIo io, Operation pattern) {
            super(io, pattern);
        }

        @Override
        public Integer call() {
            return options.print(io, pattern, options.sample(spec), spec);
        }
    }

    /** An index pattern of one project status: {@code --status} comes first, as the route's own parameter. */
    @Command(sortOptions = false, synopsisHeading = "usage: ")
    static final class StatusPattern extends PatternCommand {
        @Option(names = "--status", required = true, paramLabel = "STATUS", description = "ACTIVE, PAUSED or ARCHIVED")
        private ProjectStatus status;

        @Mixin
        private IndexOptions options;

        StatusPattern(CommandIo io, Operation pattern) {
            super(io, pattern);
        }

        @Override
        public Integer call() {
            return options.print(io, pattern, options.sample(spec).withStatus(status), spec);
        }
    }
}
