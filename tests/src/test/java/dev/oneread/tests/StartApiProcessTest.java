package dev.oneread.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runnable jar as a user starts it: its own dynalite, the sample data, an invoke from elsewhere, then Ctrl-C. */
class StartApiProcessTest {
    private final TestEngine engine = TestEngine.get();

    @Test
    void startApi_shouldServeInvokeItsEngineThenExitCleanlyOnSigintAndLeaveNothingBehind(@TempDir Path dir)
            throws Exception {
        // GIVEN start-api running on its own embedded engine, registered in a state file
        Path stateFile = dir.resolve("start-api.json");
        ProcessBuilder builder = new ProcessBuilder(
                        "java",
                        "-jar",
                        engine.root.resolve("local/target/oneread-local.jar").toString(),
                        "start-api",
                        "--port",
                        "0",
                        "--state-file",
                        stateFile.toString())
                .directory(engine.root.toFile());
        builder.environment().remove("DYNAMODB_ENDPOINT");
        Process process = builder.start();
        List<String> stderr = new ArrayList<>();
        try (BufferedReader err =
                new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = err.readLine()) != null; ) {
                stderr.add(line);
                if (line.startsWith("start-api: listening on http://127.0.0.1:")) {
                    break;
                }
            }
            List<ProcessHandle> engines = process.descendants()
                    .filter(p ->
                            p.info().commandLine().orElse("").contains("local/engine.js")) // dynalite behind its guard
                    .toList();
            assertThat(engines).as(String.join("\n", stderr)).hasSize(1);
            assertThat(stderr).anyMatch(line -> line.startsWith("sample data in oneread: created workspace acme"));
            // WHEN invoke runs in another process (this one), with nothing but the state file to find the engine
            RunnerCommand.Run invoke = RunnerCommand.run(
                    Map.of(),
                    "",
                    List.of(
                            "invoke",
                            "GetWorkspace",
                            "--event",
                            engine.root.resolve("events/get-workspace.json").toString(),
                            "--state-file",
                            stateFile.toString()));
            // THEN it works on start-api's engine, where the sample workspace is
            assertThat(invoke.exitCode()).as(invoke.stderr()).isZero();
            assertThat(invoke.stderr()).startsWith("invoke: using the engine of start-api (pid " + process.pid());
            assertThat(invoke.status()).isEqualTo(200);
            // WHEN Ctrl-C
            new ProcessBuilder("kill", "-INT", Long.toString(process.pid()))
                    .start()
                    .waitFor();
            // THEN it stops by itself, exit 0, and takes the engine and its state file with it
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            for (String line; (line = err.readLine()) != null; ) {
                stderr.add(line);
            }
            assertThat(process.exitValue()).as(String.join("\n", stderr)).isZero();
            assertThat(engines.get(0).isAlive()).isFalse();
            assertThat(stderr).contains("start-api: stopped");
            assertThat(stateFile).doesNotExist();
        } finally {
            process.destroyForcibly();
        }
    }
}
