package dev.oneread.tests.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.local.cli.StartApi;
import dev.oneread.local.cli.StartApiState;
import dev.oneread.local.runner.ApiServer;
import dev.oneread.local.runner.LocalStack;
import dev.oneread.tests.support.EngineProxy;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.RunnerCommand;
import dev.oneread.tests.support.RunnerCommand.Run;
import dev.oneread.tests.support.TestEngine;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A deploy with new parameters while start-api serves, as CloudFormation deploys a stack: the invocation in flight
 * finishes on the function it started in (the old configuration), and the next one runs a function built with the
 * new parameters. ReadAudit is the configuration under test because its effect is visible on every answer (the
 * x-dynamo-calls header).
 */
class RedeployTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** The most a wait for an event takes: only a hang reaches it. */
    private static final Duration WAIT = Eventually.FAILSAFE;

    private final TestEngine engine = TestEngine.get();
    private final PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());

    private StartApi startApi(URI endpoint, Path stateFile) throws IOException {
        return StartApi.start(
                engine.root,
                new LocalStack.Settings(
                        endpoint,
                        null,
                        "oneread-redeploy-" + UUID.randomUUID().toString().substring(0, 8),
                        Map.of(),
                        true),
                0,
                stateFile,
                quiet);
    }

    private static HttpRequest getWorkspace(StartApi api) {
        String token =
                api.stack().authorizer().issue("redeploy-tester", List.of("acme"), false, Duration.ofMinutes(10));
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port() + "/workspaces/acme"))
                .header("Authorization", "Bearer " + token)
                .build();
    }

    @Test
    void redeploy_whileAnInvocationIsInFlight_shouldFinishItOnTheOldConfigurationAndRunTheNextOnTheNew(
            @TempDir Path dir) throws Exception {
        // GIVEN start-api (ReadAudit on, the local default) whose engine answers through a proxy that can hold them
        HoldNextAnswer hold = new HoldNextAnswer();
        try (EngineProxy proxy = new EngineProxy(engine.endpoint, hold);
                StartApi api = startApi(proxy.endpoint(), dir.resolve("start-api.json"))) {
            HttpResponse<String> before = HTTP.send(getWorkspace(api), HttpResponse.BodyHandlers.ofString());
            assertThat(before.headers().firstValue("x-dynamo-calls"))
                    .as(before.headers().map().toString())
                    .hasValue("1");
            // AND an invocation held in its function: the engine's answer to it waits in the proxy
            hold.arm();
            CompletableFuture<HttpResponse<String>> inFlight =
                    HTTP.sendAsync(getWorkspace(api), HttpResponse.BodyHandlers.ofString());
            assertThat(hold.held.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

            // WHEN the operator deploys ReadAudit=false
            Map<String, String> parameters = api.redeploy(Map.of("ReadAudit", "false"));

            // THEN a new request runs on the new configuration while the old invocation is still running
            HttpResponse<String> next = HTTP.send(getWorkspace(api), HttpResponse.BodyHandlers.ofString());
            assertThat(parameters).containsEntry("ReadAudit", "false");
            assertThat(next.statusCode()).isEqualTo(200);
            assertThat(next.headers().firstValue("x-dynamo-calls")).isEmpty();
            assertThat(inFlight).isNotDone();

            // AND the held invocation, released, completes on the old configuration
            hold.release();
            HttpResponse<String> old = inFlight.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(old.statusCode()).isEqualTo(200);
            assertThat(old.headers().firstValue("x-dynamo-calls"))
                    .as(old.statusCode() + " " + old.headers().map() + " " + old.body())
                    .hasValue("1");
        }
    }

    @Test
    void deployCommand_shouldApplyAllowedOverridesAndRefuseOthersWithTheTemplatesWording(@TempDir Path dir)
            throws Exception {
        // GIVEN a running start-api registered in its state file
        Path stateFile = dir.resolve("start-api.json");
        try (StartApi api = startApi(engine.endpoint, stateFile)) {
            // WHEN a value the template's AllowedPattern refuses is deployed
            Run refused = RunnerCommand.run(
                    Map.of(),
                    "deploy",
                    "--parameter-overrides",
                    "HotTenantShards=ACME=x",
                    "--state-file",
                    stateFile.toString());
            // THEN it is refused as CloudFormation refuses it, and nothing changed
            assertThat(refused.exitCode()).isEqualTo(2);
            assertThat(refused.stderr()).contains("Parameter 'HotTenantShards' must match pattern");
            assertThat(api.stack().parameters()).containsEntry("HotTenantShards", "");

            // WHEN an allowed switch is deployed, then the migration flag cleared
            Run switched = RunnerCommand.run(
                    Map.of(),
                    "deploy",
                    "--parameter-overrides",
                    "HotTenantShards=acme=4",
                    "HotTenantMigrating=acme",
                    "--state-file",
                    stateFile.toString());
            Run cleared = RunnerCommand.run(
                    Map.of(),
                    "deploy",
                    "--parameter-overrides",
                    "HotTenantMigrating=",
                    "--state-file",
                    stateFile.toString());

            // THEN each applies; a parameter not named keeps its value; the state file tells invoke and seed
            assertThat(switched.exitCode()).as(switched.stderr()).isZero();
            assertThat(Json.readObject(switched.stdout().strip()))
                    .containsEntry("HotTenantShards", "acme=4")
                    .containsEntry("HotTenantMigrating", "acme");
            assertThat(cleared.exitCode()).as(cleared.stderr()).isZero();
            assertThat(api.stack().parameters())
                    .containsEntry("HotTenantShards", "acme=4")
                    .containsEntry("HotTenantMigrating", "");
            assertThat(StartApiState.read(stateFile).orElseThrow().parameterOverrides())
                    .containsEntry("HotTenantShards", "acme=4")
                    .containsEntry("HotTenantMigrating", "");
        }
    }

    @Test
    void deployPath_shouldRefusePagesAndBadInputWithProblems(@TempDir Path dir) throws Exception {
        try (StartApi api = startApi(engine.endpoint, dir.resolve("start-api.json"))) {
            URI deploy = URI.create("http://127.0.0.1:" + api.port() + ApiServer.DEPLOY_PATH);
            String body = "{\"parameterOverrides\":{\"ReadAudit\":\"false\"}}";
            // a page, even the console's own, may not redeploy
            HttpResponse<String> fromPage = HTTP.send(
                    HttpRequest.newBuilder(deploy)
                            .header("Content-Type", "application/json")
                            .header("Origin", "http://127.0.0.1:" + api.port())
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> notJson = post(deploy, "{\"parameterOverrides\":");
            HttpResponse<String> unknown = post(deploy, "{\"parameterOverrides\":{\"NoSuch\":\"1\"}}");
            HttpResponse<String> notAllowed = post(deploy, "{\"parameterOverrides\":{\"ReadAudit\":\"maybe\"}}");
            HttpResponse<String> tooMany = post(deploy, "{\"parameterOverrides\":{\"IndexShards\":\"100\"}}");

            assertThat(List.of(fromPage, notJson, unknown, notAllowed, tooMany))
                    .allSatisfy(r ->
                            assertThat(r.headers().firstValue("content-type")).hasValue("application/problem+json"));
            assertThat(fromPage.statusCode()).isEqualTo(403);
            assertThat(notJson.statusCode()).isEqualTo(400);
            assertThat(unknown.statusCode()).isEqualTo(400);
            assertThat(notAllowed.statusCode()).isEqualTo(400);
            assertThat(notAllowed.body()).contains("Parameter 'ReadAudit' must be one of AllowedValues");
            assertThat(tooMany.body())
                    .contains(
                            "Parameter 'IndexShards' must match pattern ^(?:[1-9]|[1-9][0-9])$ (a whole number from 1 to 99)");
            assertThat(api.stack().parameters()).containsEntry("ReadAudit", "true");
        }
    }

    /** POSTs {@code body} as JSON, as {@code oneread deploy} sends it (TemplateValuesDeployTest too). */
    static HttpResponse<String> post(URI uri, String body) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(uri)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Once armed, keeps the engine's next answer until {@link #release()}: a function's call to the engine, and so
     * its invocation, stays in flight exactly as long as the test needs. Only that connection waits (others, which a
     * busy connection makes the client open, pass).
     */
    private static final class HoldNextAnswer implements EngineProxy.Answers {
        final CountDownLatch held = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);
        private final AtomicBoolean armed = new AtomicBoolean();

        void arm() {
            armed.set(true);
        }

        @Override
        public void beforeChunk() throws InterruptedException {
            if (armed.compareAndSet(true, false)) {
                held.countDown();
                released.await();
            }
        }

        @Override
        public void release() {
            released.countDown();
        }
    }
}
