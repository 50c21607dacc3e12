package dev.oneread.local.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.reflect.Constructor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * {@code java -jar local/target/oneread-local.jar <command>}: the Docker-free local loop over template.yaml.
 * Each command is a picocli command; {@code --help} on any of them prints its usage.
 *
 * <pre>{@code int exitCode = Main.run(List.of("invoke", "GetWorkspace", "--event", "events/get-workspace.json"),
 *         System.in, System.out, System.err, System.getenv());}</pre>
 */
@Command(
        name = "oneread-local",
        synopsisHeading = "usage: ",
        description =
                "The Docker-free local loop over template.yaml: an HTTP API, one-off invokes, tokens, expressions.",
        subcommands = {
            StartApiCommand.class,
            InvokeCommand.class,
            DeployCommand.class,
            SeedCommand.class,
            TokenCommand.class,
            ExprCommand.class,
            CatalogueCommand.class
        },
        footerHeading = "%nEnvironment:%n",
        footer = {
            "  DYNAMODB_ENDPOINT  the engine to use instead of dynalite or start-api's",
            "  TABLE_NAME         the local table's name (default: oneread)",
            "Exit codes: 0 done; 1 failed; 2 bad arguments or a refused request."
        })
public final class Main implements Callable<Integer> {
    /** Exit code of a command line that is not one the command accepts. */
    static final int USAGE_ERROR = 2;

    private final CommandIo io;

    @Spec
    private CommandSpec spec;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            scope = ScopeType.INHERIT,
            description = "Shows this help.")
    private boolean help;

    Main(CommandIo io) {
        this.io = io;
    }

    public static void main(String[] args) {
        int code = run(List.of(args), System.in, System.out, System.err, System.getenv());
        // A served start-api returns only from its shutdown hook: exiting again from inside shutdown would block.
        if (args.length == 0 || !args[0].equals("start-api") || code != 0) {
            System.exit(code);
        }
    }

    /** Runs one command and returns its exit code; {@code start-api} returns only after shutdown. */
    public static int run(
            List<String> args, InputStream stdin, PrintStream out, PrintStream err, Map<String, String> environment) {
        CommandIo io = new CommandIo(stdin, out, err, environment);
        PrintWriter outWriter = new PrintWriter(out, true);
        PrintWriter errWriter = new PrintWriter(err, true);
        CommandFactory factory = new CommandFactory(io);
        CommandLine commandLine = new CommandLine(Main.class, factory);
        // Before the streams and handlers are set: picocli hands them down to the subcommands it has by then.
        ExprCommand.addPatterns(commandLine.getSubcommands().get("expr"), factory, io);
        commandLine
                .setOut(outWriter)
                .setErr(errWriter)
                .setParameterExceptionHandler((e, arguments) -> usageError(e, err))
                .setExecutionExceptionHandler((e, command, parsed) -> failure(e, command, err));
        try {
            return commandLine.execute(args.toArray(String[]::new));
        } finally {
            outWriter.flush();
            errWriter.flush();
        }
    }

    /** No command given: the usage, on stderr, as a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(io.err());
        return USAGE_ERROR;
    }

    /**
     * One line: which command, what is wrong, where the usage is. {@code expr} also prints its usage, as it
     * always has: its flags are the point of the command.
     */
    private static int usageError(ParameterException e, PrintStream err) {
        CommandLine failed = e.getCommandLine();
        CommandLine command = topLevel(failed);
        err.println(command.getCommandName() + ": " + e.getMessage() + " ("
                + failed.getCommandSpec().qualifiedName() + " --help shows the usage)");
        if (command.getCommandSpec().userObject() instanceof ExprCommand) {
            command.usage(err);
        }
        return USAGE_ERROR;
    }

    /** A command that failed (or refused, {@link CommandException}): one line, its name and why. */
    private static int failure(Exception e, CommandLine command, PrintStream err) {
        err.println(
                topLevel(command).getCommandName() + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
        return e instanceof CommandException refused ? refused.exitCode() : 1;
    }

    /** The command right under {@code oneread-local} (start-api, invoke, ...), or the root itself. */
    private static CommandLine topLevel(CommandLine command) {
        CommandLine top = command;
        while (top.getParent() != null && top.getParent().getParent() != null) {
            top = top.getParent();
        }
        return top;
    }

    /**
     * Builds commands with the streams and environment of this run: a command class's constructor that takes
     * a {@link CommandIo} gets it; everything else (mixins, converters) picocli's own factory builds.
     */
    private record CommandFactory(CommandIo io) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            try {
                Constructor<K> withIo = type.getDeclaredConstructor(CommandIo.class);
                withIo.setAccessible(true);
                return withIo.newInstance(io);
            } catch (NoSuchMethodException noIo) {
                return CommandLine.defaultFactory().create(type);
            }
        }
    }
}
