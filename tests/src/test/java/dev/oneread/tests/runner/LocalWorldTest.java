package dev.oneread.tests.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.local.cli.StartApi;
import dev.oneread.local.cli.StartApiState;
import dev.oneread.local.runner.LocalStack;
import dev.oneread.tests.support.Fixtures;
import dev.oneread.tests.support.RunnerCommand;
import dev.oneread.tests.support.RunnerCommand.Run;
import dev.oneread.tests.support.StartsProcesses;
import dev.oneread.tests.support.TestEngine;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One local world: {@code invoke} finds a running start-api through its state file and works on its engine,
 * table and parameters, so every file in events/ gets the answer docs/local-runner.md documents for it. Here start-api
 * runs in this JVM (on the test engine, in a table of its own); invoke runs as the command line runs it,
 * without DYNAMODB_ENDPOINT, so the state file is all it has to go on.
 */
class LocalWorldTest {
    /** A row of docs/local-runner.md's events table: {@code | `events/x.json` | Function | `200` | ... again: `412` |}. */
    private static final Pattern ROW =
            Pattern.compile("^\\| `events/([a-z-]+\\.json)` \\| (\\w+) \\| `(\\d{3}|exit \\d)` \\|(.*)\\|$");

    private static final Pattern AGAIN = Pattern.compile("again: `(\\d{3})`");
    private static final Map<String, String> SHARDED =
            Map.of("HotTenantShards", "acme=4", "HotTenantMigrating", "acme");

    private final TestEngine engine = TestEngine.get();
    private final PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());

    /** What docs/local-runner.md promises for one event file on a fresh start-api, and on a second run if it says. */
    record DocumentedAnswer(String file, String function, String answer, String again) {}

    private StartApi startApi(Path stateFile, String table, Map<String, String> overrides) throws IOException {
        return StartApi.start(
                engine.root,
                new LocalStack.Settings(engine.endpoint, null, table, overrides, true)
                        .withQueues(LocalStack.Queues.OWN), // as the start-api command runs: with its job queues
                0,
                stateFile,
                quiet);
    }

    private static String freshTable() {
        return "oneread-world-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private Run invoke(Path stateFile, String function, String eventFile, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "invoke",
                function,
                "--event",
                engine.root.resolve("events").resolve(eventFile).toString(),
                "--state-file",
                stateFile.toString()));
        args.addAll(List.of(more));
        return RunnerCommand.run(Map.of(), "", args);
    }

    private List<DocumentedAnswer> documented() throws IOException {
        List<DocumentedAnswer> rows = new ArrayList<>();
        for (String line : Files.readAllLines(engine.root.resolve("docs/local-runner.md"), StandardCharsets.UTF_8)) {
            Matcher row = ROW.matcher(line);
            if (row.matches()) {
                Matcher again = AGAIN.matcher(row.group(4));
                rows.add(new DocumentedAnswer(
                        row.group(1), row.group(2), row.group(3), again.find() ? again.group(1) : null));
            }
        }
        return rows;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> items(Run run) {
        return (List<Object>)
                Json.readObject((String) run.response().get("body")).get("items");
    }

    @Test
    void everyEventFile_shouldGiveItsDocumentedAnswer_throughInvokeAgainstARunningStartApi(@TempDir Path dir)
            throws IOException {
        // GIVEN docs/local-runner.md's table covers every file in events/, and a fresh start-api with the sample data
        List<DocumentedAnswer> answers = documented();
        try (Stream<Path> files = Files.list(engine.root.resolve("events"))) {
            assertThat(answers)
                    .extracting(DocumentedAnswer::file)
                    .containsExactlyInAnyOrderElementsOf(
                            files.map(f -> f.getFileName().toString())
                                    .filter(f -> f.endsWith(".json"))
                                    .toList());
        }
        Path stateFile = dir.resolve("start-api.json");
        try (StartApi api = startApi(stateFile, freshTable(), Map.of())) {
            long pid = ProcessHandle.current().pid();
            for (DocumentedAnswer answer : answers) {
                // WHEN
                Run run = invoke(stateFile, answer.function(), answer.file());
                // THEN it says it used start-api's engine, and gets the documented answer
                assertThat(run.stderr())
                        .as(answer.file())
                        .startsWith("invoke: using the engine of start-api (pid " + pid + ", http://127.0.0.1:"
                                + api.port());
                if (answer.answer().startsWith("exit ")) {
                    assertThat(run.exitCode())
                            .as(answer.file() + "\n" + run.stderr())
                            .isEqualTo(Integer.parseInt(answer.answer().substring(5)));
                    continue;
                }
                assertThat(run.exitCode())
                        .as(answer.file() + "\n" + run.stderr())
                        .isZero();
                assertThat(run.status())
                        .as(answer.file() + "\n" + run.stdout())
                        .isEqualTo(Integer.parseInt(answer.answer()));
                if (answer.again() != null) {
                    Run again = invoke(stateFile, answer.function(), answer.file());
                    assertThat(again.status())
                            .as(answer.file() + " again\n" + again.stdout())
                            .isEqualTo(Integer.parseInt(answer.again()));
                }
            }
        }
        // and start-api took its state file with it
        assertThat(stateFile).doesNotExist();
    }

    @Test
    void invoke_shouldRefuse_whenItsParameterOverridesDifferFromTheRunningStartApis(@TempDir Path dir)
            throws IOException {
        // GIVEN start-api running unsharded
        Path stateFile = dir.resolve("start-api.json");
        try (StartApi ignored = startApi(stateFile, freshTable(), Map.of())) {
            // WHEN the migration is invoked with a shard plan start-api does not have (what emptied its lists)
            Run refused = invoke(
                    stateFile,
                    "MigrateHotTenant",
                    "migrate-hot-tenant.json",
                    "--parameter-overrides",
                    "HotTenantShards=acme=4",
                    "HotTenantMigrating=acme");
            // THEN invoke refuses before the function runs, and says what differs and what to do
            assertThat(refused.exitCode()).isEqualTo(2);
            assertThat(refused.stdout()).isEmpty();
            assertThat(refused.stderr())
                    .doesNotContain("START RequestId")
                    .contains(
                            "the running start-api (pid "
                                    + ProcessHandle.current().pid() + ") has other parameters",
                            "HotTenantShards is \"\" there, \"acme=4\" here",
                            "HotTenantMigrating is \"\" there, \"acme\" here",
                            "Restart start-api with these --parameter-overrides");
            // and start-api's lists still show both sample projects
            Run list = invoke(stateFile, "ListProjects", "list-projects.json");
            assertThat(list.status()).isEqualTo(200);
            assertThat(items(list)).hasSize(2);
            // while overrides equal to start-api's own are fine
            Run same =
                    invoke(stateFile, "GetWorkspace", "get-workspace.json", "--parameter-overrides", "ReadAudit=true");
            assertThat(same.exitCode()).as(same.stderr()).isZero();
            assertThat(same.status()).isEqualTo(200);
        }
    }

    @Test
    void migrateHotTenant_shouldMoveTheSampleProjects_whenStartApiRunsWithTheShardPlan(@TempDir Path dir)
            throws IOException {
        // GIVEN the sample data written unsharded, then start-api restarted with acme as a hot tenant being migrated
        Path stateFile = dir.resolve("start-api.json");
        String table = freshTable();
        startApi(stateFile, table, Map.of()).close();
        try (StartApi ignored = startApi(stateFile, table, SHARDED)) {
            // WHEN the job runs with no overrides of its own: it takes start-api's
            Run migrated = invoke(stateFile, "MigrateHotTenant", "migrate-hot-tenant.json");
            // THEN both projects moved, and start-api's lists (which read the shards) still show them
            assertThat(migrated.exitCode()).as(migrated.stderr()).isZero();
            assertThat(migrated.response()).containsEntry("done", true).containsEntry("moved", 2);
            Run list = invoke(stateFile, "ListProjects", "list-projects.json");
            assertThat(list.status()).isEqualTo(200);
            assertThat(items(list)).hasSize(2);
        }
    }

    @Test
    void seed_shouldBringBackWhatWasDeletedAndNeverOverwrite(@TempDir Path dir) throws IOException {
        // GIVEN a sample project deleted and the workspace changed through start-api's engine
        Path stateFile = dir.resolve("start-api.json");
        try (StartApi ignored = startApi(stateFile, freshTable(), Map.of())) {
            assertThat(invoke(stateFile, "DeleteProject", "delete-project.json").status())
                    .isEqualTo(204);
            assertThat(invoke(stateFile, "UpdateWorkspace", "update-workspace.json")
                            .status())
                    .isEqualTo(200);
            // WHEN
            Run seed = RunnerCommand.run(Map.of(), "seed", "--state-file", stateFile.toString());
            // THEN the deleted project is back, the changed workspace is not reset
            assertThat(seed.exitCode()).as(seed.stderr()).isZero();
            assertThat(seed.stderr()).startsWith("seed: using the engine of start-api");
            assertThat(seed.stdout())
                    .contains(
                            "created project " + Fixtures.PROJECT_TO_DELETE,
                            "already there, left as they are: workspace acme, project " + Fixtures.PROJECT);
            assertThat(invoke(stateFile, "DeleteProject", "delete-project.json").status())
                    .isEqualTo(204);
            Run workspace = invoke(stateFile, "GetWorkspace", "get-workspace.json");
            assertThat(((Map<?, ?>) workspace.response().get("headers")).get("etag"))
                    .isEqualTo("\"2\"");
        }
    }

    @Test
    void aSecondStartApi_shouldLeaveTheFirstOneRegistered(@TempDir Path dir) throws IOException {
        // GIVEN a start-api registered in the state file
        Path stateFile = dir.resolve("start-api.json");
        try (StartApi first = startApi(stateFile, freshTable(), Map.of())) {
            // WHEN a second one starts, and stops
            try (StartApi second = startApi(stateFile, freshTable(), Map.of())) {
                Run run = invoke(stateFile, "GetWorkspace", "get-workspace.json");
                // THEN invoke keeps talking to the first one, before and after
                assertThat(run.stderr())
                        .contains("http://127.0.0.1:" + first.port() + ")")
                        .doesNotContain("http://127.0.0.1:" + second.port() + ")");
            }
            assertThat(StartApiState.read(stateFile))
                    .hasValueSatisfying(
                            state -> assertThat(state.api().getPort()).isEqualTo(first.port()));
        }
    }

    @Test
    void seed_shouldRefuse_whenThereIsNoEngineToKeepTheData(@TempDir Path dir) {
        Run seed = RunnerCommand.run(
                Map.of(), "seed", "--state-file", dir.resolve("none.json").toString());

        assertThat(seed.exitCode()).isEqualTo(1);
        assertThat(seed.stderr()).startsWith("seed: no start-api runs");
    }

    @StartsProcesses
    @Test
    void invoke_shouldUseAnEngineOfItsOwnWithTheSampleData_whenTheStartApiInTheStateFileIsGone(@TempDir Path dir)
            throws Exception {
        // GIVEN state files left by a start-api that was killed, and by one whose pid now belongs to another process
        Path stateFile = dir.resolve("start-api.json");
        try (StartApi ignored = startApi(stateFile, freshTable(), Map.of())) {
            Map<String, Object> live = Json.readObject(Files.readString(stateFile));
            Process finished = new ProcessBuilder("true").start();
            finished.waitFor();
            Map<String, Object> killed = new LinkedHashMap<>(live);
            killed.put("pid", finished.pid());
            Map<String, Object> reused = new LinkedHashMap<>(live);
            reused.put("processStart", "2001-01-01T00:00:00Z");
            for (Map<String, Object> stale : List.of(killed, reused)) {
                Path file = dir.resolve(UUID.randomUUID() + ".json");
                Files.writeString(file, Json.write(stale));
                assertThat(StartApiState.read(file))
                        .hasValueSatisfying(state -> assertThat(state.isAlive()).isFalse());
                // WHEN
                Run run = invoke(file, "GetWorkspace", "get-workspace.json");
                // THEN it says so, and its own engine holds the sample data the event expects
                assertThat(run.exitCode()).as(run.stderr()).isZero();
                assertThat(run.stderr())
                        .startsWith("invoke: using an engine of its own (in memory, table oneread), since"
                                + " the start-api in " + file + " (pid " + stale.get("pid") + ") no longer runs");
                assertThat(run.status()).isEqualTo(200);
            }
            // and --own-engine ignores a live one
            Run own = invoke(stateFile, "GetWorkspace", "get-workspace.json", "--own-engine");
            assertThat(own.stderr()).contains("an engine of its own", "not the engine of start-api");
            assertThat(own.status()).isEqualTo(200);
        }
    }
}
