package dev.oneread.local.cli;

import dev.oneread.local.ProjectRoot;
import dev.oneread.local.runner.LocalStack;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code start-api}: every HttpApi route of template.yaml on localhost, until Ctrl-C or SIGTERM. */
@Command(
        name = "start-api",
        sortOptions = false,
        synopsisHeading = "usage: ",
        description = {
            "Serves every HttpApi route of template.yaml on localhost, as sam local start-api does.",
            "Each function runs from its own zip in its own class loader, on dynalite (started here, or the "
                    + "engine at DYNAMODB_ENDPOINT). A table it creates gets the sample data the events/ files "
                    + "expect. It writes its engine, table and parameter overrides to the state file, so that "
                    + "invoke and seed work in the same world.",
            "The engine it starts enforces DynamoDB's per-partition limits (--partition-limits) and throttles as "
                    + "DynamoDB does; its global secondary indexes trail the table as DynamoDB's do (--index-lag).",
            "Ctrl-C or SIGTERM stops it and its engine (exit 0)."
        })
public final class StartApiCommand implements Callable<Integer> {
    private final CommandIo io;

    @Option(
            names = "--port",
            defaultValue = "3000",
            converter = Converters.Port.class,
            paramLabel = "PORT",
            description = "the port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE})")
    private int port;

    @Option(
            names = "--schedules",
            description = "also run the template's ScheduleV2 schedules at their rates (the job planner)")
    private boolean schedules;

    @Option(names = "--no-seed", description = "leave a new table empty instead of loading the sample data")
    private boolean noSeed;

    @Mixin
    private EngineOptions engine;

    public StartApiCommand(CommandIo io) {
        this.io = io;
    }

    @Override
    public Integer call() throws IOException {
        Path root = ProjectRoot.find();
        LocalStack.Settings settings = LocalStack.Settings.fromEnvironment(
                        io.environment(), engine.overrides(), engine.dataDir(), !noSeed)
                .withQueues(LocalStack.Queues.OWN);
        if (settings.engine() != null) {
            engine.refuseLimitsFor("the engine at DYNAMODB_ENDPOINT", settings.engine());
        }
        settings = settings.withLimits(engine.partitionLimits()).withLag(engine.indexLag());
        // Ctrl-C at any point, even while the engine is still starting, stops what was started: the hook is in
        // place first and closes whatever exists by then. SIGINT and SIGTERM mean "stop", not "fail": exit 0.
        // (A JVM started in the background by a non-interactive shell inherits SIGINT as ignored; use SIGTERM.)
        AtomicReference<StartApi> running = new AtomicReference<>();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            Optional.ofNullable(running.get()).ifPresent(StartApi::close);
                            io.err().println("start-api: stopped");
                            stopped.countDown();
                        },
                        "start-api-stop"));
        for (String signal : List.of("INT", "TERM")) {
            sun.misc.Signal.handle(new sun.misc.Signal(signal), s -> System.exit(0));
        }
        running.set(StartApi.start(root, settings, port, engine.stateFile(root), schedules, io.err()));
        running.get().routeKeys().forEach(route -> io.err().println("  " + route));
        io.err()
                .println("start-api: engine at " + running.get().stack().endpoint() + ", "
                        + running.get()
                                .stack()
                                .limits()
                                .map(LocalStack::describe)
                                .orElse("its own limits")
                        + running.get().stack().lag().map(lag -> ", " + lag).orElse(""));
        io.err()
                .println("start-api: console on http://127.0.0.1:"
                        + running.get().port() + "/_console");
        io.err()
                .println("start-api: listening on http://127.0.0.1:"
                        + running.get().port() + " (Ctrl-C to stop)");
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }
}
