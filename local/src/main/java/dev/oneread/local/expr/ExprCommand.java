package dev.oneread.local.expr;

import dev.oneread.expr.Expression;
import dev.oneread.expr.KeyCondition;
import dev.oneread.expr.KeyCondition.SortOperator;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.store.ControlPlaneRequests;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * {@code expr}: the expression builder as a command. {@code expr query} builds a key condition from flags;
 * {@code expr list-projects} and {@code expr workspace-collection} print the request the store really
 * sends, taken from {@link ControlPlaneRequests}, so the two can never drift.
 */
public final class ExprCommand {
    /** The command line it accepts. */
    public static final String USAGE = """
            usage: expr query --pk NAME=VALUE [SORT] [--desc] [--table NAME] [--limit N]
                     SORT is one of:
                       --sk-eq NAME=VALUE   --sk-lt NAME=VALUE   --sk-le NAME=VALUE
                       --sk-gt NAME=VALUE   --sk-ge NAME=VALUE   --sk-begins-with NAME=PREFIX
                       --sk-between NAME=LOW HIGH
                   expr list-projects --workspace ID [--limit N] [--table NAME]
                   expr workspace-collection --workspace ID [--limit N] [--table NAME]""";
    private static final Map<String, SortOperator> SORT_FLAGS = Map.of(
            "--sk-eq", SortOperator.EQ, "--sk-lt", SortOperator.LT, "--sk-le", SortOperator.LE,
            "--sk-gt", SortOperator.GT, "--sk-ge", SortOperator.GE, "--sk-begins-with", SortOperator.BEGINS_WITH,
            "--sk-between", SortOperator.BETWEEN);

    private ExprCommand() {
    }

    /** Runs the command; returns the exit code (0, or 2 for bad arguments). */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        QueryRequest request;
        try {
            request = parse(args);
        } catch (BadArguments | IllegalArgumentException | IllegalStateException e) {
            err.println("expr: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        RequestPrinter.expressionLines(request).forEach(out::println);
        out.println();
        RequestPrinter.javaSnippet(request).forEach(out::println);
        out.println();
        RequestPrinter.awsCli(request).forEach(out::println);
        return 0;
    }

    static QueryRequest parse(List<String> args) {
        if (args.isEmpty()) {
            throw new BadArguments("missing subcommand");
        }
        String command = args.get(0);
        Flags flags = new Flags(args.subList(1, args.size()));
        String table = flags.value("--table").orElse("oneread");
        Optional<Integer> limit = flags.value("--limit").map(ExprCommand::positive);
        QueryRequest request = switch (command) {
            case "query" -> query(flags, table, limit);
            case "list-projects" -> new ControlPlaneRequests(table).listProjects(workspace(flags), limit.orElse(20),
                    Optional.empty());
            case "workspace-collection" -> new ControlPlaneRequests(table).workspaceCollection(workspace(flags),
                    limit.orElse(20), Optional.empty());
            default -> throw new BadArguments("unknown subcommand " + command);
        };
        flags.requireAllUsed();
        return request;
    }

    private static QueryRequest query(Flags flags, String table, Optional<Integer> limit) {
        String[] pk = nameValue(flags.value("--pk").orElseThrow(() -> new BadArguments("--pk NAME=VALUE is required")));
        KeyCondition condition = KeyCondition.partitionEquals(pk[0], pk[1]);
        for (Map.Entry<String, SortOperator> flag : SORT_FLAGS.entrySet()) {
            Optional<String> given = flags.value(flag.getKey());
            if (given.isPresent()) {
                String[] sk = nameValue(given.get());
                String high = flag.getValue() == SortOperator.BETWEEN
                        ? flags.extra(flag.getKey()).orElseThrow(() -> new BadArguments("--sk-between NAME=LOW HIGH"))
                        : null;
                condition = condition.sort(flag.getValue(), sk[0], sk[1], high);
            }
        }
        Expression expression = condition.build();
        QueryRequest.Builder builder = QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression(expression.expression())
                .expressionAttributeNames(expression.names())
                .expressionAttributeValues(expression.valuesOrNull())
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL);
        if (flags.flag("--desc")) {
            builder.scanIndexForward(false);
        }
        limit.ifPresent(builder::limit);
        return builder.build();
    }

    private static WorkspaceId workspace(Flags flags) {
        return WorkspaceId.of(flags.value("--workspace").orElseThrow(() -> new BadArguments("--workspace ID is required")));
    }

    private static String[] nameValue(String argument) {
        int eq = argument.indexOf('=');
        if (eq < 1) {
            throw new BadArguments("expected NAME=VALUE, got " + argument);
        }
        return new String[] {argument.substring(0, eq), argument.substring(eq + 1)};
    }

    private static int positive(String value) {
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new BadArguments("--limit takes a positive integer");
    }

    /** {@code --name value}, {@code --name value extra} (for BETWEEN) and bare {@code --flag} arguments. */
    private static final class Flags {
        private final List<String> args;
        private final boolean[] used;

        Flags(List<String> args) {
            this.args = new ArrayList<>(args);
            this.used = new boolean[args.size()];
        }

        Optional<String> value(String name) {
            int i = args.indexOf(name);
            if (i < 0) {
                return Optional.empty();
            }
            if (args.lastIndexOf(name) != i) {
                throw new BadArguments(name + " given twice");
            }
            if (i + 1 >= args.size() || args.get(i + 1).startsWith("--")) {
                throw new BadArguments(name + " needs a value");
            }
            used[i] = true;
            used[i + 1] = true;
            return Optional.of(args.get(i + 1));
        }

        Optional<String> extra(String name) {
            int i = args.indexOf(name) + 2;
            if (i >= args.size() || args.get(i).startsWith("--")) {
                return Optional.empty();
            }
            used[i] = true;
            return Optional.of(args.get(i));
        }

        boolean flag(String name) {
            int i = args.indexOf(name);
            if (i >= 0) {
                used[i] = true;
            }
            return i >= 0;
        }

        void requireAllUsed() {
            for (int i = 0; i < args.size(); i++) {
                if (!used[i]) {
                    throw new BadArguments("unexpected argument " + args.get(i));
                }
            }
        }
    }

    /** The command line is not one this command accepts. */
    static final class BadArguments extends RuntimeException {
        BadArguments(String message) {
            super(message, null, false, false);
        }
    }
}
