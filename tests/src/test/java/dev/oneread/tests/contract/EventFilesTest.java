package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.runner.LocalQueues;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Fixtures;
import dev.oneread.tests.support.Lambda;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs every file in events/ through the function template.yaml routes it to, exactly as {@code sam local
 * invoke <Function> -e events/<file>} would, against fixture data: workspace {@code acme} with project
 * {@code 01JDQ6V7K4N3M2P1R0S9T8V7W6}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EventFilesTest {
    private final Api api = new Api();
    private final Path events = api.engine.root.resolve("events");
    private final SamTemplate template = SamTemplate.load(api.engine.root.resolve("template.yaml"));

    @BeforeAll
    void seedFixtures() {
        Fixtures.seedForEventFiles(api.engine);
    }

    /** The API Gateway events (a job's event, such as migrate-hot-tenant.json, has no routeKey). */
    Stream<Path> eventFiles() throws IOException {
        try (Stream<Path> files = Files.list(events)) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList().stream()
                    .filter(p -> readRouteKey(p) != null);
        }
    }

    private static String readRouteKey(Path file) {
        try {
            return (String) dev.oneread.json.Json.readObject(Files.readString(file, StandardCharsets.UTF_8))
                    .get("routeKey");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("eventFiles")
    void eventFile_shouldGetASuccessfulResponseFromItsFunction(Path file) throws IOException {
        // GIVEN the function whose route matches the event's routeKey
        String event = Files.readString(file, StandardCharsets.UTF_8);
        String routeKey = (String) dev.oneread.json.Json.readObject(event).get("routeKey");
        String function = functionForRoute(routeKey);
        // WHEN
        Lambda.Response response;
        if (function.equals("DeleteWorkspace")) {
            // delete-workspace.json deletes globex, which create-workspace.json creates; its purge task goes to a
            // job queue of its own here (nothing works it: the fixtures are seeded again below)
            try (LocalQueues queues = LocalQueues.start(template, "events", Duration.ofSeconds(30))) {
                api.withJobQueue(queues.client(), queues.url("JobQueue"), Duration.ofSeconds(12));
                assertThat(api.createWorkspace("globex", "Globex").status()).isEqualTo(201);
                response = Lambda.invoke(api.handlers.get(function), event);
            }
        } else {
            response = Lambda.invoke(api.handlers.get(function), event);
        }
        // THEN
        Fixtures.seedForEventFiles(api.engine);
        int expected = function.startsWith("Create")
                ? 201
                : function.equals("DeleteWorkspace") ? 202 : function.startsWith("Delete") ? 204 : 200;
        assertThat(response.status()).as(response.body()).isEqualTo(expected);
        if (expected != 204) {
            assertThat(response.contentType()).isEqualTo("application/json");
        }
        // create-workspace.json carries an Idempotency-Key: claim, put, complete.
        // The operators' listings read every shard of the cross-workspace index (IndexShards, 8 by default), and
        // in a second round, when the first (each shard's share of the page and a margin) fell short, those shards
        // that can still reach the page.
        if (function.equals("ListProjectsByStatus") || function.equals("ListWorkspaces")) {
            assertThat(response.dynamoCalls()).isBetween(8, 16);
        } else {
            int expectedCalls = function.equals("CreateProject") ? 2 : function.equals("CreateWorkspace") ? 3 : 1;
            assertThat(response.dynamoCalls()).isEqualTo(expectedCalls);
        }
        if (function.equals("GetProject")) {
            assertThat(response.json()).containsEntry("id", Fixtures.PROJECT).containsEntry("workspaceId", "acme");
        }
    }

    @Test
    void everyFunction_shouldHaveAnEventFileNamedAfterItsModule() throws IOException {
        List<String> stems;
        try (Stream<Path> files = Files.list(events)) {
            stems = files.map(f -> f.getFileName().toString().replace(".json", ""))
                    .toList();
        }
        for (Map.Entry<String, Map<String, Object>> f :
                template.resourcesOfType("AWS::Serverless::Function").entrySet()) {
            String module = String.valueOf(
                            SamTemplate.map(f.getValue().get("Properties")).get("CodeUri"))
                    .split("/")[1];
            // a job's planner has one per job it plans: events/plan-jobs-stats.json
            assertThat(stems).as(f.getKey()).containsAnyOf(module, module + "-" + dev.oneread.jobs.JobTask.STATS);
        }
    }

    /** The function whose HttpApi event in template.yaml declares this route key. */
    private String functionForRoute(String routeKey) {
        for (Map.Entry<String, Map<String, Object>> f :
                template.resourcesOfType("AWS::Serverless::Function").entrySet()) {
            for (Object e : SamTemplate.map(
                            SamTemplate.map(f.getValue().get("Properties")).get("Events"))
                    .values()) {
                Map<String, Object> properties =
                        SamTemplate.map(SamTemplate.map(e).get("Properties"));
                if (routeKey.equals(properties.get("Method") + " " + properties.get("Path"))) {
                    return f.getKey();
                }
            }
        }
        throw new AssertionError("no function in template.yaml serves " + routeKey);
    }
}
