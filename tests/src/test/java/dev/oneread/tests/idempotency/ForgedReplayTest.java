package dev.oneread.tests.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.PlantedReplays;
import dev.oneread.tests.support.PlantedReplays.StoredResponse;
import dev.oneread.tests.support.TestEngine;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A replay answers only the workspace and route of the request that replays it. Issue 37 imported, through the
 * console's {@code bookkeeping=include}, a completed record of acme's key whose response named globex: acme's
 * keyed POST then answered {@code 201 idempotent-replayed} with {@code Location: /workspaces/globex/...} and a body
 * of the importer's choosing. The key hash binds a record to its workspace and route; what the record holds must be
 * checked against them too, at import and at replay.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForgedReplayTest {
    /** The subject of every token {@link LocalApi#send} signs. */
    private static final String CALLER = "console-tester";

    private static final String PROJECTS_ROUTE = "POST /workspaces/{workspaceId}/projects";
    private static final String BODY = "{\"name\":\"keyed\"}";
    private static final String FORGED_PROJECT = "01JDQ6V7K4N3M2P1R0S9T8V7W6";

    private final TestEngine engine = TestEngine.get();
    private final String table = "forged-replay-" + UUID.randomUUID().toString().substring(0, 8);
    private final String acme = Api.freshWorkspaceId("acme");
    private final String globex = Api.freshWorkspaceId("globex");
    private LocalApi api;

    @BeforeAll
    void start() throws Exception {
        api = LocalApi.start(engine, table, Map.of());
        for (String ws : List.of(acme, globex)) {
            HttpResponse<String> created =
                    api.send("POST", "/workspaces", "{\"id\":\"" + ws + "\",\"name\":\"W\"}", List.of(), true);
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        }
    }

    @AfterAll
    void stop() {
        api.close();
    }

    @Test
    void importedRecordOfAcmesKey_namingGlobex_shouldBeRefused_andAcmesPostShouldCreateItsOwn() throws Exception {
        // GIVEN a completed record of acme's key whose response is a project of globex, in an import file
        Map<String, AttributeValue> forged =
                record(acme, "import-1", "/workspaces/" + globex + "/projects/" + FORGED_PROJECT, globex);
        String file = Json.write(Map.of("Items", List.of(json(forged))));
        // WHEN it is imported with bookkeeping=include
        HttpResponse<String> imported =
                api.send("POST", "/_console/api/fixtures?bookkeeping=include", file, List.of(), false);
        // THEN it is refused, naming why, and nothing is written
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(422);
        assertThat(imported.headers().firstValue("content-type")).hasValue("application/problem+json");
        assertThat(imported.body()).contains("Location in the record's own workspace");
        assertThat(item(forged)).isNull();
        // AND acme's keyed POST is no replay of globex's project: it creates acme's own
        HttpResponse<String> post = api.createProject(acme, BODY, "Idempotency-Key", "import-1");
        assertThat(post.headers().firstValue("location").orElse(""))
                .as(post.body())
                .doesNotContain(globex)
                .startsWith("/workspaces/" + acme + "/projects/");
        assertThat(post.statusCode()).isEqualTo(201);
        assertThat(post.headers().firstValue("idempotent-replayed")).isEmpty();
        assertThat(post.body()).doesNotContain(globex).doesNotContain(FORGED_PROJECT);
    }

    @Test
    void plantedRecordNamingAnotherWorkspace_shouldBe422_notReplayed() throws Exception {
        // GIVEN the same forged record written straight into the table (as a hand-written item on AWS would be)
        Map<String, AttributeValue> forged =
                record(acme, "planted-1", "/workspaces/" + globex + "/projects/" + FORGED_PROJECT, globex);
        engine.client.putItem(b -> b.tableName(table).item(forged));
        // WHEN acme's keyed POST meets it
        HttpResponse<String> post = api.createProject(acme, BODY, "Idempotency-Key", "planted-1");
        // THEN a 422 problem, nothing of the record in it, and no project created under its key
        assertThat(post.statusCode()).as(post.body()).isEqualTo(422);
        assertThat(post.headers().firstValue("content-type")).hasValue("application/problem+json");
        assertThat(post.headers().firstValue("idempotent-replayed")).isEmpty();
        assertThat(post.headers().firstValue("location")).isEmpty();
        assertThat(post.body()).doesNotContain(globex).doesNotContain(FORGED_PROJECT);
    }

    @Test
    void plantedRecordOfAnotherRoute_shouldBe422_notReplayed() throws Exception {
        // GIVEN a record of acme's project-create key that holds a workspace's create: acme's own, another route
        Map<String, AttributeValue> forged = record(acme, "planted-2", "/workspaces/" + acme, null);
        forged.put("responseBody", AttributeValue.fromS("{\"id\":\"" + acme + "\",\"name\":\"forged\"}"));
        engine.client.putItem(b -> b.tableName(table).item(forged));
        // WHEN acme's keyed project create meets it
        HttpResponse<String> post = api.createProject(acme, BODY, "Idempotency-Key", "planted-2");
        // THEN it is no answer to this route
        assertThat(post.statusCode()).as(post.body()).isEqualTo(422);
        assertThat(post.headers().firstValue("idempotent-replayed")).isEmpty();
        assertThat(post.body()).doesNotContain("forged");
    }

    @Test
    void recordTheApiWrote_shouldStillReplay() throws Exception {
        // GIVEN a keyed create of acme's
        HttpResponse<String> first = api.createProject(acme, BODY, "Idempotency-Key", "own-1");
        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        // WHEN it is retried
        HttpResponse<String> retry = api.createProject(acme, BODY, "Idempotency-Key", "own-1");
        // THEN the same answer, replayed
        assertThat(retry.statusCode()).isEqualTo(201);
        assertThat(retry.headers().firstValue("idempotent-replayed")).hasValue("true");
        assertThat(retry.headers().firstValue("location"))
                .isEqualTo(first.headers().firstValue("location"));
        assertThat(retry.body()).isEqualTo(first.body());
    }

    /** A completed record of {@code ws}'s key, as the API would write it but for the response it keeps. */
    private static Map<String, AttributeValue> record(String ws, String key, String location, String bodyWorkspace) {
        return PlantedReplays.completed(
                CALLER,
                PROJECTS_ROUTE,
                ws,
                key,
                BODY,
                new StoredResponse(
                        201,
                        Map.of("content-type", "application/json", "location", location, "etag", "\"1\""),
                        "{\"id\":\"" + FORGED_PROJECT + "\",\"workspaceId\":\"" + bodyWorkspace
                                + "\",\"name\":\"forged\",\"description\":null,\"status\":\"ACTIVE\","
                                + "\"createdAt\":\"2026-12-01T09:00:00Z\",\"updatedAt\":\"2026-12-01T09:00:00Z\","
                                + "\"version\":1}"));
    }

    /** The item in DynamoDB JSON, as an export file holds it. */
    private static Map<String, Object> json(Map<String, AttributeValue> item) {
        return dev.oneread.store.items.DynamoJson.item(item);
    }

    private Map<String, AttributeValue> item(Map<String, AttributeValue> of) {
        Map<String, AttributeValue> found = engine.client
                .getItem(b -> b.tableName(table)
                        .consistentRead(true)
                        .key(Map.of("EntityRef", of.get("EntityRef"), "Detail", of.get("Detail"))))
                .item();
        return found == null || found.isEmpty() ? null : found;
    }
}
