package dev.oneread.tests.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.RunnerCommand;
import dev.oneread.tests.support.StartsProcesses;
import dev.oneread.tests.support.TestEngine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable jar as a user starts it: its own dynalite, the sample data, an invoke from elsewhere, then Ctrl-C,
 * SIGTERM, or a {@code kill -9} that it cannot see coming.
 */
@StartsProcesses
class StartApiProcessTest {
    private final TestEngine engine = TestEngine.get();

    /** A start-api process that has printed its listening line, with its stderr so far and its child processes. */
    private record Running(Process process, BufferedReader err, List<String> stderr, List<ProcessHandle> children)
            implements AutoCloseable {
        /** Everything it printed, for assertion messages. */
        String log() {
            return String.join("\n", stderr);
        }

        /** Reads stderr to its end: after the process exited. */
        void drain() throws IOException {
            for (String line; (line = err.readLine()) != null; ) {
                stderr.add(line);
            }
        }

        @Override
        public void close() throws IOException {
            process.destroyForcibly();
            children.forEach(ProcessHandle::destroyForcibly); // no orphan, even when a test fails
            err.close();
        }
    }

    /**
     * Starts {@code java -jar local/target/oneread-local.jar start-api} on its own engine.
     *
     * <p>A process inherits ignored signals, and a JVM does not install its handler for a signal that was
     * ignored when it started: under {@code nohup mvn ... &}, or any background job of a script, SIGINT is ignored
     * and start-api would never see the test's Ctrl-C. {@code env --default-signal} (GNU coreutils since 8.31,
     * Essential on Debian) resets INT and TERM to their default before it execs java, whatever the caller did; a
     * shell cannot (neither dash nor bash resets with {@code trap - INT} a signal ignored on entry, as POSIX says).
     */
    private Running startApi(Path stateFile, String... options) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                "env",
                "--default-signal=INT,TERM",
                "java",
                "-jar",
                engine.root.resolve("local/target/oneread-local.jar").toString(),
                "start-api",
                "--port",
                "0",
                "--state-file",
                stateFile.toString()));
        command.addAll(List.of(options));
        ProcessBuilder builder = new ProcessBuilder(command).directory(engine.root.toFile());
        builder.environment().remove("DYNAMODB_ENDPOINT");
        Process process = builder.start();
        BufferedReader err =
                new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
        List<String> stderr = new ArrayList<>();
        for (String line; (line = err.readLine()) != null; ) {
            stderr.add(line);
            if (line.startsWith("start-api: listening on http://127.0.0.1:")) {
                break;
            }
        }
        return new Running(process, err, stderr, process.descendants().toList());
    }

    private static List<ProcessHandle> engines(Running api) {
        return api.children().stream()
                .filter(p -> p.info().commandLine().orElse("").contains("local/engine.js")) // dynalite, guarded
                .toList();
    }

    @Test
    void startApi_shouldServeInvokeItsEngineThenExitCleanlyOnSigintAndLeaveNothingBehind(@TempDir Path dir)
            throws Exception {
        // GIVEN start-api running on its own embedded engine, registered in a state file
        Path stateFile = dir.resolve("start-api.json");
        try (Running api = startApi(stateFile)) {
            List<ProcessHandle> engines = engines(api);
            assertThat(engines).as(api.log()).hasSize(1);
            assertThat(api.stderr())
                    .anyMatch(line -> line.startsWith("sample data in oneread: created workspace acme"))
                    .anyMatch(line -> line.startsWith("start-api: engine at http://127.0.0.1:")
                            && line.endsWith(", partition limits 1 x DynamoDB's (3000 RCU, 1000 WCU per second per"
                                    + " partition key), index lag 500 ms"));
            // WHEN invoke beside it asks for other limits: it would run on start-api's engine, so it refuses
            RunnerCommand.Run limited =
                    RunnerCommand.invokeGetWorkspace(engine.root, stateFile, "--partition-limits", "0");
            assertThat(limited.exitCode()).as(limited.stderr()).isEqualTo(2);
            assertThat(limited.stderr())
                    .startsWith("invoke: --partition-limits applies only to an engine started here, not to the engine"
                            + " of start-api (pid " + api.process().pid() + ")");
            // WHEN invoke runs in another process (this one), with nothing but the state file to find the engine
            RunnerCommand.Run invoke = RunnerCommand.invokeGetWorkspace(engine.root, stateFile);
            // THEN it works on start-api's engine, where the sample workspace is
            assertThat(invoke.exitCode()).as(invoke.stderr()).isZero();
            assertThat(invoke.stderr())
                    .startsWith("invoke: using the engine of start-api (pid "
                            + api.process().pid());
            assertThat(invoke.status()).isEqualTo(200);
            // WHEN Ctrl-C
            assertStopsCleanlyOn("INT", api, engines, stateFile);
        }
    }

    @Test
    void startApi_shouldExitCleanlyOnSigterm_withTheEngineAtThePartitionLimitsGiven(@TempDir Path dir)
            throws Exception {
        Path stateFile = dir.resolve("start-api.json");
        try (Running api = startApi(stateFile, "--partition-limits", "0.05")) {
            List<ProcessHandle> engines = engines(api);
            assertThat(engines).as(api.log()).hasSize(1);
            assertThat(engines.get(0).info().commandLine().orElseThrow())
                    .contains("--partition-limits 0.05")
                    .contains("--index-lag 500");
            assertThat(api.stderr())
                    .as(api.log())
                    .anyMatch(line -> line.endsWith(", partition limits 0.05 x DynamoDB's (150 RCU, 50 WCU per second"
                            + " per partition key), index lag 500 ms"));
            assertThat(stateFile).exists();
            assertStopsCleanlyOn("TERM", api, engines, stateFile);
        }
    }

    private static void assertStopsCleanlyOn(String signal, Running api, List<ProcessHandle> engines, Path stateFile)
            throws Exception {
        new ProcessBuilder("kill", "-" + signal, Long.toString(api.process().pid()))
                .start()
                .waitFor();
        // THEN it stops by itself, exit 0, and takes the engine and its state file with it
        assertThat(api.process().waitFor(Eventually.FAILSAFE.toSeconds(), TimeUnit.SECONDS))
                .as(api.log())
                .isTrue();
        api.drain();
        assertThat(api.process().exitValue()).as(api.log()).isZero();
        assertThat(engines.get(0).isAlive()).isFalse();
        assertThat(api.stderr()).contains("start-api: stopped");
        assertThat(stateFile).doesNotExist();
    }

    @Test
    void startApi_killedHard_shouldLeaveNoEngineOrQueueProcessBehind(@TempDir Path dir) throws Exception {
        // GIVEN start-api with its engine (ElasticMQ runs inside its JVM: no process of its own)
        try (Running api = startApi(dir.resolve("start-api.json"))) {
            assertThat(engines(api)).as(api.log()).hasSize(1);
            assertThat(api.stderr()).anyMatch(line -> line.startsWith("job queues on ElasticMQ at "));
            // WHEN it is killed with no chance to clean up (SIGKILL: no shutdown hook runs)
            api.process().destroyForcibly();
            assertThat(api.process().waitFor(Eventually.FAILSAFE.toSeconds(), TimeUnit.SECONDS))
                    .isTrue();
            // THEN every process it started ends on its own (the engine when its stdin closes), with nothing to
            // stop it: the wait ends when the last one has, and only a hang reaches its limit
            CompletableFuture<?>[] exits =
                    api.children().stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new);
            try {
                CompletableFuture.allOf(exits).get(Eventually.FAILSAFE.toSeconds(), TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // (failing here: the assertion below names what is left)
            }
            assertThat(api.children())
                    .as("processes of the killed start-api still alive")
                    .noneMatch(ProcessHandle::isAlive);
        }
    }
}
