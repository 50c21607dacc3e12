package dev.oneread.tests.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.oneread.json.Json;
import dev.oneread.local.cli.StartApi;
import dev.oneread.local.runner.ApiServer;
import dev.oneread.local.runner.FunctionSpec;
import dev.oneread.local.runner.LocalFunction;
import dev.oneread.local.runner.LocalStack;
import dev.oneread.local.runner.TemplateFunctions;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.tests.support.TestEngine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 38's template values that deployed and then answered 500 (ProjectQuota=1.5, 2147483648, 1e3; IndexShards=8.5;
 * HotTenantShards=acme=0, acme=4,acme=8; a migrating workspace without shards): deploy refuses each, with
 * CloudFormation's wording or the functions' own, and the running functions keep answering. A value forced past
 * deploy fails the function's init in one line, never a request.
 */
class TemplateValuesDeployTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final TestEngine engine = TestEngine.get();
    private final PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());

    /** Each deploy that answered 500 on main, and the refusal deploy gives it now. */
    private static final Map<Map<String, String>, String> REFUSED = refused();

    private static Map<Map<String, String>, String> refused() {
        Map<Map<String, String>, String> out = new LinkedHashMap<>();
        String quota = "Parameter 'ProjectQuota' must match pattern ";
        out.put(Map.of("ProjectQuota", "1.5"), quota);
        out.put(Map.of("ProjectQuota", "2147483648"), quota);
        out.put(Map.of("ProjectQuota", "1e3"), quota);
        out.put(Map.of("IndexShards", "8.5"), "Parameter 'IndexShards' must match pattern ");
        out.put(Map.of("HotTenantShards", "acme=0"), "Parameter 'HotTenantShards' must match pattern ");
        out.put(Map.of("HotTenantShards", "acme=4,acme=8"), "Parameter 'HotTenantShards' must match pattern ");
        out.put(
                Map.of("HotTenantShards", "acme=4", "HotTenantMigrating", "globex"),
                "the functions would fail their init: HotTenantMigrating: globex is migrating but has no entry in"
                        + " HotTenantShards");
        return out;
    }

    @Test
    void deploy_shouldRefuseEveryValueThatAnsweredFiveHundred_andTheRoutesKeepAnswering(@TempDir Path dir)
            throws Exception {
        // GIVEN start-api with the template's defaults
        try (StartApi api = StartApi.start(
                engine.root,
                new LocalStack.Settings(
                        engine.endpoint,
                        null,
                        "oneread-values-" + UUID.randomUUID().toString().substring(0, 8),
                        Map.of(),
                        true),
                0,
                dir.resolve("start-api.json"),
                quiet)) {
            URI deploy = URI.create("http://127.0.0.1:" + api.port() + ApiServer.DEPLOY_PATH);
            Map<String, String> before = api.stack().parameters();
            for (Map.Entry<Map<String, String>, String> bad : REFUSED.entrySet()) {
                // WHEN each bad value is deployed
                HttpResponse<String> answer =
                        RedeployTest.post(deploy, Json.write(Map.of("parameterOverrides", bad.getKey())));

                // THEN deploy refuses it as a bad request, naming the rule, and changes nothing
                assertThat(answer.statusCode())
                        .as(bad.getKey() + ": " + answer.body())
                        .isEqualTo(400);
                assertThat(answer.headers().firstValue("content-type")).hasValue("application/problem+json");
                assertThat(answer.body()).as(bad.getKey().toString()).contains(bad.getValue());
                assertThat(api.stack().parameters()).isEqualTo(before);

                // AND the routes that answered 500 still answer as before
                assertThat(send(api, "POST", "/workspaces/acme/projects", "{\"name\":\"After a refused deploy\"}"))
                        .as(bad.getKey().toString())
                        .isEqualTo(201);
                assertThat(send(api, "GET", "/workspaces/acme/projects", null)).isEqualTo(200);
                assertThat(send(api, "GET", "/projects?status=ACTIVE", null)).isEqualTo(200);
            }
        }
    }

    @Test
    void aValueForcedPastDeploy_shouldFailTheFunctionsInit_inOneLineWithoutFrames() throws Exception {
        // GIVEN CreateProject as the template builds it, with PROJECT_QUOTA set by hand past every check
        SamTemplate template = SamTemplate.load(engine.root.resolve("template.yaml"));
        FunctionSpec spec = new TemplateFunctions(
                        template,
                        engine.root,
                        LocalStack.parameters(template, Map.of()),
                        Map.of("Table", TestEngine.TABLE))
                .functions()
                .get("CreateProject");
        Map<String, String> environment = new LinkedHashMap<>(spec.environment());
        environment.put("PROJECT_QUOTA", "1.5");
        environment.put(DynamoDbClients.ENDPOINT_VARIABLE, engine.endpoint.toString());
        environment.put("AWS_REGION", "us-east-1");
        environment.put("AWS_ACCESS_KEY_ID", "local");
        environment.put("AWS_SECRET_ACCESS_KEY", "local");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        byte[] event = Files.readAllBytes(engine.root.resolve("events/create-project.json"));

        // WHEN it is invoked (the runner's stderr caught: that is where a stack trace would go)
        PrintStream previous = System.err;
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        try (LocalFunction function =
                new LocalFunction(spec, environment, new PrintStream(log, true, StandardCharsets.UTF_8))) {
            // THEN its init fails, in one line that names the variable, its parameter, the value and the rule
            assertThatThrownBy(() -> function.invoke(event))
                    .hasMessage("InvalidSettingException: PROJECT_QUOTA (ProjectQuota) is '1.5': not a whole number"
                            + " from 1 to 2147483647");
        } finally {
            System.setErr(previous);
        }
        // AND no frames anywhere, and no request ran
        String written = log.toString(StandardCharsets.UTF_8) + stderr.toString(StandardCharsets.UTF_8);
        assertThat(written).doesNotContain("\tat ").doesNotContain("START RequestId");
    }

    private static int send(StartApi api, String method, String path, String body)
            throws IOException, InterruptedException {
        String token = api.stack().authorizer().issue("values-tester", List.of("acme"), true, Duration.ofMinutes(10));
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port() + path))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }
}
