package dev.oneread.local.cli;

import dev.oneread.local.console.Console;
import dev.oneread.local.runner.ApiServer;
import dev.oneread.local.runner.LocalStack;
import dev.oneread.local.runner.LocalTriggers;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A running {@code start-api}: the local stack, the HTTP server over its functions, and the state file that
 * lets {@code invoke} and {@code seed} find its engine. Closing it stops all three.
 *
 * <pre>{@code try (StartApi api = StartApi.start(root, settings, 3000, StartApiState.defaultFile(root), System.err)) {
 *     api.port();
 * }}</pre>
 */
public final class StartApi implements AutoCloseable {
    private final LocalStack stack;
    private final ApiServer server;
    private final Path stateFile;
    private final StartApiState state;
    private final Console console;
    private LocalTriggers triggers;

    private StartApi(LocalStack stack, ApiServer server, Console console, Path stateFile, StartApiState state) {
        this.stack = stack;
        this.server = server;
        this.console = console;
        this.stateFile = stateFile;
        this.state = state;
    }

    /**
     * Starts the stack and serves it on {@code port} (0: any free port), then registers in {@code stateFile}
     * unless another live start-api already has: the first one stays the one invoke talks to.
     *
     * @throws IOException when the port cannot be bound
     */
    public static StartApi start(Path root, LocalStack.Settings settings, int port, Path stateFile, PrintStream log)
            throws IOException {
        return start(root, settings, port, stateFile, false, log);
    }

    /**
     * As {@link #start(Path, LocalStack.Settings, int, Path, PrintStream)}, and runs the template's event source
     * mappings on its queues, and its schedules too when {@code schedules}.
     */
    public static StartApi start(
            Path root, LocalStack.Settings settings, int port, Path stateFile, boolean schedules, PrintStream log)
            throws IOException {
        LocalStack stack = LocalStack.start(root, settings, log);
        ApiServer server = null;
        try {
            server = new ApiServer(stack::functions, stack.authorizer(), port, log);
            Console console = Console.attach(
                    server,
                    stack.client(),
                    stack.tableNames().values().iterator().next(),
                    stack::configuration,
                    stack.endpoint(),
                    settings.dataDir(),
                    log);
            server.mountDeploy(changed -> redeployed(stack, changed, stateFile));
            server.start();
            StartApiState state = StartApiState.ofThisProcess(
                    URI.create("http://127.0.0.1:" + server.port()),
                    stack.endpoint(),
                    stack.tableNames().values().iterator().next(),
                    settings.dataDir(),
                    settings.overrides(),
                    stack.queues() == null ? null : stack.queues().endpoint());
            LocalTriggers triggers = LocalTriggers.start(stack, schedules, log);
            Optional<StartApiState> other = StartApiState.read(stateFile).filter(StartApiState::isAlive);
            if (other.isPresent()) {
                log.println("start-api: another start-api (pid " + other.get().pid() + ", "
                        + other.get().api() + ") is registered in " + stateFile
                        + "; invoke and seed keep using that one");
                StartApi api = new StartApi(stack, server, console, stateFile, null);
                api.triggers = triggers;
                return api;
            }
            state.write(stateFile);
            StartApi api = new StartApi(stack, server, console, stateFile, state);
            api.triggers = triggers;
            return api;
        } catch (IOException | RuntimeException e) {
            if (server != null) {
                server.close();
            }
            stack.close();
            throw e;
        }
    }

    /**
     * Applies new parameter overrides as a deploy would (see {@link LocalStack#redeploy}), and records them in the
     * state file when this run owns it, so that invoke and seed see them too.
     *
     * @return every template parameter as the functions see it now
     * @throws IllegalArgumentException a parameter the template does not declare or a value it does not allow
     */
    public Map<String, String> redeploy(Map<String, String> changed) {
        return redeployed(stack, changed, stateFile);
    }

    private static Map<String, String> redeployed(LocalStack stack, Map<String, String> changed, Path stateFile) {
        Map<String, String> parameters = stack.redeploy(changed);
        StartApiState.read(stateFile)
                .filter(s -> s.pid() == ProcessHandle.current().pid())
                .ifPresent(s -> new StartApiState(
                                s.pid(),
                                s.processStart(),
                                s.api(),
                                s.engine(),
                                s.tableName(),
                                s.dataDir(),
                                stack.overrides(),
                                s.queues())
                        .write(stateFile));
        return parameters;
    }

    public int port() {
        return server.port();
    }

    public LocalStack stack() {
        return stack;
    }

    public List<String> routeKeys() {
        return server.routeKeys();
    }

    @Override
    public void close() {
        if (state != null) {
            state.deleteIfStill(stateFile);
        }
        if (triggers != null) {
            triggers.close();
        }
        console.close();
        server.close();
        stack.close();
    }
}
