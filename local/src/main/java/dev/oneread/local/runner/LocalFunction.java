package dev.oneread.local.runner;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.oneread.runtime.FunctionEnvironment;
import dev.oneread.runtime.InvalidSettingException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * One function's warm execution environment, as Lambda keeps it: its artifact unpacked, its own class
 * loader (so static state such as the client never leaks between functions), its handler built once on the
 * first invoke (that is the init phase, reported as Init Duration), then one invocation at a time.
 */
public final class LocalFunction implements AutoCloseable {
    private static final String RUNTIME_API_PACKAGE = "com.amazonaws.services.lambda.runtime.";

    private final FunctionSpec spec;
    private final Map<String, String> environment;
    private final PrintStream log;
    private final ExecutorService thread;
    private final RunnerJars runnerJars = RunnerJars.OF_THIS_RUNNER;
    /** This instance's own: the environment overlay, never written into the shared unpacked artifact. */
    private Path environmentDir;

    private URLClassLoader loader;
    private RequestStreamHandler handler;
    private boolean closed;

    /** @param environment the function's variables plus what the runner adds (endpoint, credentials) */
    public LocalFunction(FunctionSpec spec, Map<String, String> environment, PrintStream log) {
        this.spec = spec;
        this.environment = new LinkedHashMap<>(environment);
        this.log = log;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "function-" + spec.logicalId());
            t.setDaemon(true);
            return t;
        });
    }

    public FunctionSpec spec() {
        return spec;
    }

    /**
     * What one invocation returned: the response bytes, or the error Lambda would report; and the calls it made,
     * as JSON, when the function handed them to the runner (null otherwise).
     */
    public record Result(
            byte[] response,
            boolean failed,
            double durationMs,
            Double initDurationMs,
            String requestId,
            String callDetail) {
        public String responseText() {
            return new String(response, StandardCharsets.UTF_8);
        }
    }

    /**
     * Invokes whichever function {@code current} gives now: the one a redeploy put in place. A function a redeploy
     * retired between the look-up and the call is not invoked; the call goes to its successor instead.
     */
    public static Result invokeCurrent(java.util.function.Supplier<LocalFunction> current, byte[] event) {
        while (true) {
            Result result = current.get().invokeUnlessClosed(event);
            if (result != null) {
                return result;
            }
        }
    }

    public synchronized Result invoke(byte[] event) {
        Result result = invokeUnlessClosed(event);
        if (result == null) {
            throw new IllegalStateException(spec.logicalId() + " is closed");
        }
        return result;
    }

    /** The invocation's result; null, and no invocation, when this function was closed (retired by a redeploy). */
    private synchronized Result invokeUnlessClosed(byte[] event) {
        if (closed) {
            return null;
        }
        String requestId = UUID.randomUUID().toString();
        Double initMs = null;
        if (handler == null) {
            long initStart = System.nanoTime();
            init();
            initMs = (System.nanoTime() - initStart) / 1e6;
        }
        log.println("START RequestId: " + requestId + " Version: $LATEST");
        long start = System.nanoTime();
        LocalContext context = new LocalContext(spec, requestId, log);
        Outcome outcome = run(event, context);
        double durationMs = (System.nanoTime() - start) / 1e6;
        log.println("END RequestId: " + requestId);
        report(requestId, durationMs, initMs);
        return new Result(outcome.response(), outcome.failed(), durationMs, initMs, requestId, context.callDetail());
    }

    /** What the handler wrote, or the error JSON Lambda answers with when it failed or ran out of time. */
    private record Outcome(byte[] response, boolean failed) {}

    /** Runs the handler on the function's thread, in its class loader, for at most the function's timeout. */
    private Outcome run(byte[] event, LocalContext context) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Future<?> running = thread.submit(() -> {
            withFunctionLoader(() -> {
                handler.handleRequest(new ByteArrayInputStream(event), out, context);
                return null;
            });
            return null;
        });
        try {
            running.get(spec.timeoutSeconds(), TimeUnit.SECONDS);
            return new Outcome(out.toByteArray(), false);
        } catch (TimeoutException e) {
            running.cancel(true);
            return new Outcome(
                    errorJson("Task timed out after " + spec.timeoutSeconds() + ".00 seconds", "TimeoutError"), true);
        } catch (ExecutionException e) {
            return new Outcome(unhandled(e.getCause()), true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(errorJson("interrupted", "InterruptedException"), true);
        }
    }

    /** Lambda logs an unhandled error with its frames; the caller gets only the error JSON. */
    private byte[] unhandled(Throwable cause) {
        cause.printStackTrace();
        log.println(cause);
        for (StackTraceElement frame : cause.getStackTrace()) {
            log.println("\tat " + frame);
        }
        return errorJson(String.valueOf(cause.getMessage()), cause.getClass().getName());
    }

    /** Lambda's REPORT line: duration, billed duration, memory, and the init duration of a cold start. */
    private void report(String requestId, double durationMs, Double initMs) {
        Runtime runtime = Runtime.getRuntime();
        log.printf(
                "REPORT RequestId: %s\tDuration: %.2f ms\tBilled Duration: %d ms\tMemory Size: %d MB\t"
                        + "Max Memory Used: %d MB%s%n",
                requestId,
                durationMs,
                (long) Math.ceil(durationMs),
                spec.memoryMb(),
                (runtime.totalMemory() - runtime.freeMemory()) / (1024 * 1024),
                initMs == null ? "" : String.format("\tInit Duration: %.2f ms", initMs));
        log.flush();
    }

    /**
     * A class as this function's own loader sees it, for checks that functions share no state. Only after
     * the first invoke.
     */
    public synchronized Class<?> loadedClass(String name) {
        if (loader == null) {
            throw new IllegalStateException(spec.logicalId() + " has not been invoked yet");
        }
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException(name + " is not in " + spec.logicalId() + "'s artifact", e);
        }
    }

    private void init() {
        Path zip = spec.codeUri();
        if (!Files.isRegularFile(zip)) {
            throw new IllegalStateException(
                    spec.logicalId() + ": " + zip + " is not built; run `mvn -B package -DskipTests` first");
        }
        try {
            Path artifact = UnpackedArtifacts.of(spec.logicalId(), zip);
            environmentDir = Files.createTempDirectory("oneread-" + spec.logicalId() + "-environment-");
            writeEnvironment(environmentDir.resolve(FunctionEnvironment.LOCAL_OVERLAY));
            List<URL> urls = new ArrayList<>();
            urls.add(artifact.toUri().toURL()); // /var/task
            List<Set<String>> fromRunner = new ArrayList<>();
            Path lib = artifact.resolve("lib"); // /var/task/lib/*.jar
            if (Files.isDirectory(lib)) {
                try (Stream<Path> jars = Files.list(lib)) {
                    for (Path jar : jars.filter(p -> p.toString().endsWith(".jar"))
                            .sorted()
                            .toList()) {
                        urls.add(jar.toUri().toURL());
                        Set<String> shared = runnerJars.sharedClasses(jar);
                        if (!shared.isEmpty()) {
                            fromRunner.add(shared);
                        }
                    }
                }
            }
            urls.add(environmentDir.toUri().toURL()); // what Lambda would set as environment variables
            loader = new URLClassLoader(
                    "function:" + spec.logicalId(),
                    urls.toArray(URL[]::new),
                    new RuntimeApiAndRunnerJars(runnerJars.runner(), fromRunner));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack " + zip, e);
        }
        handler = withFunctionLoader(() -> {
            Class<?> type = Class.forName(spec.handlerClass(), true, loader);
            if (!RequestStreamHandler.class.isAssignableFrom(type)) {
                throw new IllegalStateException(spec.handler() + " is not a RequestStreamHandler");
            }
            RequestStreamHandler loaded =
                    (RequestStreamHandler) type.getConstructor().newInstance();
            prime(loaded);
            return loaded;
        });
    }

    /**
     * What SnapStart's checkpoint does after a function's init: runs its priming hook (a function's {@code prime()},
     * see HttpApiFunction), so that the first local request meets a primed function, as the first after a restore
     * would. A function without the hook (the jobs) is left as it is.
     */
    private static void prime(RequestStreamHandler handler) throws ReflectiveOperationException {
        try {
            handler.getClass().getMethod("prime").invoke(handler);
        } catch (NoSuchMethodException e) {
            // not an HTTP API function: nothing to prime
        }
    }

    /** By name: the function's copy of the class comes from its own class loader. */
    private static final String INVALID_SETTING = InvalidSettingException.class.getName();

    private <T> T withFunctionLoader(ThrowingSupplier<T> body) {
        Thread current = Thread.currentThread();
        ClassLoader previous = current.getContextClassLoader();
        current.setContextClassLoader(loader);
        try {
            return body.get();
        } catch (RuntimeException e) {
            throw e;
        } catch (java.lang.reflect.InvocationTargetException e) {
            // A handler whose constructor threw (its init failed): Lambda reports that error, not the reflection's.
            // Its frames too, unless the run lacks a resource the function names: then that is the whole story,
            // which the caller tells in one line (see InvokeCommand).
            // A setting the function refuses (InvalidSettingException) is told in one line too: its message names
            // the variable, the value and the rule, and frames would only bury it.
            Throwable cause = e.getCause();
            if (spec.absent().isEmpty()
                    && !INVALID_SETTING.equals(cause.getClass().getName())) {
                cause.printStackTrace();
            }
            throw new IllegalStateException(cause.getClass().getSimpleName() + ": " + cause.getMessage(), cause);
        } catch (Exception e) {
            throw new IllegalStateException(e.getClass().getSimpleName() + ": " + e.getMessage(), e);
        } finally {
            current.setContextClassLoader(previous);
        }
    }

    private void writeEnvironment(Path file) throws IOException {
        Properties properties = new Properties();
        properties.putAll(environment);
        try (OutputStream out = Files.newOutputStream(file)) {
            properties.store(out, "written by the oneread local runner for " + spec.logicalId());
        }
    }

    /** Lambda's error shape for a function that failed: {@code {"errorMessage", "errorType"}}. */
    private static byte[] errorJson(String message, String type) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("errorMessage", message);
        error.put("errorType", type);
        return dev.oneread.json.Json.write(error).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void close() {
        closed = true;
        thread.shutdownNow();
        try {
            if (loader != null) {
                loader.close();
            }
            if (environmentDir != null) {
                UnpackedArtifacts.deleteTree(environmentDir);
            }
        } catch (IOException e) {
            // best effort: a loader left open at exit is harmless
        }
    }

    @FunctionalInterface
    private interface ThrowingSupplier<T> {
        T get() throws Exception;
    }

    /**
     * The parent of every function loader: the JDK, plus the Lambda runtime interfaces (Context,
     * RequestStreamHandler) from the runner, which the Lambda runtime likewise provides, plus the classes of the
     * function's jars that the runner holds byte for byte ({@link RunnerJars}). Everything else, the project's own
     * classes included, comes from the function's artifact alone.
     */
    private static final class RuntimeApiAndRunnerJars extends ClassLoader {
        private final ClassLoader runner;
        private final List<Set<String>> fromRunner;

        RuntimeApiAndRunnerJars(ClassLoader runner, List<Set<String>> fromRunner) {
            super("lambda-runtime-api", ClassLoader.getPlatformClassLoader());
            this.runner = runner;
            this.fromRunner = List.copyOf(fromRunner);
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            if (name.startsWith(RUNTIME_API_PACKAGE) || fromRunner.stream().anyMatch(s -> s.contains(name))) {
                return runner.loadClass(name);
            }
            throw new ClassNotFoundException(name);
        }
    }
}
