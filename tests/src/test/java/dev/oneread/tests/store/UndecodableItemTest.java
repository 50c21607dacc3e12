package dev.oneread.tests.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.IndexPlan;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.IndexTruth;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.TestEngine;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An item the API could not have written (by hand on AWS, or by another version), planted through the engine's
 * own client, met by each read route: a 500 problem of its own type that names nothing internal, the whole page
 * refused (never a silently shorter one), and one log line naming the key, with no stack trace. Issue 22 found a
 * bare NullPointerException 500 for a project without {@code createdAt}.
 */
class UndecodableItemTest {
    static final String UNDECODABLE = "https://oneread.dev/problems/undecodable-item";
    private static final String PROJECT_ID = "01JDQ6V7K4N3M2P1R0S9T8V7W6";

    private final TestEngine engine = TestEngine.get();

    /** A read route, and the item planted where it reads. */
    enum Read {
        GET_PROJECT("GetProject", "GET", ApiEvent.PROJECT, Fault.BOGUS_STATUS),
        GET_WORKSPACE("GetWorkspace", "GET", ApiEvent.WORKSPACE, Fault.NAME_IS_A_NUMBER),
        LIST_PROJECTS("ListProjects", "GET", ApiEvent.PROJECTS, Fault.NO_CREATED_AT),
        COLLECTION("GetWorkspaceCollection", "GET", ApiEvent.COLLECTION, Fault.BOGUS_STATUS),
        BY_STATUS("ListProjectsByStatus", "GET", ApiEvent.ALL_PROJECTS, Fault.NO_VERSION),
        LIST_WORKSPACES("ListWorkspaces", "GET", ApiEvent.WORKSPACES, Fault.NAME_IS_A_NUMBER);

        final String function;
        final String method;
        final String route;
        final Fault fault;

        Read(String function, String method, String route, Fault fault) {
            this.function = function;
            this.method = method;
            this.route = route;
            this.fault = fault;
        }
    }

    enum Fault {
        BOGUS_STATUS,
        NO_CREATED_AT,
        NO_VERSION,
        NAME_IS_A_NUMBER
    }

    @ParameterizedTest
    @EnumSource(Read.class)
    void read_shouldAnswerAnUndecodableItemProblem_andLogItsKeyOnce(Read read) throws InterruptedException {
        // GIVEN a table of its own, a workspace made through the API, and one item planted beside it
        String table = "undecodable-" + UUID.randomUUID().toString().substring(0, 8);
        Api api = new Api(ShardPlan.none(), table);
        String ws = Api.freshWorkspaceId("undecodable");
        assertThat(api.createWorkspace(ws, "Readable").status()).isEqualTo(201);
        assertThat(api.createProject(ws, "{\"name\":\"readable\"}").status()).isEqualTo(201);
        Map<String, AttributeValue> planted = read.fault == Fault.NAME_IS_A_NUMBER
                ? plantedWorkspace(read == Read.GET_WORKSPACE ? ws : Api.freshWorkspaceId("planted"))
                : plantedProject(ws, read.fault);
        engine.client.putItem(b -> b.tableName(table).item(planted));
        // (a listing reads the index, which trails the table: it starts once the index shows the planted item)
        IndexTruth.awaitSettled(engine.client, table);
        String partition = planted.get("EntityRef").s();
        String sort = planted.get("Detail").s();
        // WHEN the route reads it
        ApiEvent event = ApiEvent.of(read.method, read.route);
        if (read.route.contains("{workspaceId}")) {
            event = event.path("workspaceId", ws);
        }
        if (read == Read.GET_PROJECT) {
            event = event.path("projectId", PROJECT_ID);
        } else if (read == Read.BY_STATUS) {
            event = event.query(Map.of("status", "ACTIVE"));
        }
        Lambda.Response response = api.call(read.function, event);
        // THEN a problem of its own type, with nothing internal in it
        assertThat(response.status()).as(response.body()).isEqualTo(500);
        assertThat(response.contentType()).isEqualTo("application/problem+json");
        assertThat(response.json())
                .containsEntry("type", UNDECODABLE)
                .containsEntry("status", 500)
                .doesNotContainKey("detail");
        assertThat(response.body())
                .doesNotContain(partition, sort, ws, "Exception", "dev.oneread", "createdAt", "EntityRef", "Detail");
        // AND one log line names the key, and none carries a stack trace
        assertThat(response.logLines().stream().filter(line -> line.contains(sort) && line.contains(partition)))
                .hasSize(1);
        assertThat(response.logLines()).noneMatch(line -> line.contains("\tat ") || line.contains("at dev.oneread"));
    }

    /** A project of {@code ws} at PROJECT_ID, with its index keys, and one fault. */
    private static Map<String, AttributeValue> plantedProject(String ws, Fault fault) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("EntityRef", AttributeValue.fromS("WS#" + ws));
        item.put("Detail", AttributeValue.fromS("PROJ#" + PROJECT_ID));
        item.put("name", AttributeValue.fromS("planted"));
        item.put("status", AttributeValue.fromS(fault == Fault.BOGUS_STATUS ? "BOGUS" : "ACTIVE"));
        if (fault != Fault.NO_CREATED_AT) {
            item.put("createdAt", AttributeValue.fromS("2026-12-01T09:00:00Z"));
        }
        item.put("updatedAt", AttributeValue.fromS("2026-12-01T09:00:00Z"));
        if (fault != Fault.NO_VERSION) {
            item.put("version", AttributeValue.fromN("1"));
        }
        item.put(
                "GSI1PK",
                AttributeValue.fromS(IndexPlan.defaults().projectPartition("ACTIVE", ProjectId.of(PROJECT_ID))));
        item.put("GSI1SK", AttributeValue.fromS("PROJ#" + PROJECT_ID));
        return item;
    }

    /** A workspace whose name is a number, in the registry. */
    private static Map<String, AttributeValue> plantedWorkspace(String ws) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("EntityRef", AttributeValue.fromS("WS#" + ws));
        item.put("Detail", AttributeValue.fromS("META"));
        item.put("name", AttributeValue.fromN("7"));
        item.put("createdAt", AttributeValue.fromS("2026-12-01T09:00:00Z"));
        item.put("updatedAt", AttributeValue.fromS("2026-12-01T09:00:00Z"));
        item.put("version", AttributeValue.fromN("1"));
        item.put("GSI1PK", AttributeValue.fromS(IndexPlan.defaults().workspacePartition(WorkspaceId.of(ws))));
        item.put("GSI1SK", AttributeValue.fromS("WS#" + ws));
        return item;
    }
}
