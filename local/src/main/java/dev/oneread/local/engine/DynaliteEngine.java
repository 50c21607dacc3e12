package dev.oneread.local.engine;

import dev.oneread.model.PartitionCapacity;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * dynalite, the local DynamoDB-compatible engine, as a child process: started on a free loopback port, in
 * memory or persisted under a data directory, and stopped with the JVM at the latest.
 *
 * <p>It is installed by {@code npm ci --prefix local} from the pinned package-lock.json. The process is
 * {@code node local/engine.js}, which serves dynalite behind a guard: a request with an {@code Origin} header (a
 * web page's) or a {@code Host} other than the engine's loopback address is refused, and no CORS header is sent.
 * It is node itself (no shell wrapper), so stopping it stops the engine; and it watches its stdin, a pipe from this
 * JVM, so that it ends with the JVM even when nothing could stop it (a {@code kill -9} of the runner). The guard
 * also enforces DynamoDB's per-partition limits ({@link PartitionLimits}) and reports their heat ({@link EngineHeat}),
 * and makes every global secondary index trail its table by the {@link IndexLag}, as DynamoDB's do.
 *
 * <pre>{@code try (DynaliteEngine engine = DynaliteEngine.start(root, null)) { URI endpoint = engine.endpoint(); }}</pre>
 */
public final class DynaliteEngine implements AutoCloseable {
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(30);
    /** What dynalite's cli.js prints when its server listens. */
    private static final String LISTENING_LINE = "Dynalite listening at";

    private final Process process;
    private final int port;
    private final PartitionLimits limits;
    private final IndexLag lag;
    private final Thread shutdownHook;

    private DynaliteEngine(Process process, int port, PartitionLimits limits, IndexLag lag) {
        this.process = process;
        this.port = port;
        this.limits = limits;
        this.lag = lag;
        this.shutdownHook = new Thread(this::stopProcess, "dynalite-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts dynalite on a free port, with DynamoDB's partition limits; {@code dataDir} null means in memory. */
    public static DynaliteEngine start(Path projectRoot, Path dataDir) {
        return start(projectRoot, dataDir, freePort(), PartitionLimits.DYNAMODB);
    }

    /** Starts dynalite on a free port with the given partition limits, and DynamoDB's index lag. */
    public static DynaliteEngine start(Path projectRoot, Path dataDir, PartitionLimits limits) {
        return start(projectRoot, dataDir, freePort(), limits);
    }

    /** Starts dynalite on a free port with the given partition limits and index lag. */
    public static DynaliteEngine start(Path projectRoot, Path dataDir, PartitionLimits limits, IndexLag lag) {
        return start(projectRoot, dataDir, freePort(), limits, lag);
    }

    /** Starts dynalite on {@code port}, with DynamoDB's partition limits: how a restart comes back where clients expect it. */
    public static DynaliteEngine start(Path projectRoot, Path dataDir, int port) {
        return start(projectRoot, dataDir, port, PartitionLimits.DYNAMODB);
    }

    /** Starts dynalite on {@code port} with the given partition limits, and DynamoDB's index lag. */
    public static DynaliteEngine start(Path projectRoot, Path dataDir, int port, PartitionLimits limits) {
        return start(projectRoot, dataDir, port, limits, IndexLag.DYNAMODB);
    }

    /**
     * Starts dynalite on {@code port}; the guard in front of it enforces DynamoDB's per-partition limits at the
     * given scale ({@link PartitionLimits#OFF} for none), serves their heat at {@link EngineHeat#PATH}, and answers
     * index reads {@code lag} behind the table ({@link IndexLag#OFF} for none).
     */
    public static DynaliteEngine start(Path projectRoot, Path dataDir, int port, PartitionLimits limits, IndexLag lag) {
        Path cli = projectRoot.resolve("local/engine.js");
        if (!Files.isRegularFile(projectRoot.resolve("local/node_modules/dynalite/index.js"))) {
            throw new IllegalStateException("dynalite is not installed: run `npm ci --prefix local` first");
        }
        // --createTableMs 0: a new table is ACTIVE at once instead of after dynalite's default 500 ms of
        // CREATING, which every fresh start-api, invoke and test run would otherwise wait out.
        List<String> command = new ArrayList<>(List.of(
                "node",
                cli.toString(),
                "--port",
                Integer.toString(port),
                "--host",
                "127.0.0.1",
                "--createTableMs",
                "0",
                // stdin is a pipe that only this JVM holds open and never writes to: when the JVM ends, however
                // it ends (kill -9 runs no shutdown hook), the pipe closes and the engine stops with it.
                "--exit-with-stdin",
                // DynamoDB's own limits, from their one declaration; the scale below divides them.
                "--partition-read-units",
                units(PartitionCapacity.DYNAMODB.readUnitsPerSecond()),
                "--partition-write-units",
                units(PartitionCapacity.DYNAMODB.writeUnitsPerSecond()),
                "--partition-limits",
                limits.optionText(),
                "--index-lag",
                lag.optionText()));
        if (dataDir != null) {
            try {
                Files.createDirectories(dataDir);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            command.add("--path");
            command.add(dataDir.toAbsolutePath().toString());
        }
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            DynaliteEngine engine = new DynaliteEngine(process, port, limits, lag);
            engine.awaitListening();
            return engine;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start dynalite (is node on the PATH?)", e);
        }
    }

    /** Units a second as the engine's option takes them: {@code 3000}, not {@code 3000.0}. */
    private static String units(double perSecond) {
        return java.math.BigDecimal.valueOf(perSecond).stripTrailingZeros().toPlainString();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    public int port() {
        return port;
    }

    /** The partition limits this engine enforces. */
    public PartitionLimits limits() {
        return limits;
    }

    /** How long this engine's indexes trail their table. */
    public IndexLag lag() {
        return lag;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        stopProcess();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // Already shutting down: the hook runs (or ran) stopProcess itself.
        }
    }

    /** Kills the engine without warning, as a crash would: for fault tests. */
    public void crash() {
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void stopProcess() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits for the line dynalite prints once its socket listens: no polling of the port, and an engine that
     * dies at start (a port taken meanwhile, a broken install) fails at once with its exit code.
     */
    private void awaitListening() {
        CompletableFuture<Void> listening = new CompletableFuture<>();
        // Drain the engine's output on a daemon thread so a chatty engine can never block on a full pipe.
        Thread drain = new Thread(
                () -> {
                    try (BufferedReader out = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line; (line = out.readLine()) != null; ) {
                            if (line.startsWith(LISTENING_LINE)) {
                                listening.complete(null);
                            }
                        }
                    } catch (IOException ended) {
                        // the process closed its output: it has ended
                    }
                    listening.completeExceptionally(new IllegalStateException("dynalite exited before it listened"
                            + process.onExit()
                                    .thenApply(p -> " (exit code " + p.exitValue() + ")")
                                    .getNow("")));
                },
                "dynalite-output");
        drain.setDaemon(true);
        drain.start();
        try {
            listening.get(STARTUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            stopProcess();
            throw new IllegalStateException("dynalite did not listen on port " + port + " within " + STARTUP_TIMEOUT);
        } catch (ExecutionException e) {
            throw (IllegalStateException) e.getCause();
        } catch (InterruptedException e) {
            stopProcess();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while dynalite started", e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
