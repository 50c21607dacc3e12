package dev.oneread.local.cli;

import dev.oneread.local.catalogue.AccessPatterns;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code catalogue}: the README's access-pattern table, printed from the catalogue it is checked against. */
@Command(
        name = "catalogue",
        synopsisHeading = "usage: ",
        description = {
            "Prints the access patterns as the README's markdown table: route, function, DynamoDB calls.",
            "Paste it over the README's table after changing the catalogue (dev.oneread.local.catalogue); "
                    + "CatalogueTest fails while the two differ."
        })
public final class CatalogueCommand implements Callable<Integer> {
    private final CommandIo io;

    public CatalogueCommand(CommandIo io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        AccessPatterns.markdownTable().forEach(io.out()::println);
        return 0;
    }
}
