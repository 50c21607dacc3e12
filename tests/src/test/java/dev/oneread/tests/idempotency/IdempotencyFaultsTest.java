package dev.oneread.tests.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.functions.createproject.CreateProjectFunction;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.InjectedFaults;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.MovableClock;
import dev.oneread.tests.support.Partitions;
import dev.oneread.tests.support.PlantedReplays;
import dev.oneread.tests.support.PlantedReplays.StoredResponse;
import dev.oneread.tests.support.TestEngine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * A create with an Idempotency-Key under every ambiguous failure, injected by an SDK interceptor into the calls
 * the real engine answers: the caller retries with the same key until it gets a 2xx (waiting what Retry-After
 * says, on the function's clock), and every sequence ends with exactly one project, named by every 2xx body.
 */
class IdempotencyFaultsTest {
    /** The invocation's time: short, so that a call held past it reaches the function's own deadline. */
    private static final int REMAINING_MILLIS = 1_500;

    private static final String BODY = "{\"name\":\"Once\"}";

    private final TestEngine engine = TestEngine.get();
    private final Api api = new Api();

    /** One row per sequence, for the closing table: what the caller saw, and what the table holds. */
    private static final List<String> ROWS = Collections.synchronizedList(new ArrayList<>());

    /** Where in a create a fault strikes, and how. Each hits every attempt of its call in one invocation. */
    enum Fault {
        NONE(Call.NONE, Kind.NONE),
        /** The put committed; its answer became a 500, and the SDK's retry met the item. */
        PUT_ANSWER_LOST_ONCE(Call.PROJECT_PUT, Kind.ANSWER_LOST_ONCE),
        /** The put committed; its answer, and that of every retry, became a 500 (DynamoDB's InternalServerError). */
        PUT_ANSWER_LOST(Call.PROJECT_PUT, Kind.ANSWER_LOST),
        PUT_THROTTLED(Call.PROJECT_PUT, Kind.THROTTLED),
        /** The idempotency record was completed; the answer became a 500. */
        COMPLETION_ANSWER_LOST(Call.COMPLETION, Kind.ANSWER_LOST),
        COMPLETION_THROTTLED(Call.COMPLETION, Kind.THROTTLED),
        /** The claim committed; its answer became a 500, and the SDK's retry met the claim. */
        CLAIM_ANSWER_LOST_ONCE(Call.CLAIM, Kind.ANSWER_LOST_ONCE),
        /** The claim committed; its answer, and that of every retry, became a 500. */
        CLAIM_ANSWER_LOST(Call.CLAIM, Kind.ANSWER_LOST),
        /** The put committed, and its answer did not come before the invocation's deadline. */
        DEADLINE_REACHED(Call.PROJECT_PUT, Kind.PAST_DEADLINE);

        final Call call;
        final Kind kind;

        Fault(Call call, Kind kind) {
            this.call = call;
            this.kind = kind;
        }
    }

    /** The calls of a create with a key. */
    enum Call {
        NONE,
        CLAIM,
        WORKSPACE_READ,
        PROJECT_PUT,
        COMPLETION,
        RELEASE;

        static Call of(SdkRequest request) {
            if (request instanceof UpdateItemRequest u && sort(u.key()).startsWith("IDEM#")) {
                return u.expressionAttributeValues().containsValue(AttributeValue.fromS("COMPLETED"))
                        ? COMPLETION
                        : CLAIM;
            } else if (request instanceof PutItemRequest p && sort(p.item()).startsWith("PROJ#")) {
                return PROJECT_PUT;
            } else if (request instanceof GetItemRequest g && sort(g.key()).equals("META")) {
                return WORKSPACE_READ;
            } else if (request instanceof DeleteItemRequest d && sort(d.key()).startsWith("IDEM#")) {
                return RELEASE;
            }
            return NONE;
        }

        private static String sort(Map<String, AttributeValue> key) {
            return key.get("Detail").s();
        }
    }

    enum Kind {
        NONE,
        /** After the engine answered: the write happened, the caller hears a 500. */
        ANSWER_LOST,
        /** As {@link #ANSWER_LOST}, on the first attempt only: the SDK's retry goes through. */
        ANSWER_LOST_ONCE,
        /** Before sending: DynamoDB refused it for throughput, nothing happened. */
        THROTTLED,
        /** After the engine answered: the answer is held until the invocation's deadline has passed. */
        PAST_DEADLINE
    }

    /**
     * Injects the fault planned for the calling thread's invocation into every attempt of its call. The sync
     * client runs interceptors on the caller's thread, so concurrent clients each get their own plan.
     */
    static final class Faults implements ExecutionInterceptor {
        private final ThreadLocal<Fault> planned = ThreadLocal.withInitial(() -> Fault.NONE);
        private final ThreadLocal<Boolean> struck = ThreadLocal.withInitial(() -> false);

        void plan(Fault fault) {
            planned.set(fault);
            struck.set(false);
        }

        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            Fault fault = planned.get();
            if (fault.kind == Kind.THROTTLED && Call.of(context.request()) == fault.call) {
                throw InjectedFaults.throttled();
            }
        }

        @Override
        public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
            Fault fault = planned.get();
            if (Call.of(context.request()) != fault.call) {
                return;
            }
            boolean once = fault.kind == Kind.ANSWER_LOST_ONCE && !struck.get();
            if (fault.kind == Kind.ANSWER_LOST || once) {
                struck.set(true);
                throw InternalServerErrorException.builder()
                        .statusCode(500)
                        .message("injected: the write committed, its answer was lost")
                        .build();
            } else if (fault.kind == Kind.PAST_DEADLINE) {
                try {
                    Thread.sleep(REMAINING_MILLIS * 2L); // the SDK's call timeout interrupts this
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** What one caller saw: its statuses in order, and the project ids its 2xx bodies named. */
    record Sequence(List<Integer> statuses, Set<String> namedIds) {}

    /**
     * Sends the create until a 2xx, with the fault {@code plan} picks for each invocation, waiting Retry-After on
     * the clock between tries.
     */
    private static Sequence createUntil2xx(
            CreateProjectFunction create, Faults faults, MovableClock clock, ApiEvent event, FaultPlan plan) {
        List<Integer> statuses = new ArrayList<>();
        Set<String> named = new LinkedHashSet<>();
        for (int attempt = 0; attempt < 40 && named.isEmpty(); attempt++) {
            Fault fault = plan.fault(attempt);
            faults.plan(fault);
            Lambda.Response response = Lambda.invoke(create, event, REMAINING_MILLIS);
            faults.plan(Fault.NONE);
            statuses.add(response.status());
            if (response.status() == 201) {
                named.add((String) response.json().get("id"));
            } else {
                assertThat(response.status())
                        .as(
                                "only retryable answers on the way (fault %s): %s %s",
                                fault, response.body(), response.logLines())
                        .isIn(409, 503);
                clock.advance(
                        Duration.ofSeconds(Long.parseLong(response.headers().get("retry-after"))));
            }
        }
        return new Sequence(statuses, named);
    }

    /**
     * The same create once more, an hour later (every claim's deadline long past, the record still kept): what a
     * caller that never saw its 2xx, say, gets.
     */
    private static Lambda.Response anHourLater(CreateProjectFunction create, MovableClock clock, ApiEvent event) {
        clock.advance(Duration.ofHours(1));
        return Lambda.invoke(create, event, REMAINING_MILLIS);
    }

    private static ApiEvent createWithKey(String ws, String key) {
        return ApiEvent.of("POST", ApiEvent.PROJECTS)
                .path("workspaceId", ws)
                .header("Idempotency-Key", key)
                .body(BODY);
    }

    /** Which fault each invocation of a caller gets. */
    @FunctionalInterface
    interface FaultPlan {
        Fault fault(int invocation);
    }

    private List<String> projectsIn(String ws) {
        return Partitions.items(engine.client, "WS#" + ws).stream()
                .map(item -> item.get("Detail").s())
                .filter(sort -> sort.startsWith("PROJ#"))
                .map(sort -> sort.substring("PROJ#".length()))
                .toList();
    }

    @ParameterizedTest
    @EnumSource(Fault.class)
    void createWithAKey_shouldEndWithExactlyOneProject_namedByEvery2xx_whateverFailsOnTheFirstTry(Fault fault) {
        // GIVEN a workspace, a client with the fault planned for the first invocation, and a caller with a key
        String ws = Api.freshWorkspaceId("idem");
        api.createWorkspace(ws, "Idempotent");
        Faults faults = new Faults();
        DynamoDbClient client = engine.functionClient("CreateProject", TestEngine.TABLE, List.of(faults));
        MovableClock clock = new MovableClock();
        CreateProjectFunction create = new CreateProjectFunction(client, Api.config("CreateProject"), clock);
        ApiEvent event = createWithKey(ws, "key-" + fault);
        // WHEN the caller sends the create until it gets a 2xx, and once more an hour later
        Sequence sequence =
                createUntil2xx(create, faults, clock, event, invocation -> invocation == 0 ? fault : Fault.NONE);
        Lambda.Response late = anHourLater(create, clock, event);
        // THEN exactly one project, and every 2xx named it
        List<String> projects = projectsIn(ws);
        ROWS.add("| " + fault + " | " + sequence.statuses() + " then " + late.status() + " an hour later | "
                + projects.size() + " |");
        assertThat(projects)
                .as("projects after %s: %s", fault, sequence.statuses())
                .hasSize(1);
        assertThat(sequence.namedIds()).containsExactly(projects.get(0));
        assertThat(late.status()).isEqualTo(201);
        assertThat(late.json()).containsEntry("id", projects.get(0));
    }

    @Test
    void fiftyCallersWithOneKey_andRandomFaults_shouldCreateOneProject() throws Exception {
        // GIVEN a workspace, one client whose every invocation may get any fault, and 50 callers with one key
        String ws = Api.freshWorkspaceId("idem50");
        api.createWorkspace(ws, "Fifty");
        Faults faults = new Faults();
        DynamoDbClient client = engine.functionClient("CreateProject", TestEngine.TABLE, List.of(faults));
        MovableClock clock = new MovableClock();
        long seed = new Random().nextLong();
        Fault[] kinds = Fault.values();
        ExecutorService callers = Executors.newFixedThreadPool(50);
        List<Future<Sequence>> sequences = new ArrayList<>();
        for (int c = 0; c < 50; c++) {
            Random random = new Random(seed + c);
            CreateProjectFunction create = new CreateProjectFunction(client, Api.config("CreateProject"), clock);
            sequences.add(callers.submit(() -> createUntil2xx(
                    create,
                    faults,
                    clock,
                    createWithKey(ws, "one-key"),
                    invocation -> random.nextInt(3) == 0 ? kinds[random.nextInt(kinds.length)] : Fault.NONE)));
        }
        callers.shutdown();
        assertThat(callers.awaitTermination(5, TimeUnit.MINUTES)).isTrue();
        // THEN one project, and every 2xx any caller got named it
        List<String> projects = projectsIn(ws);
        Set<String> named = new LinkedHashSet<>();
        int responses = 0;
        for (Future<Sequence> sequence : sequences) {
            named.addAll(sequence.get().namedIds());
            responses += sequence.get().statuses().size();
        }
        ROWS.add("| 50 callers, one key, random faults (seed " + seed + ") | " + responses + " responses | "
                + projects.size() + " |");
        assertThat(projects).as("seed %d", seed).hasSize(1);
        assertThat(named).as("seed %d", seed).containsExactly(projects.get(0));
    }

    @Test
    void inProgressDeadline_shouldCoverTheInvocationTheAttemptTimeoutAndAMargin() {
        // GIVEN a create whose put is throttled beyond the retries, in an invocation with 1.5 s left
        String ws = Api.freshWorkspaceId("idemdl");
        api.createWorkspace(ws, "Deadline");
        Faults faults = new Faults();
        MovableClock clock = new MovableClock();
        CreateProjectFunction create = new CreateProjectFunction(
                engine.functionClient("CreateProject", TestEngine.TABLE, List.of(faults)),
                Api.config("CreateProject"),
                clock);
        Instant sent = clock.instant();
        // WHEN
        faults.plan(Fault.PUT_THROTTLED);
        Lambda.Response response = Lambda.invoke(create, createWithKey(ws, "deadline"), REMAINING_MILLIS);
        faults.plan(Fault.NONE);
        // THEN the claim holds until a put sent at the invocation's last moment can no longer land: its time (less
        // the 300 ms kept to answer), plus one attempt's timeout (2 s), plus the 5 s margin
        assertThat(response.status()).isEqualTo(503);
        long held = Partitions.items(engine.client, "WS#" + ws).stream()
                        .filter(item -> item.get("Detail").s().startsWith("IDEM#"))
                        .mapToLong(item ->
                                Long.parseLong(item.get("inProgressUntil").n()))
                        .findFirst()
                        .orElseThrow()
                - sent.toEpochMilli();
        assertThat(held).isBetween(REMAINING_MILLIS - 300 - 200 + 7_000L, REMAINING_MILLIS - 300 + 7_000L);
        // and a retry inside it hears how long is left, in whole seconds rounded up
        Lambda.Response retry = Lambda.invoke(create, createWithKey(ws, "deadline"), REMAINING_MILLIS);
        assertThat(retry.status()).isEqualTo(409);
        assertThat(retry.headers()).containsEntry("retry-after", Long.toString((held + 999) / 1000));
    }

    @Test
    void sameKeyFromTwoCallersOfOneWorkspace_shouldCreateTwoProjects_eachAnsweredWithItsOwn() {
        // GIVEN two members of one workspace whose clients chose the same key
        String ws = Api.freshWorkspaceId("idemsub");
        api.createWorkspace(ws, "Two callers");
        CreateProjectFunction create =
                new CreateProjectFunction(engine.functionClient("CreateProject"), Api.config("CreateProject"));
        ApiEvent alice = createWithKey(ws, "same")
                .claims(Map.of("sub", "alice", "workspaces", ws, "scope", "openid oneread/api"));
        ApiEvent bob =
                createWithKey(ws, "same").claims(Map.of("sub", "bob", "workspaces", ws, "scope", "openid oneread/api"));
        // WHEN each creates, then retries
        String aliceProject = (String) Lambda.invoke(create, alice).json().get("id");
        String bobProject = (String) Lambda.invoke(create, bob).json().get("id");
        Lambda.Response aliceRetry = Lambda.invoke(create, alice);
        // THEN two projects; each caller's retry answers with their own
        assertThat(projectsIn(ws)).containsExactlyInAnyOrder(aliceProject, bobProject);
        assertThat(aliceRetry.headers()).containsEntry("idempotent-replayed", "true");
        assertThat(aliceRetry.json()).containsEntry("id", aliceProject);
    }

    /**
     * A record of this caller's key written straight into the table (as a hand-written item on AWS would be): a
     * forged replay that sets a cookie and answers HTML. Issue 22 found it replayed as written.
     */
    private static Map<String, AttributeValue> plantedReplay(String ws, String key, int status, String body) {
        return PlantedReplays.completed(
                "user-1",
                "POST " + ApiEvent.PROJECTS,
                ws,
                key,
                BODY,
                new StoredResponse(
                        status,
                        Map.of(
                                "content-type", "text/html",
                                "set-cookie", "session=forged; Path=/",
                                "location", "/workspaces/" + ws + "/projects/01JDQ6V7K4N3M2P1R0S9T8V7W6",
                                "etag", "\"1\""),
                        body));
    }

    @Test
    void replay_shouldNotSendAPlantedRecordsHtmlOrCookie() {
        // GIVEN a completed record of this caller's key, planted in the table: 200, text/html, a cookie, a script
        String ws = Api.freshWorkspaceId("idemforged");
        api.createWorkspace(ws, "Forged");
        engine.client.putItem(b -> b.tableName(TestEngine.TABLE)
                .item(plantedReplay(ws, "forged", 200, "<script>document.cookie</script>")));
        // WHEN the caller sends a keyed POST with that key and body
        Lambda.Response response = api.createProject(ws, BODY, "forged");
        // THEN no part of the record is replayed: a body that is not JSON makes it no response the API stored
        assertThat(response.status()).as(response.body()).isEqualTo(500);
        assertThat(response.contentType()).isEqualTo("application/problem+json");
        assertThat(response.json()).containsEntry("type", "https://oneread.dev/problems/undecodable-item");
        assertThat(response.headers().keySet()).doesNotContain("set-cookie", "idempotent-replayed");
        assertThat(response.body()).doesNotContain("<script>", "IDEM#", ws);
    }

    @Test
    void replay_shouldSendOnlyTheHeadersTheApiSets_whenAPlantedRecordAddsOthers() {
        // GIVEN a planted record with a JSON body, whose headers add a cookie and claim text/html
        String ws = Api.freshWorkspaceId("idemheaders");
        api.createWorkspace(ws, "Headers");
        String body = "{\"id\":\"01JDQ6V7K4N3M2P1R0S9T8V7W6\",\"workspaceId\":\"" + ws
                + "\",\"name\":\"Once\",\"description\":null,\"status\":\"ACTIVE\",\"createdAt\":\"2026-12-01T09:00:00Z\","
                + "\"updatedAt\":\"2026-12-01T09:00:00Z\",\"version\":1}";
        engine.client.putItem(b -> b.tableName(TestEngine.TABLE).item(plantedReplay(ws, "headers", 201, body)));
        // WHEN the caller retries with that key
        Lambda.Response response = api.createProject(ws, BODY, "headers");
        // THEN the replay carries the API's own headers only: JSON, Location, ETag; no cookie, no HTML
        assertThat(response.status()).as(response.body()).isEqualTo(201);
        assertThat(response.contentType()).isEqualTo("application/json");
        assertThat(response.headers()).containsEntry("etag", "\"1\"").containsEntry("idempotent-replayed", "true");
        assertThat(response.headers().get("location")).endsWith("/projects/01JDQ6V7K4N3M2P1R0S9T8V7W6");
        assertThat(response.headers().keySet()).doesNotContain("set-cookie");
        assertThat(response.json()).containsEntry("name", "Once");
    }

    /** The table the closing note reports: written to target/, and to the test log. */
    @AfterAll
    static void writeTable() throws IOException {
        StringBuilder table = new StringBuilder("| fault | responses, in order | projects |\n|---|---|---|\n");
        ROWS.forEach(row -> table.append(row).append('\n'));
        System.out.println(table);
        Path target = Path.of("target");
        try {
            Files.createDirectories(target);
            Files.writeString(target.resolve("idempotency-faults.md"), table);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
