package dev.oneread.tests.support;

import dev.oneread.json.Json;
import dev.oneread.local.cli.Main;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** The runner's command line, run in this JVM as {@code java -jar local/target/oneread-local.jar} runs it. */
public final class RunnerCommand {
    private RunnerCommand() {}

    /** What one command did: its exit code and everything it printed. */
    public record Run(int exitCode, String stdout, String stderr) {
        /** stdout as the JSON object a function returned. */
        public Map<String, Object> response() {
            return Json.readObject(stdout.strip());
        }

        /** The function's HTTP status, from its response on stdout. */
        public int status() {
            return ((Number) response().get("statusCode")).intValue();
        }
    }

    public static Run run(Map<String, String> environment, String stdin, List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(
                args,
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                environment);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    public static Run run(Map<String, String> environment, String... args) {
        return run(environment, "", List.of(args));
    }

    /**
     * {@code invoke GetWorkspace --event events/get-workspace.json --state-file FILE} and {@code options}: the sample
     * workspace read, in the world the state file names.
     */
    public static Run invokeGetWorkspace(java.nio.file.Path root, java.nio.file.Path stateFile, String... options) {
        List<String> args = new java.util.ArrayList<>(List.of(
                "invoke",
                "GetWorkspace",
                "--event",
                root.resolve("events/get-workspace.json").toString(),
                "--state-file",
                stateFile.toString()));
        args.addAll(List.of(options));
        return run(Map.of(), "", args);
    }
}
