package dev.oneread.local.cli;

import dev.oneread.local.ProjectRoot;
import dev.oneread.local.runner.LocalStack;
import dev.oneread.local.runner.SampleData;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code seed}: the sample data the events/ files expect, into the engine invoke would use. */
@Command(
        name = "seed",
        sortOptions = false,
        synopsisHeading = "usage: ",
        description = {
            "Writes the sample data the events/ files are written against.",
            "Workspace acme with projects 01JDQ6V7K4N3M2P1R0S9T8V7W6 and ...W7, into the running start-api's "
                    + "engine, the engine at DYNAMODB_ENDPOINT, or a persisted one (--data-dir). Conditional "
                    + "puts: an item that exists is left as it is, so seeding brings back what was deleted and "
                    + "never undoes a change."
        })
public final class SeedCommand implements Callable<Integer> {
    private final CommandIo io;

    @Mixin
    private EngineOptions engine;

    public SeedCommand(CommandIo io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        Path root = ProjectRoot.find();
        EngineChoice choice = EngineChoice.resolve("seed", root, engine, false, io.environment());
        LocalStack.Settings settings = choice.settings();
        if (settings.engine() == null && settings.dataDir() == null) {
            throw new CommandException(
                    1,
                    "no start-api runs and DYNAMODB_ENDPOINT is not set: an engine in memory"
                            + " would forget the data at once (start-api seeds the tables it creates; --data-dir DIR seeds"
                            + " a persisted engine)");
        }
        io.err().println("seed: using " + choice.description());
        try (LocalStack stack = LocalStack.start(root, settings.withSeed(false), io.err())) {
            SampleData.Outcome outcome = SampleData.seed(
                    stack.client(),
                    stack.tableNames().values().iterator().next(),
                    LocalStack.shardPlan(stack.parameters()),
                    io.out());
            choice.console()
                    .ifPresent(api -> ConsoleLog.post(
                            api,
                            Map.of("source", "seed", "items", outcome.created().size(), "detail", "sample data"),
                            "seed",
                            io.err()));
        }
        return 0;
    }
}
