package dev.oneread.local.catalogue;

import dev.oneread.operations.Descriptor;
import dev.oneread.operations.Input;
import dev.oneread.operations.JobDescriptor;
import dev.oneread.operations.Operation;
import dev.oneread.operations.Operations;
import dev.oneread.operations.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * What the local runner shows of the list of operations ({@link Operations#all()}): which tool offers which, and the
 * README's and runbook's tables, generated from it (tests hold the two documents to these tables).
 *
 * <pre>{@code Catalogue.offeredIn(Catalogue.Tool.EXPR)  // list-projects, workspace-collection, by-status, workspaces}</pre>
 */
public final class Catalogue {
    /** The heading the runbook's route list sits under, in docs/operations.md. */
    public static final String RUNBOOK_HEADING = "## Routes";

    private Catalogue() {}

    /** Where the local runner offers an operation. */
    public enum Tool {
        /**
         * An {@code expr} subcommand that prints the request: the reads that send a Query of keys the flags name (a
         * workspace, a status, an index shard).
         */
        EXPR,
        /**
         * A choice of the console's expression builder, which prints and runs its Query: the reads of one
         * workspace's partition (a GetItem runs as the Query of its one key).
         */
        CONSOLE;

        boolean offers(Operation operation) {
            Descriptor descriptor = operation.descriptor();
            boolean read = descriptor.route().method().equals("GET");
            return switch (this) {
                case EXPR ->
                    read
                            && !descriptor.inputs().isEmpty()
                            && operation.sampleRequest(Sample.of("oneread")) instanceof QueryRequest;
                case CONSOLE -> read && descriptor.inputs().contains(Input.WORKSPACE);
            };
        }
    }

    /** The operations {@code tool} offers, in the list's order. */
    public static List<Operation> offeredIn(Tool tool) {
        return Operations.all().stream().filter(tool::offers).toList();
    }

    /** The README's access-pattern table, as markdown lines: a test holds the README to it. */
    public static List<String> markdownTable() {
        List<String> lines = new ArrayList<>(List.of("| route | function | DynamoDB calls |", "|---|---|---|"));
        Operations.all().stream()
                .map(Operation::descriptor)
                .forEach(d -> lines.add("| `" + d.route() + "`" + (d.operators() ? " (operators)" : "") + " | `"
                        + d.directory() + "` | " + d.calls() + " |"));
        return lines;
    }

    /**
     * The README's job table, as markdown lines: a test holds the README to it. Its operation column names the class
     * that builds the job's requests, and the route operations whose requests it sends unchanged.
     */
    public static List<String> jobsTable() {
        List<String> lines = new ArrayList<>(
                List.of("| job | function | operation | started by | what it does |", "|---|---|---|---|---|"));
        Operations.jobs().forEach(job -> {
            JobDescriptor d = job.descriptor();
            String reads = d.reads().stream()
                    .map(read -> "`" + read.getClass().getSimpleName() + "`")
                    .collect(Collectors.joining(", "));
            lines.add("| " + d.name() + " | `" + d.directory() + "` | `"
                    + job.getClass().getSimpleName() + "`"
                    + (reads.isEmpty() ? "" : " (reads with " + reads + ")") + " | " + d.startedBy() + " | "
                    + d.does() + " |");
        });
        return lines;
    }

    /**
     * The runbook's route list (docs/operations.md, under {@link #RUNBOOK_HEADING}), as markdown lines: each route,
     * its function (whose log lines, metrics and alarms carry its name), its operation class, its keys and its
     * budget.
     */
    public static List<String> runbookTable() {
        List<String> lines =
                new ArrayList<>(List.of("| route | function | operation | keys | budget |", "|---|---|---|---|---|"));
        Operations.all().forEach(operation -> {
            Descriptor d = operation.descriptor();
            lines.add("| `" + d.route().key() + "`" + (d.operators() ? " (operators)" : "") + " | `" + d.function()
                    + "` | `" + operation.getClass().getSimpleName() + "` | " + d.keyCondition() + " | "
                    + d.budget().description() + " |");
        });
        return lines;
    }
}
