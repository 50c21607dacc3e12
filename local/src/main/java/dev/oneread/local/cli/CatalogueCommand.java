package dev.oneread.local.cli;

import dev.oneread.local.catalogue.Catalogue;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code catalogue}: the README's access-pattern table, or with {@code --runbook} the runbook's route list, printed
 * from the list of operations they are checked against.
 */
@Command(
        name = "catalogue",
        synopsisHeading = "usage: ",
        description = {
            "Prints the access patterns as the README's markdown table: route, function, DynamoDB calls.",
            "Paste it over the README's table after changing an operation (dev.oneread.operations); "
                    + "CatalogueTest fails while the two differ.",
            "With --runbook: the route list of docs/operations.md, under its '## Routes' heading; with --jobs: the"
                    + " README's job table."
        })
public final class CatalogueCommand implements Callable<Integer> {
    private final CommandIo io;

    @Option(names = "--runbook", description = "print the runbook's route list instead")
    private boolean runbook;

    @Option(names = "--jobs", description = "print the README's job table instead")
    private boolean jobs;

    public CatalogueCommand(CommandIo io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        (runbook ? Catalogue.runbookTable() : jobs ? Catalogue.jobsTable() : Catalogue.markdownTable())
                .forEach(io.out()::println);
        return 0;
    }
}
