package dev.oneread.tests.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.functions.createproject.CreateProjectFunction;
import dev.oneread.functions.createworkspace.CreateWorkspaceFunction;
import dev.oneread.functions.getproject.GetProjectFunction;
import dev.oneread.functions.getworkspace.GetWorkspaceFunction;
import dev.oneread.local.engine.DynaliteEngine;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.local.template.TemplateTables;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.InjectedFaults;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Partitions;
import dev.oneread.tests.support.StartsProcesses;
import dev.oneread.tests.support.TestEngine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * Faults the engine cannot produce itself, injected through an SDK ExecutionInterceptor, and a real engine
 * loss: every one a 503 problem with Retry-After, and nothing half written.
 */
public class FaultsTest {
    private final TestEngine engine = TestEngine.get();

    /** Answers matching requests with throttling, on every attempt, and counts the attempts. */
    static final class Throttling implements ExecutionInterceptor {
        final AtomicInteger attempts = new AtomicInteger();
        private final Predicate<SdkRequest> when;

        Throttling(Predicate<SdkRequest> when) {
            this.when = when;
        }

        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            if (when.test(context.request())) {
                attempts.incrementAndGet();
                throw InjectedFaults.throttled();
            }
        }
    }

    @Test
    void throttlingBeyondTheRetryBudget_shouldGive503_createNothing_andKeepTheClaim() {
        // GIVEN a workspace, and an engine that throttles every write of a project
        Api api = new Api();
        String ws = Api.freshWorkspaceId("throttled");
        api.createWorkspace(ws, "Throttled");
        Throttling throttling = new Throttling(r ->
                r instanceof PutItemRequest put && put.item().get("Detail").s().startsWith("PROJ#"));
        DynamoDbClient client = engine.functionClient("CreateProject", TestEngine.TABLE, List.of(throttling));
        CreateProjectFunction create = new CreateProjectFunction(client, Api.config("CreateProject"));
        // WHEN a create with an Idempotency-Key runs into it
        Lambda.Response response = Lambda.invoke(
                create,
                ApiEvent.of("POST", ApiEvent.PROJECTS)
                        .path("workspaceId", ws)
                        .body("{\"name\":\"p\"}")
                        .header("Idempotency-Key", "k"));
        // THEN 503 after the standard retry mode's 3 attempts, and no project. The claim stays in progress: after
        // throttling the outcome is unknown to the caller (an earlier attempt may have landed), so only its
        // deadline frees the key (IdempotencyFaultsTest shows the retry that follows)
        assertThat(response.status()).isEqualTo(503);
        assertThat(response.contentType()).isEqualTo("application/problem+json");
        assertThat(response.headers()).containsEntry("retry-after", "1");
        assertThat(throttling.attempts.get()).isEqualTo(3);
        List<Map<String, AttributeValue>> items = Partitions.items(engine.client, "WS#" + ws);
        assertThat(items).extracting(i -> i.get("Detail").s()).noneMatch(sort -> sort.startsWith("PROJ#"));
        assertThat(items)
                .filteredOn(i -> i.get("Detail").s().startsWith("IDEM#"))
                .singleElement()
                .satisfies(claim -> assertThat(claim.get("status").s()).isEqualTo("INPROGRESS"));
    }

    @Test
    void answerStreamFailingWhileRead_shouldGive503_notA500() {
        // GIVEN a client whose answer stream fails as it is read (as when the SDK's timeout closes it under a read)
        ExecutionInterceptor brokenStream = new ExecutionInterceptor() {
            @Override
            public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
                throw new UncheckedIOException(new IOException("stream is closed"));
            }
        };
        DynamoDbClient client = engine.functionClient("GetWorkspace", TestEngine.TABLE, List.of(brokenStream));
        GetWorkspaceFunction get = new GetWorkspaceFunction(client, Api.config("GetWorkspace"));
        // WHEN
        Lambda.Response response =
                Lambda.invoke(get, ApiEvent.of("GET", ApiEvent.WORKSPACE).path("workspaceId", "acme"));
        // THEN unavailable, retryable, and nothing of the failure in the answer
        assertThat(response.status()).isEqualTo(503);
        assertThat(response.contentType()).isEqualTo("application/problem+json");
        assertThat(response.headers()).containsEntry("retry-after", "1");
        assertThat(response.body()).doesNotContain("stream", "Exception");
    }

    @Test
    void unreachableEngine_shouldGive503Quickly() throws Exception {
        // GIVEN a client pointed at a port nobody listens on
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        DynamoDbClient client = DynamoDbClients.local(URI.create("http://127.0.0.1:" + closedPort), List.of());
        GetWorkspaceFunction get = new GetWorkspaceFunction(client, Api.config("GetWorkspace"));
        // WHEN
        long start = System.nanoTime();
        Lambda.Response response =
                Lambda.invoke(get, ApiEvent.of("GET", ApiEvent.WORKSPACE).path("workspaceId", "acme"));
        long millis = (System.nanoTime() - start) / 1_000_000;
        // THEN
        assertThat(response.status()).isEqualTo(503);
        assertThat(response.headers()).containsEntry("retry-after", "1");
        assertThat(response.body()).doesNotContain("127.0.0.1", "Connect", "Exception");
        assertThat(millis).as("three attempts with backoff, no hang").isLessThan(5_000);
    }

    @StartsProcesses
    @Test
    void engineLoss_shouldGive503s_andKeepEveryAcknowledgedWrite(@TempDir Path data) throws Exception {
        // GIVEN an engine persisting to disk, and a workspace on it
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        DynaliteEngine first = DynaliteEngine.start(engine.root, data, port);
        URI endpoint = first.endpoint();
        DynamoDbClient client = DynamoDbClients.local(endpoint, List.of());
        TemplateTables.from(SamTemplate.load(engine.root.resolve("template.yaml")))
                .createMissing(client, Map.of("Table", TestEngine.TABLE));
        assertThat(Lambda.invoke(
                                new CreateWorkspaceFunction(client, Api.config("CreateWorkspace")),
                                ApiEvent.of("POST", ApiEvent.WORKSPACES).body("{\"id\":\"survivor\",\"name\":\"S\"}"))
                        .status())
                .isEqualTo(201);
        CreateProjectFunction create = new CreateProjectFunction(client, Api.config("CreateProject"));
        ApiEvent event = ApiEvent.of("POST", ApiEvent.PROJECTS)
                .path("workspaceId", "survivor")
                .body("{\"name\":\"p\"}");
        List<String> acknowledged = new ArrayList<>();
        List<Integer> afterLoss = new ArrayList<>();
        DynaliteEngine second = null;
        try {
            // WHEN writes run, the engine dies mid-run, and writes go on
            for (int i = 0; i < 40; i++) {
                Lambda.Response r = Lambda.invoke(create, event);
                assertThat(r.status()).isEqualTo(201);
                acknowledged.add((String) r.json().get("id"));
            }
            first.crash();
            for (int i = 0; i < 10; i++) {
                Lambda.Response r = Lambda.invoke(create, event);
                afterLoss.add(r.status());
                if (r.status() == 201) {
                    acknowledged.add((String) r.json().get("id"));
                } else {
                    assertThat(r.contentType()).isEqualTo("application/problem+json");
                    assertThat(r.headers()).containsKey("retry-after");
                }
            }
            second = DynaliteEngine.start(engine.root, data, port);
            // THEN every write that got a 2xx is there after the restart
            GetProjectFunction get = new GetProjectFunction(client, Api.config("GetProject"));
            for (String id : acknowledged) {
                Lambda.Response r = Lambda.invoke(
                        get,
                        ApiEvent.of("GET", ApiEvent.PROJECT).path(Map.of("workspaceId", "survivor", "projectId", id)));
                assertThat(r.status()).as(id).isEqualTo(200);
            }
            assertThat(afterLoss).containsOnly(503);
            assertThat(acknowledged).hasSize(40);
        } finally {
            first.close();
            if (second != null) {
                second.close();
            }
        }
    }
}
