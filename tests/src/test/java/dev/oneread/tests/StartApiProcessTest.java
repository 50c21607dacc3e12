package dev.oneread.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The runnable jar as a user starts it: its own dynalite, then Ctrl-C. */
class StartApiProcessTest {
    private final TestEngine engine = TestEngine.get();

    @Test
    void startApi_shouldExitCleanlyOnSigintAndLeaveNoEngineBehind() throws Exception {
        // GIVEN start-api running on its own embedded engine
        ProcessBuilder builder = new ProcessBuilder("java", "-jar",
                engine.root.resolve("local/target/oneread-local.jar").toString(), "start-api", "--port", "0")
                .directory(engine.root.toFile());
        builder.environment().remove("DYNAMODB_ENDPOINT");
        Process process = builder.start();
        List<String> stderr = new ArrayList<>();
        try (BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = err.readLine()) != null; ) {
                stderr.add(line);
                if (line.startsWith("start-api: listening on http://127.0.0.1:")) {
                    break;
                }
            }
            List<ProcessHandle> engines = process.descendants()
                    .filter(p -> p.info().commandLine().orElse("").contains("dynalite")).toList();
            assertThat(engines).as(String.join("\n", stderr)).hasSize(1);
            // WHEN Ctrl-C
            new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor();
            // THEN it stops by itself, exit 0, and takes the engine with it
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            for (String line; (line = err.readLine()) != null; ) {
                stderr.add(line);
            }
            assertThat(process.exitValue()).as(String.join("\n", stderr)).isZero();
            assertThat(engines.get(0).isAlive()).isFalse();
            assertThat(stderr).contains("start-api: stopped");
        } finally {
            process.destroyForcibly();
        }
    }
}
