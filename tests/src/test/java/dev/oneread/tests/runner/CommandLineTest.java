package dev.oneread.tests.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.auth.JwtAuthorizer;
import dev.oneread.local.auth.LocalJwt;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.RunnerCommand;
import dev.oneread.tests.support.RunnerCommand.Run;
import dev.oneread.tests.support.StartsProcesses;
import dev.oneread.tests.support.TestEngine;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The runner's command line itself: help, typed options, and one clear line for what it refuses. */
class CommandLineTest {

    private static Run run(String... args) {
        return RunnerCommand.run(Map.of(), args);
    }

    @Test
    void help_shouldPrintTheUsageOfEveryCommandAndExit0() {
        // WHEN
        Run top = run("--help");
        Run startApi = run("start-api", "--help");
        Run invoke = run("invoke", "--help");
        Run expr = run("expr", "--help");
        // THEN each prints its own usage on stdout, nothing on stderr
        assertThat(top.exitCode()).isZero();
        assertThat(top.stdout())
                .contains("usage: oneread-local", "start-api", "invoke", "seed", "token", "expr", "DYNAMODB_ENDPOINT");
        assertThat(startApi.exitCode()).isZero();
        assertThat(startApi.stdout())
                .contains(
                        "usage: oneread-local start-api",
                        "--port",
                        "--parameter-overrides",
                        "--data-dir",
                        "--state-file",
                        "--no-seed",
                        "--partition-limits");
        assertThat(invoke.exitCode()).isZero();
        assertThat(invoke.stdout()).contains("FunctionLogicalId", "--event", "--own-engine", "--parameter-overrides");
        assertThat(expr.exitCode()).isZero();
        assertThat(expr.stdout()).contains("usage: expr query --pk NAME=VALUE", "expr list-projects --workspace ID");
        assertThat(top.stderr() + startApi.stderr() + invoke.stderr() + expr.stderr())
                .isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "start-api --bogus | Unknown option: '--bogus'",
                "invoke GetWorkspace --event x.json --bogus | Unknown option: '--bogus'",
                "token --admin --bogus | Unknown option: '--bogus'",
                "seed --bogus | Unknown option: '--bogus'",
                "--bogus | Unknown option: '--bogus'",
                "start-api --port 70000 | Invalid value for option '--port'",
                "start-api --port x | Invalid value for option '--port'",
                "token --admin --ttl 2x | Invalid value for option '--ttl'",
                "token --admin --ttl 0s | Invalid value for option '--ttl'",
                "invoke GetWorkspace --event x.json --parameter-overrides HotTenantShards | option '--parameter-overrides'",
                "start-api --partition-limits x | Invalid value for option '--partition-limits'",
                "start-api --partition-limits -0.5 | Invalid value for option '--partition-limits'",
                "seed --partition-limits NaN | Invalid value for option '--partition-limits'"
            })
    void unknownOptionsAndBadValues_shouldExit2WithOneLineNamingThem(String args, String message) {
        // WHEN
        Run run = run(args.split(" "));
        // THEN
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stdout()).isEmpty();
        assertThat(run.stderr().lines()).hasSize(1);
        assertThat(run.stderr()).contains(message, "--help");
    }

    @Test
    void noCommand_shouldPrintTheUsageOnStderrAndExit2() {
        Run run = run();

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stdout()).isEmpty();
        assertThat(run.stderr()).contains("usage: oneread-local");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ACME", "acme,Globex", "acme#01", "-acme", "acme,,globex"})
    void token_shouldRefuseAnIdThatIsNotAWorkspaceSlug(String workspaces) {
        // WHEN
        Run run = run("token", "--workspaces", workspaces);
        // THEN no token is printed: it would carry a claim no route can ever authorize
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stdout()).isEmpty();
        assertThat(run.stderr()).startsWith("token: ").contains("is not a workspace id");
    }

    @Test
    void token_shouldPrintATokenTheLocalAuthorizerAccepts() {
        // WHEN
        Run run = run("token", "--workspaces", "acme,globex", "--sub", "dev-1", "--ttl", "15m");
        // THEN
        assertThat(run.exitCode()).isZero();
        JwtAuthorizer authorized = new LocalJwt(
                        LocalJwt.DEFAULT_ISSUER,
                        LocalJwt.DEFAULT_AUDIENCE,
                        LocalApi.signingKey(TestEngine.get()),
                        Clock.systemUTC())
                .authorize("Bearer " + run.stdout().strip())
                .orElseThrow();
        assertThat(authorized.claims())
                .containsEntry("workspaces", "acme globex")
                .containsEntry("sub", "dev-1");
        assertThat(Long.parseLong(authorized.claims().get("exp"))
                        - Long.parseLong(authorized.claims().get("iat")))
                .isEqualTo(900);
    }

    @Test
    void token_shouldNeedWorkspacesOrAdmin() {
        Run run = run("token");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("token needs --workspaces and/or --admin");
    }

    @StartsProcesses
    @ParameterizedTest
    @CsvSource({"PlanJobs, plan-jobs-stats.json, JobQueue", "DeleteWorkspace, delete-workspace.json, JobQueue"})
    void invoke_shouldSayInOneLineToRunBesideStartApi_whenTheFunctionNeedsAQueueThisRunLacks(
            String function, String event, String queue, @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        // GIVEN the runnable jar as a user runs it, on an engine but with no start-api (so no queues) beside it
        TestEngine engine = TestEngine.get();
        ProcessBuilder builder = new ProcessBuilder(
                        "java",
                        "-jar",
                        engine.root.resolve("local/target/oneread-local.jar").toString(),
                        "invoke",
                        function,
                        "--event",
                        engine.root.resolve("events").resolve(event).toString(),
                        "--state-file",
                        dir.resolve("none.json").toString())
                .directory(engine.root.toFile());
        builder.environment().put("DYNAMODB_ENDPOINT", engine.endpoint.toString());
        builder.environment().put("TABLE_NAME", TestEngine.TABLE);
        // WHEN
        Process process = builder.start();
        process.getOutputStream().close();
        String stdout = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        String stderr = new String(process.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        // THEN it fails (exit 1) with one line that names the queue and what to do, and no stack trace
        assertThat(process.exitValue()).as(stderr).isEqualTo(1);
        assertThat(stdout).isEmpty();
        assertThat(stderr).as(stderr).doesNotContain("\tat ", "Exception");
        java.util.List<String> lines = stderr.lines().toList();
        assertThat(lines.get(lines.size() - 1))
                .as(stderr)
                .startsWith("invoke: " + function + " needs the template's " + queue)
                .contains("start-api");
    }

    @ParameterizedTest
    @ValueSource(strings = {"start-api", "invoke", "seed"})
    void partitionLimits_shouldBeRefused_whenDynamoDbEndpointNamesAnotherEngine(String command) {
        // GIVEN an engine this command does not start: its limits are its own (DynamoDB's, or none at all)
        // WHEN
        Run run = withAnotherEngine(command, "--partition-limits", "0.05");
        // THEN exit 2 and one line, before anything starts (the endpoint is a closed port: nothing was called)
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(2);
        assertThat(run.stdout()).isEmpty();
        assertThat(run.stderr().lines().toList())
                .containsExactly(command + ": --partition-limits applies only to an engine started here, not to the"
                        + " engine at DYNAMODB_ENDPOINT at http://127.0.0.1:1, whose limits are its own");
    }

    @ParameterizedTest
    @ValueSource(strings = {"start-api", "invoke", "seed"})
    void indexLag_shouldBeRefused_whenDynamoDbEndpointNamesAnotherEngine(String command) {
        // GIVEN an engine this command does not start: its indexes lag as they do (DynamoDB's, within a second)
        // WHEN
        Run run = withAnotherEngine(command, "--index-lag", "1000");
        // THEN exit 2 and one line, before anything starts
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(2);
        assertThat(run.stdout()).isEmpty();
        assertThat(run.stderr().lines().toList())
                .containsExactly(command + ": --index-lag applies only to an engine started here, not to the"
                        + " engine at DYNAMODB_ENDPOINT at http://127.0.0.1:1, whose indexes lag as they do");
    }

    /** {@code command} with one engine option, beside DYNAMODB_ENDPOINT naming a closed port. */
    private static Run withAnotherEngine(String command, String option, String value) {
        Map<String, String> environment = Map.of("DYNAMODB_ENDPOINT", "http://127.0.0.1:1");
        List<String> args = new ArrayList<>(List.of(command, option, value));
        if (command.equals("invoke")) {
            args.addAll(List.of("GetWorkspace", "--event", "-"));
        }
        return RunnerCommand.run(environment, "{}", args);
    }

    @StartsProcesses
    @Test
    void invoke_shouldStartItsOwnEngineWithTheIndexLagGiven(@TempDir Path dir) {
        // WHEN invoke starts an engine of its own whose indexes do not lag
        Run run = RunnerCommand.invokeGetWorkspace(
                TestEngine.get().root, dir.resolve("none.json"), "--own-engine", "--index-lag", "0");
        // THEN the engine's line says so, and the function answers as ever
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stderr().lines())
                .anyMatch(line -> line.startsWith("dynalite listening on http://127.0.0.1:")
                        && line.endsWith(", index lag off)"));
        assertThat(run.status()).isEqualTo(200);
    }

    @Test
    void indexLag_shouldBeRefused_whenItIsNoWholeNumberOfMilliseconds(@TempDir Path dir) {
        // WHEN
        Run run = RunnerCommand.invokeGetWorkspace(
                TestEngine.get().root, dir.resolve("none.json"), "--own-engine", "--index-lag", "0.5s");
        // THEN exit 2, with what it takes
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(2);
        assertThat(run.stderr()).contains("'0.5s' is not a lag in whole milliseconds >= 0");
    }

    @StartsProcesses
    @Test
    void invoke_shouldStartItsOwnEngineWithThePartitionLimitsGiven(@TempDir Path dir) {
        // WHEN invoke starts an engine of its own at 1/20 of DynamoDB's limits
        Run run = RunnerCommand.invokeGetWorkspace(
                TestEngine.get().root, dir.resolve("none.json"), "--own-engine", "--partition-limits", "0.05");
        // THEN the engine's line says so, with the limits in units, and the function answers as ever
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stderr().lines())
                .anyMatch(line -> line.startsWith("dynalite listening on http://127.0.0.1:")
                        && line.endsWith(" (in memory, partition limits 0.05 x DynamoDB's (150 RCU, 50 WCU per second"
                                + " per partition key), index lag 500 ms)"));
        assertThat(run.status()).isEqualTo(200);
    }
}
