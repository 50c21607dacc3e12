package dev.oneread.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * OWASP API1 (broken object level authorization): a caller of workspace A, on every route, with workspace
 * B's ids and with B's project ids under A's path, never reaches B: 404, and not one request to WS#B.
 */
class CrossTenantTest {
    private final Api api = new Api();

    private record Attempt(String name, Lambda.Response response) {
    }

    @Test
    @SuppressWarnings("unchecked")
    void callerOfA_shouldGet404OnEveryRouteOfB_withoutTouchingB() {
        // GIVEN workspaces A and B, each with a project
        String a = Api.freshWorkspaceId("tenant-a");
        String b = Api.freshWorkspaceId("tenant-b");
        api.createWorkspace(a, "A");
        api.createWorkspace(b, "B");
        String projectOfA = (String) api.createProject(a, "{\"name\":\"a1\"}").json().get("id");
        String projectOfB = (String) api.createProject(b, "{\"name\":\"b1\"}").json().get("id");
        api.createProject(b, "{\"name\":\"b2\"}"); // so that B's first page has a cursor
        List<Map<String, AttributeValue>> bBefore = Partitions.items(api.engine.client, "WS#" + b);
        Map<String, Object> callerOfA = Map.of("sub", "user-a", "workspaces", a, "scope", "openid");
        String cursorOfB = (String) api.listProjects(b, Map.of("limit", "1")).json().get("nextCursor");
        String ws = "/workspaces/{workspaceId}";
        String projects = ws + "/projects";
        String project = projects + "/{projectId}";
        Map<String, String> bPath = Map.of("workspaceId", b);
        Map<String, String> bProjectPath = Map.of("workspaceId", b, "projectId", projectOfB);
        Map<String, String> bProjectUnderA = Map.of("workspaceId", a, "projectId", projectOfB);
        Map<String, String> ifMatch = Map.of("If-Match", "\"1\"");
        // WHEN A's caller tries every route
        List<Attempt> attempts = new ArrayList<>();
        attempts.add(new Attempt("GetWorkspace B", api.call("GetWorkspace", "GET", ws, bPath, Map.of(), null, Map.of(), callerOfA)));
        attempts.add(new Attempt("UpdateWorkspace B", api.call("UpdateWorkspace", "PATCH", ws, bPath, Map.of(),
                "{\"name\":\"pwned\"}", ifMatch, callerOfA)));
        attempts.add(new Attempt("CreateProject in B", api.call("CreateProject", "POST", projects, bPath, Map.of(),
                "{\"name\":\"x\"}", Map.of(), callerOfA)));
        attempts.add(new Attempt("ListProjects B", api.call("ListProjects", "GET", projects, bPath, Map.of(), null, Map.of(), callerOfA)));
        attempts.add(new Attempt("ListProjects B with B's cursor", api.call("ListProjects", "GET", projects, bPath,
                Map.of("cursor", cursorOfB), null, Map.of(), callerOfA)));
        attempts.add(new Attempt("GetWorkspaceCollection B", api.call("GetWorkspaceCollection", "GET", ws + "/collection",
                bPath, Map.of(), null, Map.of(), callerOfA)));
        for (Map<String, String> path : List.of(bProjectPath, bProjectUnderA)) {
            String where = path == bProjectPath ? " (B's path)" : " (under A's path)";
            attempts.add(new Attempt("GetProject" + where, api.call("GetProject", "GET", project, path, Map.of(), null, Map.of(), callerOfA)));
            attempts.add(new Attempt("UpdateProject" + where, api.call("UpdateProject", "PATCH", project, path, Map.of(),
                    "{\"status\":\"ARCHIVED\"}", ifMatch, callerOfA)));
            attempts.add(new Attempt("DeleteProject" + where, api.call("DeleteProject", "DELETE", project, path, Map.of(),
                    null, Map.of(), callerOfA)));
        }
        // THEN every one is a 404 problem, and the audit shows no request to B's partition
        for (Attempt attempt : attempts) {
            assertThat(attempt.response().status()).as(attempt.name()).isEqualTo(404);
            assertThat(attempt.response().contentType()).as(attempt.name()).isEqualTo("application/problem+json");
            Map<String, Object> log = Json.readObject(attempt.response().logLines().get(0));
            assertThat((List<Object>) log.get("partitions")).as(attempt.name()).doesNotContain("WS#" + b);
            if (attempt.name().contains("B")) {
                assertThat(attempt.response().dynamoCalls()).as(attempt.name()).isZero();
            }
        }
        assertThat(attempts).hasSize(12);
        // Creating a workspace is for operators: A's caller gets 403 whatever the id, and B is untouched.
        Lambda.Response create = api.call("CreateWorkspace", "POST", "/workspaces", Map.of(), Map.of(),
                "{\"id\":\"" + b + "\",\"name\":\"B2\"}", Map.of(), callerOfA);
        assertThat(create.status()).isEqualTo(403);
        assertThat(create.dynamoCalls()).isZero();
        assertThat(Partitions.items(api.engine.client, "WS#" + b)).isEqualTo(bBefore);
        // And A's own project is still reachable by A: the 404s above are not a blanket refusal.
        assertThat(api.call("GetProject", "GET", project, Map.of("workspaceId", a, "projectId", projectOfA), Map.of(),
                null, Map.of(), callerOfA).status()).isEqualTo(200);
    }

    @Test
    void arrayClaim_andOperatorScope_shouldBeUnderstood() {
        String a = Api.freshWorkspaceId("arr");
        api.createWorkspace(a, "A");
        Map<String, String> path = Map.of("workspaceId", a);

        Lambda.Response flattenedArray = api.call("GetWorkspace", "GET", "/workspaces/{workspaceId}", path, Map.of(), null,
                Map.of(), Map.of("workspaces", "[other " + a + "]"));
        Lambda.Response operator = api.call("GetWorkspace", "GET", "/workspaces/{workspaceId}", path, Map.of(), null,
                Map.of(), Map.of("scp", "[openid oneread/admin]"));
        Lambda.Response noClaims = api.call("GetWorkspace", "GET", "/workspaces/{workspaceId}", path, Map.of(), null,
                Map.of(), null);

        assertThat(flattenedArray.status()).isEqualTo(200);
        assertThat(operator.status()).isEqualTo(200);
        assertThat(noClaims.status()).isEqualTo(401);
        assertThat(noClaims.dynamoCalls()).isZero();
    }
}
