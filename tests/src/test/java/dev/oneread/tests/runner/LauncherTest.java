package dev.oneread.tests.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Fixtures;
import dev.oneread.tests.support.StartsProcesses;
import dev.oneread.tests.support.TestEngine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./oneread}, the runner with the class-data archive the build writes: the archive is really in use, and
 * nothing of it reaches the stdout where invoke writes its response.
 */
@StartsProcesses
class LauncherTest {
    private final TestEngine engine = TestEngine.get();

    @Test
    void launcherInvoke_shouldAnswerOnStdoutAndLoadTheSdkFromTheBuildsArchive(@TempDir Path dir) throws Exception {
        // GIVEN the build's archive beside the runner's jar, and the seeded engine
        assertThat(engine.root.resolve("local/target/oneread-local.jsa")).isRegularFile();
        Fixtures.seedForEventFiles(engine);
        Path classLog = dir.resolve("class-load.log");

        // WHEN GetWorkspace is invoked through the launcher, with the JVM's class-load log on a side file
        ProcessBuilder builder = launcher(List.of(
                        "invoke",
                        "GetWorkspace",
                        "--event",
                        engine.root.resolve("events/get-workspace.json").toString()))
                .redirectError(dir.resolve("stderr.log").toFile());
        builder.environment().put("JAVA_TOOL_OPTIONS", "-Xlog:class+load:file=" + classLog);
        Process process = builder.start();
        process.getOutputStream().close();
        String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

        // THEN stdout is the response and nothing else; and the SDK's client came from the archive, not the jar
        String stderr = Files.readString(dir.resolve("stderr.log"));
        assertThat(process.exitValue()).as(stderr).isZero();
        Map<String, Object> response = Json.readObject(stdout.strip());
        assertThat(response).containsEntry("statusCode", 200);
        assertThat(Files.readAllLines(classLog))
                .anyMatch(line -> line.contains("software.amazon.awssdk.services.dynamodb.DynamoDbClient source: "
                        + "shared objects file (top)"));
    }

    @Test
    void launcher_shouldStillRunWhenTheArchiveNoLongerMatchesTheJar(@TempDir Path dir) throws Exception {
        // GIVEN an archive the JVM refuses: a copy of the project whose jar is not the one the archive was made from
        Path root = dir.resolve("copy");
        Files.createDirectories(root.resolve("local/target"));
        Files.copy(engine.root.resolve("oneread"), root.resolve("oneread"));
        Files.copy(engine.root.resolve("template.yaml"), root.resolve("template.yaml"));
        Files.copy(
                engine.root.resolve("local/target/oneread-local.jar"), root.resolve("local/target/oneread-local.jar"));
        Files.copy(
                engine.root.resolve("local/target/oneread-local.jsa"), root.resolve("local/target/oneread-local.jsa"));

        // WHEN a one-shot command runs through it
        Process process = new ProcessBuilder(root.resolve("oneread").toString(), "token", "--workspaces", "acme")
                .directory(root.toFile())
                .redirectError(dir.resolve("stderr.log").toFile())
                .start();
        String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

        // THEN it works without the archive, and the JVM's refusal went to stderr, not into the token on stdout
        String stderr = Files.readString(dir.resolve("stderr.log"));
        assertThat(process.exitValue()).as(stderr).isZero();
        assertThat(stdout.strip()).matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");
        assertThat(stderr).contains("shared archive");
    }

    private ProcessBuilder launcher(List<String> args) {
        ProcessBuilder builder =
                new ProcessBuilder(engine.root.resolve("oneread").toString());
        builder.command().addAll(args);
        builder.directory(engine.root.toFile());
        builder.environment().put("DYNAMODB_ENDPOINT", engine.endpoint.toString());
        builder.environment().put("TABLE_NAME", TestEngine.TABLE);
        return builder;
    }
}
