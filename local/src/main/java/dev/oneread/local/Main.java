package dev.oneread.local;

import dev.oneread.local.auth.LocalJwt;
import dev.oneread.local.expr.ExprCommand;
import dev.oneread.local.runner.ApiServer;
import dev.oneread.local.runner.LocalFunction;
import dev.oneread.local.runner.LocalStack;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code java -jar local/target/oneread-local.jar <command>}: the Docker-free local loop over template.yaml.
 *
 * <pre>
 *   start-api [--port 3000] [--parameter-overrides Key=Value ...] [--data-dir DIR]
 *   invoke <FunctionLogicalId> --event <file|-> [--parameter-overrides Key=Value ...] [--data-dir DIR]
 *   expr query|list-projects|workspace-collection ...
 * </pre>
 */
public final class Main {
    static final String USAGE = """
            usage: oneread-local <command>
              start-api [--port 3000] [--parameter-overrides Key=Value ...] [--data-dir DIR]
              invoke <FunctionLogicalId> --event <file|-> [--parameter-overrides Key=Value ...] [--data-dir DIR]
              token --workspaces acme,globex [--admin] [--ttl 1h] [--sub dev]   (a bearer token for start-api)
              expr query|list-projects|workspace-collection ...   (expr --help for details)
            environment: DYNAMODB_ENDPOINT (use that engine instead of starting dynalite), TABLE_NAME (default oneread)""";

    private Main() {
    }

    public static void main(String[] args) {
        int code = run(Arrays.asList(args), System.in, System.out, System.err, System.getenv());
        // A served start-api returns only from its shutdown hook: exiting again from inside shutdown would block.
        if (args.length == 0 || !args[0].equals("start-api") || code != 0) {
            System.exit(code);
        }
    }

    /** Runs one command and returns its exit code; {@code start-api} returns only after shutdown. */
    public static int run(List<String> args, InputStream stdin, PrintStream out, PrintStream err,
                          Map<String, String> environment) {
        if (args.isEmpty() || args.get(0).equals("--help") || args.get(0).equals("-h")) {
            (args.isEmpty() ? err : out).println(USAGE);
            return args.isEmpty() ? 2 : 0;
        }
        List<String> rest = args.subList(1, args.size());
        try {
            return switch (args.get(0)) {
                case "expr" -> rest.contains("--help") ? help(out) : ExprCommand.run(rest, out, err);
                case "invoke" -> invoke(new Options(rest, true), stdin, out, err, environment);
                case "start-api" -> startApi(new Options(rest, false), err, environment);
                case "token" -> token(rest, out);
                default -> usage(err, "unknown command " + args.get(0));
            };
        } catch (UsageException e) {
            return usage(err, e.getMessage());
        }
    }

    private static int help(PrintStream out) {
        out.println(ExprCommand.USAGE);
        return 0;
    }

    private static int invoke(Options options, InputStream stdin, PrintStream out, PrintStream err,
                              Map<String, String> environment) {
        if (options.positional.size() != 1) {
            throw new UsageException("invoke takes one FunctionLogicalId");
        }
        String event = options.single("--event");
        if (event == null) {
            throw new UsageException("invoke needs --event <file|->");
        }
        byte[] payload;
        try {
            payload = event.equals("-") ? stdin.readAllBytes() : Files.readAllBytes(Path.of(event));
        } catch (IOException e) {
            err.println("invoke: cannot read event " + event + ": " + e.getMessage());
            return 1;
        }
        Path root = ProjectRoot.find();
        String id = options.positional.get(0);
        var declared = SamTemplate.load(root.resolve("template.yaml")).resourcesOfType("AWS::Serverless::Function");
        if (!declared.containsKey(id)) {
            // Checked before the engine starts: a typo should fail in milliseconds.
            err.println("invoke: no function " + id + " in template.yaml; functions: "
                    + String.join(", ", declared.keySet()));
            return 1;
        }
        try (LocalStack stack = LocalStack.start(root, options.overrides(), options.dataDir(), environment, err)) {
            LocalFunction.Result result = stack.functions().get(id).invoke(payload);
            out.println(result.responseText());
            out.flush();
            return 0;
        } catch (IllegalStateException | IllegalArgumentException e) {
            err.println("invoke: " + e.getMessage());
            return 1;
        }
    }

    /** Prints a token the local runner accepts, like one from the real identity provider. */
    private static int token(List<String> args, PrintStream out) {
        List<String> workspaces = new ArrayList<>();
        boolean operator = false;
        java.time.Duration ttl = java.time.Duration.ofHours(1);
        String subject = "local-developer";
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "--admin" -> operator = true;
                case "--workspaces" -> workspaces.addAll(List.of(value(args, ++i, arg).split(",")));
                case "--ttl" -> ttl = duration(value(args, ++i, arg));
                case "--sub" -> subject = value(args, ++i, arg);
                default -> throw new UsageException("token: unknown argument " + arg);
            }
        }
        if (workspaces.isEmpty() && !operator) {
            throw new UsageException("token needs --workspaces and/or --admin");
        }
        LocalJwt jwt = new LocalJwt(LocalStack.LOCAL_DEFAULTS.get("JwtIssuer"), LocalStack.LOCAL_DEFAULTS.get("JwtAudience"),
                java.time.Clock.systemUTC());
        out.println(jwt.issue(subject, workspaces, operator, ttl));
        return 0;
    }

    private static String value(List<String> args, int index, String option) {
        if (index >= args.size() || args.get(index).startsWith("--")) {
            throw new UsageException(option + " needs a value");
        }
        return args.get(index);
    }

    /** {@code 90s}, {@code 15m}, {@code 1h}, {@code 2d}. */
    private static java.time.Duration duration(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^([1-9][0-9]{0,6})([smhd])$").matcher(text);
        if (!m.matches()) {
            throw new UsageException("--ttl takes a duration such as 90s, 15m, 1h or 2d");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "s" -> java.time.Duration.ofSeconds(n);
            case "m" -> java.time.Duration.ofMinutes(n);
            case "h" -> java.time.Duration.ofHours(n);
            default -> java.time.Duration.ofDays(n);
        };
    }

    private static int startApi(Options options, PrintStream err, Map<String, String> environment) {
        if (!options.positional.isEmpty()) {
            throw new UsageException("start-api takes no positional arguments");
        }
        int port = options.single("--port") == null ? 3000 : parsePort(options.single("--port"));
        Path root = ProjectRoot.find();
        // Ctrl-C at any point, even while the engine is still starting, stops what was started: the hook is in
        // place first and closes whatever exists by then. SIGINT and SIGTERM mean "stop", not "fail": exit 0.
        // (A JVM started in the background by a non-interactive shell inherits SIGINT as ignored; use SIGTERM.)
        AtomicReference<LocalStack> stack = new AtomicReference<>();
        AtomicReference<ApiServer> server = new AtomicReference<>();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            Optional.ofNullable(server.get()).ifPresent(ApiServer::close);
            Optional.ofNullable(stack.get()).ifPresent(LocalStack::close);
            err.println("start-api: stopped");
            stopped.countDown();
        }, "start-api-stop"));
        for (String signal : List.of("INT", "TERM")) {
            sun.misc.Signal.handle(new sun.misc.Signal(signal), s -> System.exit(0));
        }
        try {
            stack.set(LocalStack.start(root, options.overrides(), options.dataDir(), environment, err));
            server.set(new ApiServer(stack.get().functions(), stack.get().authorizer(), port, err));
        } catch (IllegalStateException | IllegalArgumentException | IOException e) {
            err.println("start-api: " + e.getMessage());
            return 1;
        }
        server.get().start();
        server.get().routeKeys().forEach(route -> err.println("  " + route));
        err.println("start-api: listening on http://127.0.0.1:" + server.get().port() + " (Ctrl-C to stop)");
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private static int parsePort(String value) {
        try {
            int port = Integer.parseInt(value);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new UsageException("--port takes a number from 0 to 65535");
    }

    private static int usage(PrintStream err, String message) {
        err.println("oneread-local: " + message);
        err.println(USAGE);
        return 2;
    }

    /** The options shared by invoke and start-api. */
    private static final class Options {
        final List<String> positional = new ArrayList<>();
        final Map<String, List<String>> values = new LinkedHashMap<>();

        Options(List<String> args, boolean allowPositional) {
            String current = null;
            for (String arg : args) {
                if (arg.startsWith("--")) {
                    if (!List.of("--port", "--parameter-overrides", "--data-dir", "--event").contains(arg)) {
                        throw new UsageException("unknown option " + arg);
                    }
                    current = arg;
                    values.computeIfAbsent(arg, k -> new ArrayList<>());
                } else if (current != null) {
                    values.get(current).add(arg);
                    if (!current.equals("--parameter-overrides")) {
                        current = null;
                    }
                } else if (allowPositional) {
                    positional.add(arg);
                } else {
                    throw new UsageException("unexpected argument " + arg);
                }
            }
            values.forEach((k, v) -> {
                if (v.isEmpty()) {
                    throw new UsageException(k + " needs a value");
                }
            });
        }

        String single(String name) {
            List<String> v = values.get(name);
            if (v == null) {
                return null;
            }
            if (v.size() != 1) {
                throw new UsageException(name + " takes one value");
            }
            return v.get(0);
        }

        Path dataDir() {
            String dir = single("--data-dir");
            return dir == null ? null : Path.of(dir).toAbsolutePath();
        }

        /** {@code Key=Value} pairs; a value may itself contain '=' (e.g. HotTenantShards=acme=10). */
        Map<String, String> overrides() {
            Map<String, String> out = new LinkedHashMap<>();
            for (String pair : values.getOrDefault("--parameter-overrides", List.of())) {
                int eq = pair.indexOf('=');
                if (eq < 1) {
                    throw new UsageException("--parameter-overrides takes Key=Value pairs");
                }
                out.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
            return out;
        }
    }

    private static final class UsageException extends RuntimeException {
        UsageException(String message) {
            super(message, null, false, false);
        }
    }
}
