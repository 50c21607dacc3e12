package dev.oneread.tests.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.oneread.json.Json;
import dev.oneread.local.runner.FunctionSpec;
import dev.oneread.local.runner.LocalFunction;
import dev.oneread.local.runner.LocalStack;
import dev.oneread.local.runner.TemplateFunctions;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.tests.support.Fixtures;
import dev.oneread.tests.support.Partitions;
import dev.oneread.tests.support.RunnerCommand;
import dev.oneread.tests.support.RunnerCommand.Run;
import dev.oneread.tests.support.TestEngine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code invoke}, as {@code sam local invoke} is used: every file in events/ through the function's own
 * artifact and class loader, against the test engine (DYNAMODB_ENDPOINT) and its table (TABLE_NAME).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LocalRunnerTest {
    private final TestEngine engine = TestEngine.get();
    private final Map<String, String> environment =
            Map.of("DYNAMODB_ENDPOINT", engine.endpoint.toString(), "TABLE_NAME", TestEngine.TABLE);

    private Run run(List<String> args, String stdin) {
        return RunnerCommand.run(environment, stdin, args);
    }

    @BeforeAll
    void seed() {
        Fixtures.seedForEventFiles(engine);
    }

    Stream<Arguments> eventFiles() throws IOException {
        try (Stream<Path> files = Files.list(engine.root.resolve("events"))) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList().stream()
                    .map(file -> {
                        String stem = file.getFileName().toString().replace(".json", "");
                        // events/<module>.json belongs to the function whose CodeUri is functions/<module>/...
                        String function = switch (stem) {
                            case "create-workspace" -> "CreateWorkspace";
                            case "get-workspace" -> "GetWorkspace";
                            case "create-project" -> "CreateProject";
                            case "list-projects" -> "ListProjects";
                            case "get-project" -> "GetProject";
                            case "get-workspace-collection" -> "GetWorkspaceCollection";
                            case "update-workspace" -> "UpdateWorkspace";
                            case "update-project" -> "UpdateProject";
                            case "delete-project" -> "DeleteProject";
                            case "delete-workspace" -> "DeleteWorkspace";
                            case "migrate-hot-tenant" -> "MigrateHotTenant";
                            case "backfill-index" -> "BackfillIndex";
                            case "plan-jobs-stats" -> "PlanJobs"; // events/<module>-<job>.json
                            case "run-job" -> "RunJob";
                            case "list-projects-by-status" -> "ListProjectsByStatus";
                            case "list-workspaces" -> "ListWorkspaces";
                            case "get-hot-tenant-report" -> "GetHotTenantReport";
                            case "add-workspaces-claim" -> "AddWorkspacesClaim";
                            default -> throw new AssertionError("event file without a function: " + file);
                        };
                        return new Arguments(file, function);
                    });
        }
    }

    record Arguments(Path file, String function) {
        @Override
        public String toString() {
            return function + " < " + file.getFileName();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("eventFiles")
    void invoke_shouldRunEveryEventFileThroughItsFunction(Arguments a) {
        // GIVEN a clean slate for the create event
        Fixtures.seedForEventFiles(engine);
        if (a.function().equals("MigrateHotTenant")) {
            // WHEN the job runs for acme as a hot tenant being migrated (its two projects move to 4 shards)
            Run run = run(
                    List.of(
                            "invoke",
                            "MigrateHotTenant",
                            "--event",
                            a.file().toString(),
                            "--parameter-overrides",
                            "HotTenantShards=acme=4",
                            "HotTenantMigrating=acme"),
                    "");
            // THEN it reports done, and acme's partition keeps only the workspace item
            assertThat(run.exitCode()).as(run.stderr()).isZero();
            assertThat(Json.readObject(run.stdout().strip()))
                    .containsEntry("done", true)
                    .containsEntry("moved", 2);
            assertThat(run.stderr()).contains("\"job\":\"MigrateHotTenant\"");
            assertThat(Partitions.items(engine.client, "WS#acme"))
                    .extracting(i -> i.get("Detail").s())
                    .containsExactly("META");
            Fixtures.seedForEventFiles(engine);
            return;
        }
        if (a.function().equals("PlanJobs") || a.function().equals("DeleteWorkspace")) {
            // WHEN the planner, or a workspace's DELETE, runs where no job queue runs (no start-api beside it), THEN
            // it refuses at init, naming what is missing, instead of sending its tasks nowhere
            Run run = run(List.of("invoke", a.function(), "--event", a.file().toString()), "");
            assertThat(run.exitCode()).isEqualTo(1);
            assertThat(run.stdout() + run.stderr()).contains("QUEUE_URL is not set");
            return;
        }
        if (a.function().equals("RunJob")) {
            // WHEN a stats task for acme arrives as the event source mapping delivers it, THEN it succeeds
            Run run = run(List.of("invoke", "RunJob", "--event", a.file().toString()), "");
            assertThat(run.exitCode()).as(run.stderr()).isZero();
            assertThat(Json.readObject(run.stdout().strip())).containsEntry("batchItemFailures", List.of());
            assertThat(run.stderr()).contains("\"job\":\"RunJob\"").contains("\"workspaceId\":\"acme\"");
            return;
        }
        if (a.function().equals("AddWorkspacesClaim")) {
            // WHEN Cognito's V2_0 event for a user whose custom:workspaces is "acme globex" arrives, THEN the event
            // comes back with the claim for the access token
            Run run = run(
                    List.of("invoke", "AddWorkspacesClaim", "--event", a.file().toString()), "");
            assertThat(run.exitCode()).as(run.stderr()).isZero();
            assertThat(run.stdout()).contains("\"claimsToAddOrOverride\":{\"workspaces\":\"acme globex\"}");
            return;
        }
        if (a.function().equals("BackfillIndex")) {
            // WHEN the backfill runs over the whole table, THEN it reads it through and says so, job-style
            Run run = run(List.of("invoke", "BackfillIndex", "--event", a.file().toString()), "");
            assertThat(run.exitCode()).as(run.stderr()).isZero();
            assertThat(Json.readObject(run.stdout().strip())).containsEntry("done", true);
            assertThat(run.stderr()).contains("\"job\":\"BackfillIndex\"");
            return;
        }
        // WHEN
        Run run = run(List.of("invoke", a.function(), "--event", a.file().toString()), "");
        // THEN stdout is the function's response, stderr has its log line and Lambda's REPORT line
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stderr()).startsWith("invoke: using the engine at " + engine.endpoint + " (DYNAMODB_ENDPOINT)");
        Map<String, Object> response = Json.readObject(run.stdout().strip());
        int expected = a.function().startsWith("Create") ? 201 : a.function().startsWith("Delete") ? 204 : 200;
        assertThat(response.get("statusCode")).as(run.stdout()).isEqualTo(expected);
        @SuppressWarnings("unchecked")
        Map<String, String> headers = (Map<String, String>) response.get("headers");
        String calls = switch (a.function()) {
            case "CreateProject" -> "2";
            case "CreateWorkspace" -> "3"; // the event carries an Idempotency-Key: claim, put, complete
            case "ListProjectsByStatus", "ListWorkspaces" -> "8"; // one Query per index shard
            default -> "1";
        };
        assertThat(headers.get("x-dynamo-calls")).isEqualTo(calls);
        assertThat(run.stderr())
                .contains("\"function\":\"" + a.function() + "\"")
                .containsPattern("REPORT RequestId: \\S+\\tDuration: [0-9.]+ ms.*\\tInit Duration: [0-9.]+ ms");
    }

    @Test
    void invoke_shouldReadTheEventFromStdin() throws IOException {
        String event = Files.readString(engine.root.resolve("events/get-project.json"));

        Run run = run(List.of("invoke", "GetProject", "--event", "-"), event);

        assertThat(run.exitCode()).isZero();
        assertThat(Json.readObject(run.stdout().strip())).containsEntry("statusCode", 200);
    }

    @Test
    void invoke_shouldFailClearly_forAnUnknownFunctionOrAnUnreadableEvent() {
        String event = engine.root.resolve("events/get-project.json").toString();
        Run unknown = run(List.of("invoke", "NoSuchFunction", "--event", event), "");
        Run unreadable = run(List.of("invoke", "GetProject", "--event", "/no/such/event.json"), "");
        Run noEvent = run(List.of("invoke", "GetProject"), "");

        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.stderr()).contains("no function NoSuchFunction in template.yaml", "GetProject");
        assertThat(unknown.stdout()).isEmpty();
        assertThat(unreadable.exitCode()).isEqualTo(1);
        assertThat(unreadable.stderr()).contains("cannot read event /no/such/event.json");
        assertThat(noEvent.exitCode()).isEqualTo(2);
        assertThat(noEvent.stderr()).contains("Missing required option", "--event");
    }

    @Test
    void invoke_shouldExit1BeforeAnyFunctionRuns_whenTheEventIsNotJson(@TempDir Path dir) throws IOException {
        // GIVEN event files that are not one JSON object: today's bug was an exit 0 and a function blaming the body
        Path truncated = Files.writeString(dir.resolve("truncated.json"), "{\"version\": \"2.0\", ");
        Path trailing = Files.writeString(dir.resolve("trailing.json"), "{\"workspaceId\": \"acme\"} {}");
        Path text = Files.writeString(dir.resolve("text.json"), "GET /workspaces/acme");
        for (Path event : List.of(truncated, trailing, text)) {
            // WHEN
            Run run = run(List.of("invoke", "GetWorkspace", "--event", event.toString()), "");
            // THEN
            assertThat(run.exitCode()).as(event.toString()).isEqualTo(1);
            assertThat(run.stderr())
                    .contains("invoke: event is not valid JSON", event.toString())
                    .doesNotContain("START RequestId");
            assertThat(run.stdout()).isEmpty();
        }
        Run fromStdin = run(List.of("invoke", "GetWorkspace", "--event", "-"), "not json");
        assertThat(fromStdin.exitCode()).isEqualTo(1);
        assertThat(fromStdin.stderr()).contains("event is not valid JSON", "standard input");
    }

    @Test
    void eachFunction_shouldSeeOnlyItsOwnArtifact() {
        // GIVEN GetWorkspace's zip, asked for a class that only ListProjects' zip holds. This test JVM has that
        // class on its classpath, so if the runner let the function loader see the runner's classpath, it would load.
        FunctionSpec getWorkspace = getWorkspaceSpec();
        FunctionSpec wrongHandler = new FunctionSpec(
                "GetWorkspace",
                "dev.oneread.functions.listprojects.ListProjectsFunction::handleRequest",
                getWorkspace.codeUri(),
                getWorkspace.memoryMb(),
                getWorkspace.timeoutSeconds(),
                getWorkspace.environment(),
                List.of(),
                Map.of());
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (LocalFunction function = new LocalFunction(wrongHandler, environment, new PrintStream(log))) {
            // WHEN / THEN
            assertThatThrownBy(() -> function.invoke("{}".getBytes(StandardCharsets.UTF_8)))
                    .hasMessageContaining("ClassNotFoundException")
                    .hasMessageContaining("ListProjectsFunction");
        }
    }

    @Test
    void functionsOfOneStack_shouldNotShareStaticState() {
        // Two functions, two loaders: the same shared class is two distinct classes, as in two Lambda environments.
        try (LocalStack stack = LocalStack.start(
                engine.root,
                LocalStack.Settings.fromEnvironment(environment, Map.of(), null, false),
                new PrintStream(new ByteArrayOutputStream()))) {
            LocalFunction a = stack.functions().get("GetWorkspace");
            LocalFunction b = stack.functions().get("GetProject");
            a.invoke(eventFor("GET /workspaces/{workspaceId}", "/workspaces/acme", Map.of("workspaceId", "acme")));
            b.invoke(eventFor(
                    "GET /workspaces/{workspaceId}/projects/{projectId}",
                    "/workspaces/acme/projects/" + Fixtures.PROJECT,
                    Map.of("workspaceId", "acme", "projectId", Fixtures.PROJECT)));

            assertThat(a.loadedClass("dev.oneread.runtime.DynamoDbClients"))
                    .isNotSameAs(b.loadedClass("dev.oneread.runtime.DynamoDbClients"))
                    .isNotSameAs(dev.oneread.runtime.DynamoDbClients.class);
            // The SDK, which keeps no state of a function's own, is the runner's: loaded once per JVM, not once per
            // function, because the functions' jars hold it byte for byte.
            assertThat(a.loadedClass(DYNAMODB_CLIENT))
                    .isSameAs(b.loadedClass(DYNAMODB_CLIENT))
                    .isSameAs(software.amazon.awssdk.services.dynamodb.DynamoDbClient.class);
        }
    }

    @Test
    void aFunctionJarThatDiffersFromTheRunners_shouldComeFromTheFunctionsArtifact(@TempDir Path dir)
            throws IOException {
        // GIVEN GetWorkspace's artifact whose DynamoDB jar holds one class more than the runner's copy (another
        // version of the SDK, as far as the runner can tell)
        Path zip = dir.resolve("get-workspace-other-sdk.zip");
        withExtraClassInDynamoDbJar(getWorkspaceSpec().codeUri(), zip);
        try (LocalFunction function = getWorkspaceFrom(zip)) {
            // WHEN it runs
            LocalFunction.Result result = function.invoke(GET_ACME);

            // THEN it works, on its own copy of that jar, and still on the runner's copy of the jars that match
            assertThat(result.failed()).as(result.responseText()).isFalse();
            assertThat(function.loadedClass(DYNAMODB_CLIENT))
                    .isNotSameAs(software.amazon.awssdk.services.dynamodb.DynamoDbClient.class);
            assertThat(function.loadedClass("software.amazon.awssdk.core.SdkClient"))
                    .isSameAs(software.amazon.awssdk.core.SdkClient.class);
        }
    }

    @Test
    void functionsUnpackingOneBuildAtOnce_shouldAllStart(@TempDir Path dir) throws Exception {
        // GIVEN a build of GetWorkspace's zip no runner has unpacked yet, and four environments of it
        Path zip = dir.resolve("get-workspace.zip");
        Files.copy(getWorkspaceSpec().codeUri(), zip);
        List<LocalFunction> functions = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            functions.add(getWorkspaceFrom(zip));
        }
        ExecutorService threads = Executors.newFixedThreadPool(functions.size());
        try {
            // WHEN all four start at once, each unpacking the zip (one wins; the others use its directory)
            List<Future<LocalFunction.Result>> results = new ArrayList<>();
            for (LocalFunction function : functions) {
                results.add(threads.submit(() -> function.invoke(GET_ACME)));
            }

            // THEN every one of them answers
            for (Future<LocalFunction.Result> result : results) {
                assertThat(result.get(60, TimeUnit.SECONDS).failed()).isFalse();
            }
        } finally {
            threads.shutdownNow();
            functions.forEach(LocalFunction::close);
        }
    }

    private static final String DYNAMODB_CLIENT = "software.amazon.awssdk.services.dynamodb.DynamoDbClient";
    private static final byte[] GET_ACME =
            eventFor("GET /workspaces/{workspaceId}", "/workspaces/acme", Map.of("workspaceId", "acme"));

    private FunctionSpec getWorkspaceSpec() {
        return new TemplateFunctions(
                        SamTemplate.load(engine.root.resolve("template.yaml")),
                        engine.root,
                        Map.of(),
                        Map.of("Table", TestEngine.TABLE))
                .functions()
                .get("GetWorkspace");
    }

    /** GetWorkspace from another zip, in an environment as the runner gives it. */
    private LocalFunction getWorkspaceFrom(Path zip) {
        FunctionSpec getWorkspace = getWorkspaceSpec();
        FunctionSpec fromZip = new FunctionSpec(
                getWorkspace.logicalId(),
                getWorkspace.handler(),
                zip,
                getWorkspace.memoryMb(),
                getWorkspace.timeoutSeconds(),
                getWorkspace.environment(),
                List.of(),
                Map.of());
        Map<String, String> functionEnvironment = new HashMap<>(environment);
        functionEnvironment.putAll(
                Map.of("AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", "local", "AWS_SECRET_ACCESS_KEY", "local"));
        return new LocalFunction(fromZip, functionEnvironment, new PrintStream(new ByteArrayOutputStream()));
    }

    /** A copy of {@code source} whose lib/dynamodb-*.jar carries one more (never loaded) class. */
    private static void withExtraClassInDynamoDbJar(Path source, Path target) throws IOException {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(source));
                ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(target))) {
            boolean rewritten = false;
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                out.putNextEntry(new ZipEntry(entry.getName()));
                byte[] bytes = in.readAllBytes();
                if (entry.getName().matches("lib/dynamodb-[0-9.]+\\.jar")) {
                    bytes = withExtraEntry(bytes, "software/amazon/awssdk/services/dynamodb/NotInTheRunner.class");
                    rewritten = true;
                }
                out.write(bytes);
                out.closeEntry();
            }
            assertThat(rewritten).as("a lib/dynamodb jar in " + source).isTrue();
        }
    }

    private static byte[] withExtraEntry(byte[] jar, String name) throws IOException {
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(jar));
                ZipOutputStream out = new ZipOutputStream(copy)) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                out.putNextEntry(new ZipEntry(entry.getName()));
                in.transferTo(out);
                out.closeEntry();
            }
            out.putNextEntry(new ZipEntry(name));
            out.write(new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE});
            out.closeEntry();
        }
        return copy.toByteArray();
    }

    private static byte[] eventFor(String routeKey, String path, Map<String, String> parameters) {
        return Json.write(Map.of(
                        "version",
                        "2.0",
                        "routeKey",
                        routeKey,
                        "rawPath",
                        path,
                        "pathParameters",
                        parameters,
                        "requestContext",
                        Map.of("http", Map.of("method", "GET"))))
                .getBytes(StandardCharsets.UTF_8);
    }
}
