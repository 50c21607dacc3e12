package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.http.Problems;
import dev.oneread.json.Json;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.runner.SampleData;
import dev.oneread.model.CreationToken;
import dev.oneread.model.HotPartitionThreshold;
import dev.oneread.model.NewProject;
import dev.oneread.model.ProjectStatus;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.items.DynamoJson;
import dev.oneread.store.stats.StatsRollup;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ConsoleHttp;
import dev.oneread.tests.support.Fixtures;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.RunnerCommand;
import dev.oneread.tests.support.TestEngine;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The console's writes (a fixture import, an edit, a duplicate) hold the API's rules on what relates items: no
 * project without its workspace, a duplicate within the workspace's project quota, and every project where the shard
 * plan of the running configuration puts it, after a {@code deploy} too. Issue 37 planted a project in a workspace
 * that did not exist (which its later owner then listed), duplicated past a quota the API's create held, and, after
 * {@code deploy HotTenantShards=acme=4}, refused duplicates of moved projects and imported one at {@code WS#acme},
 * which the API never serves.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleWritesTest {
    private static final String JSON = "application/json";
    private static final WorkspaceId ACME = SampleData.WORKSPACE;
    /** What {@code deploy --parameter-overrides HotTenantShards=acme=4} makes the stack run. */
    private static final ShardPlan SHARDED = ShardPlan.parse("acme=4", "");

    private final TestEngine engine = TestEngine.get();
    private final String table =
            "console-writes-" + UUID.randomUUID().toString().substring(0, 8);
    private Path stateDir;
    private LocalApi api;

    @BeforeAll
    void start() throws Exception {
        // GIVEN start-api with the sample data (workspace acme), registered where the runner's deploy finds it
        stateDir = Files.createTempDirectory("console-writes");
        api = LocalApi.startRegistered(engine, table, stateDir.resolve("start-api.json"));
        // AND the operator's deploy that spreads acme over 4 shards, while it runs
        RunnerCommand.Run deployed = RunnerCommand.run(
                Map.of(),
                "deploy",
                "--parameter-overrides",
                "HotTenantShards=acme=4",
                "--state-file",
                stateDir.resolve("start-api.json").toString());
        assertThat(deployed.exitCode()).as(deployed.stderr()).isZero();
        assertThat(api.stack().parameters()).containsEntry("HotTenantShards", "acme=4");
    }

    @AfterAll
    void stop() throws Exception {
        if (api != null) {
            api.close();
        }
        Files.deleteIfExists(stateDir.resolve("start-api.json"));
        Files.deleteIfExists(stateDir);
    }

    // ---- No project without its workspace -------------------------------------------------------------------------

    @Test
    void import_ofAProjectWhoseWorkspaceIsNeitherInTheFileNorInTheTable_shouldBeRefused_andNeverListedLater()
            throws Exception {
        // GIVEN a file with one project, in a workspace that exists nowhere
        String ghost = Api.freshWorkspaceId("ghost");
        String id = Ulid.generator().next().value();
        String before = ConsoleHttp.export(api);
        // WHEN it is imported
        HttpResponse<String> imported = importFile(List.of(project(ghost, id)));
        // THEN 422, naming the item and why, and nothing is written
        ConsoleHttp.assertProblem(imported, 422, "neither in the file nor in the table");
        assertThat(refusedItems(imported))
                .singleElement()
                .satisfies(entry -> assertThat(entry)
                        .containsEntry("item", 0)
                        .containsEntry("partition", "WS#" + ghost)
                        .containsEntry("sort", "PROJ#" + id));
        assertThat(ConsoleHttp.export(api)).isEqualTo(before);
        // AND the API does not serve it
        assertThat(getProject(ghost, id).statusCode()).isEqualTo(404);
        // WHEN an operator later creates that workspace id for a new customer
        HttpResponse<String> created = api.send(
                "POST", "/workspaces", "{\"id\":\"" + ghost + "\",\"name\":\"New customer\"}", List.of(), true);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        // THEN the new customer lists no project, and cannot read the planted one
        assertThat(projectIds(ghost)).isEmpty();
        assertThat(getProject(ghost, id).statusCode()).isEqualTo(404);
    }

    @Test
    void import_ofAProjectWithItsWorkspaceInTheFileOrInTheTable_shouldGoIn_andBeServed() throws Exception {
        // GIVEN a workspace only the file holds, with a project; and a project of a workspace only the table holds
        String inFile = Api.freshWorkspaceId("infile");
        String inTable = Api.freshWorkspaceId("intable");
        api.send("POST", "/workspaces", "{\"id\":\"" + inTable + "\",\"name\":\"Table\"}", List.of(), true);
        String first = Ulid.generator().next().value();
        String second = Ulid.generator().next().value();
        // WHEN both are imported
        HttpResponse<String> imported =
                importFile(List.of(workspace(inFile), project(inFile, first), project(inTable, second)));
        // THEN all three go in, and the API serves both projects
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(200);
        assertThat(Json.readObject(imported.body())).containsEntry("imported", 3);
        assertThat(getProject(inFile, first).statusCode()).isEqualTo(200);
        assertThat(getProject(inTable, second).statusCode()).isEqualTo(200);
    }

    @Test
    void editOrDuplicate_ofAProjectWhoseWorkspaceIsGone_shouldBe422_andWriteNothing() throws Exception {
        // GIVEN a project with no workspace, written by hand through the engine's own client (an import refuses it)
        String ghost = Api.freshWorkspaceId("orphan");
        String id = Ulid.generator().next().value();
        engine.client.putItem(b -> b.tableName(table).item(DynamoJson.toItem(project(ghost, id))));
        String before = ConsoleHttp.export(api);
        String key = "\"partition\":\"WS#" + ghost + "\",\"sort\":\"PROJ#" + id + "\"";
        // WHEN it is edited, then duplicated
        HttpResponse<String> edited = ConsoleHttp.send(
                api,
                "POST",
                "/_console/api/item/edit",
                JSON,
                "{" + key + ",\"version\":1,\"attributes\":{\"name\":{\"S\":\"kept alive\"},"
                        + "\"status\":{\"S\":\"ACTIVE\"},\"createdAt\":{\"S\":\"2026-12-01T09:00:00Z\"}}}");
        HttpResponse<String> duplicated =
                ConsoleHttp.send(api, "POST", "/_console/api/item/duplicate", JSON, "{" + key + "}");
        // THEN each is a 422 that says why, and nothing is written
        ConsoleHttp.assertProblem(edited, 422, "its workspace " + ghost + " does not exist");
        ConsoleHttp.assertProblem(duplicated, 422, "its workspace " + ghost + " does not exist");
        assertThat(ConsoleHttp.export(api)).isEqualTo(before);
    }

    // ---- A duplicate within the quota -----------------------------------------------------------------------------

    @Test
    void duplicate_ofAProjectInAWorkspaceAtItsQuota_shouldBe409_asTheApisCreateIs() throws Exception {
        // GIVEN a workspace an operator limited to 2 projects, with 2, counted by a stats run
        String ws = Api.freshWorkspaceId("quota");
        assertThat(api.send(
                                "POST",
                                "/workspaces",
                                "{\"id\":\"" + ws + "\",\"name\":\"Quota\",\"projectQuota\":2}",
                                List.of(),
                                true)
                        .statusCode())
                .isEqualTo(201);
        // (written through the store, as the seed writes: CreateProject keeps its read of the workspace for a second,
        // and a read from before the stats run would let one create more through)
        ControlPlaneStore store = new ControlPlaneStore(engine.client, table);
        String first = null;
        for (String name : List.of("one", "two")) {
            ProjectId id = Ulid.generator().next();
            store.createProject(
                    WorkspaceId.of(ws),
                    id,
                    new NewProject(name, null, ProjectStatus.ACTIVE),
                    Instant.now(),
                    CreationToken.random(),
                    new CallTally());
            first = first == null ? id.value() : first;
        }
        new StatsRollup(engine.client, table, ShardPlan.none(), HotPartitionThreshold.defaults())
                .run(WorkspaceId.of(ws), 0, Ulid.generator().next().value(), Instant.now(), new CallTally());
        // AND the API's create refused by the quota
        HttpResponse<String> refusedByApi = api.createProject(ws, "{\"name\":\"three\"}");
        assertThat(refusedByApi.statusCode()).as(refusedByApi.body()).isEqualTo(409);
        // WHEN the console duplicates a project of it, three times
        String source = "{\"partition\":\"WS#" + ws + "\",\"sort\":\"PROJ#" + first + "\"}";
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> duplicated =
                    ConsoleHttp.send(api, "POST", "/_console/api/item/duplicate", JSON, source);
            // THEN each is the API's own refusal: 409, the quota's problem type, the counts and the limit
            ConsoleHttp.assertProblem(duplicated, 409, "its quota is 2");
            assertThat(Json.readObject(duplicated.body()))
                    .containsEntry("type", Problems.QUOTA_EXCEEDED)
                    .containsEntry("title", "Project quota exceeded")
                    .isEqualTo(Json.readObject(refusedByApi.body()));
        }
        // AND the workspace still has its 2 projects
        assertThat(projectIds(ws)).hasSize(2);
    }

    // ---- The shard plan the stack runs now ------------------------------------------------------------------------

    @Test
    void duplicate_ofAMovedProject_afterTheDeploy_shouldBeServedFromTheShardItsNewIdGoesTo() throws Exception {
        // GIVEN a project of acme created through the API after the deploy: at its shard
        String original = created(api.createProject(ACME.value(), "{\"name\":\"sharded\"}"));
        String partition = home(original);
        assertThat(partition).isNotEqualTo("WS#acme");
        // WHEN the console duplicates it
        HttpResponse<String> duplicated = ConsoleHttp.send(
                api,
                "POST",
                "/_console/api/item/duplicate",
                JSON,
                "{\"partition\":\"" + partition + "\",\"sort\":\"PROJ#" + original + "\"}");
        // THEN the copy is written at the shard the codec gives its own id, and the API serves and lists it
        assertThat(duplicated.statusCode()).as(duplicated.body()).isEqualTo(200);
        Map<String, Object> copy = Json.readObject(duplicated.body());
        String id = (String) copy.get("id");
        assertThat(copy).containsEntry("partition", home(id)).containsEntry("sort", "PROJ#" + id);
        HttpResponse<String> served = getProject(ACME.value(), id);
        assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
        assertThat(Json.readObject(served.body())).containsEntry("name", "sharded");
        assertThat(projectIds(ACME.value())).contains(original, id);
    }

    @Test
    void import_afterTheDeploy_ofAProjectExportedBeforeIt_shouldPlaceItAtItsShard_neverAtWsAcme() throws Exception {
        // GIVEN a file exported before the deploy: a project of acme at WS#acme
        String id = Ulid.generator().next().value();
        // WHEN it is imported
        HttpResponse<String> imported = importFile(List.of(project(ACME.value(), id)));
        // THEN it goes in at the shard the codec computes from its id, and the report says it was placed there
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(200);
        Map<String, Object> report = Json.readObject(imported.body());
        assertThat(report).containsEntry("imported", 1);
        assertThat(report.get("placed"))
                .as(imported.body())
                .isEqualTo(List.of(Map.of("item", 0, "from", "WS#acme", "partition", home(id), "sort", "PROJ#" + id)));
        assertServedFromItsShardOnly(id);
    }

    @Test
    void import_afterTheDeploy_ofAProjectAtItsShard_shouldGoIn_andBeServed() throws Exception {
        // GIVEN a file exported after the deploy: a project of acme at its shard
        String id = Ulid.generator().next().value();
        Map<String, Object> atShard = project(ACME.value(), id);
        atShard.put(KeyCodec.PARTITION_KEY, Map.of("S", home(id)));
        // WHEN it is imported
        HttpResponse<String> imported = importFile(List.of(atShard));
        // THEN it goes in where it is, and nothing needed placing
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(200);
        assertThat(Json.readObject(imported.body()))
                .containsEntry("imported", 1)
                .containsEntry("placed", List.of());
        assertServedFromItsShardOnly(id);
    }

    /** Project {@code id} of acme is at its shard, not at WS#acme, and the API serves and lists it. */
    private void assertServedFromItsShardOnly(String id) throws Exception {
        assertThat(engine.client
                        .getItem(b -> b.tableName(table).key(key(home(id), id)).consistentRead(true))
                        .item())
                .as(id + " at its shard")
                .isNotEmpty();
        assertThat(engine.client
                        .getItem(b -> b.tableName(table).key(key("WS#acme", id)).consistentRead(true))
                        .item())
                .as(id + " not at WS#acme")
                .isEmpty();
        HttpResponse<String> served = getProject(ACME.value(), id);
        assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
        assertThat(projectIds(ACME.value())).contains(id);
    }

    // ---- helpers --------------------------------------------------------------------------------------------------

    /** The partition the deployed plan gives project {@code id} of acme: computed by the key codec. */
    private static String home(String id) {
        return SHARDED.locate(ACME, ProjectId.of(id)).home().partition();
    }

    private static Map<String, AttributeValue> key(String partition, String id) {
        return Map.of(
                KeyCodec.PARTITION_KEY,
                AttributeValue.fromS(partition),
                KeyCodec.SORT_KEY,
                AttributeValue.fromS(KeyCodec.projectSortKey(ProjectId.of(id))));
    }

    private HttpResponse<String> importFile(List<Map<String, Object>> items) throws Exception {
        return ConsoleHttp.send(api, "POST", "/_console/api/fixtures", JSON, Json.write(Map.of("Items", items)));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> refusedItems(HttpResponse<String> response) {
        return (List<Map<String, Object>>) Json.readObject(response.body()).get("refused");
    }

    private HttpResponse<String> getProject(String ws, String id) throws Exception {
        return api.send("GET", "/workspaces/" + ws + "/projects/" + id, null, List.of(ws), false);
    }

    /** Every project id the API lists in {@code ws} (a page of 100 is all these tests make). */
    private List<String> projectIds(String ws) throws Exception {
        HttpResponse<String> listed =
                api.send("GET", "/workspaces/" + ws + "/projects?limit=100", null, List.of(ws), false);
        assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
        return ((List<?>) Json.readObject(listed.body()).get("items"))
                .stream().map(p -> (String) ((Map<?, ?>) p).get("id")).toList();
    }

    private static String created(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return (String) Json.readObject(response.body()).get("id");
    }

    /** A workspace as CreateWorkspace writes it. */
    private static Map<String, Object> workspace(String ws) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("EntityRef", s("WS#" + ws));
        item.put("Detail", s("META"));
        item.put("name", s("From the file"));
        item.put("settings", Map.of("M", Map.of()));
        item.put("createdAt", s("2026-12-01T09:00:00Z"));
        item.put("updatedAt", s("2026-12-01T09:00:00Z"));
        item.put("version", Map.of("N", "1"));
        return item;
    }

    /** A project as CreateProject writes it into an unsharded workspace. */
    private static Map<String, Object> project(String ws, String id) {
        return Fixtures.projectItem(ws, id);
    }

    private static Map<String, Object> s(String value) {
        return Map.of("S", value);
    }
}
