package dev.oneread.tests.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Partitions;
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

    private record Attempt(String name, Lambda.Response response) {}

    @Test
    @SuppressWarnings("unchecked")
    void callerOfA_shouldGet404OnEveryRouteOfB_withoutTouchingB() {
        // GIVEN workspaces A and B, each with a project
        String a = Api.freshWorkspaceId("tenant-a");
        String b = Api.freshWorkspaceId("tenant-b");
        api.createWorkspace(a, "A");
        api.createWorkspace(b, "B");
        String projectOfA =
                (String) api.createProject(a, "{\"name\":\"a1\"}").json().get("id");
        String projectOfB =
                (String) api.createProject(b, "{\"name\":\"b1\"}").json().get("id");
        api.createProject(b, "{\"name\":\"b2\"}"); // so that B's first page has a cursor
        List<Map<String, AttributeValue>> bBefore = Partitions.items(api.engine.client, "WS#" + b);
        Map<String, Object> callerOfA = Map.of("sub", "user-a", "workspaces", a, "scope", "openid oneread/api");
        String cursorOfB = api.listProjects(b, Map.of("limit", "1")).nextCursor();
        Map<String, String> bProjectPath = Map.of("workspaceId", b, "projectId", projectOfB);
        Map<String, String> bProjectUnderA = Map.of("workspaceId", a, "projectId", projectOfB);
        Map<String, String> ifMatch = Map.of("If-Match", "\"1\"");
        // WHEN A's caller tries every route
        List<Attempt> attempts = new ArrayList<>();
        attempts.add(new Attempt(
                "GetWorkspace B",
                api.call("GetWorkspace", onB("GET", ApiEvent.WORKSPACE, b).claims(callerOfA))));
        attempts.add(new Attempt(
                "UpdateWorkspace B",
                api.call(
                        "UpdateWorkspace",
                        onB("PATCH", ApiEvent.WORKSPACE, b)
                                .body("{\"name\":\"pwned\"}")
                                .headers(ifMatch)
                                .claims(callerOfA))));
        attempts.add(new Attempt(
                "CreateProject in B",
                api.call(
                        "CreateProject",
                        onB("POST", ApiEvent.PROJECTS, b)
                                .body("{\"name\":\"x\"}")
                                .claims(callerOfA))));
        attempts.add(new Attempt(
                "ListProjects B",
                api.call("ListProjects", onB("GET", ApiEvent.PROJECTS, b).claims(callerOfA))));
        attempts.add(new Attempt(
                "ListProjects B with B's cursor",
                api.call(
                        "ListProjects",
                        onB("GET", ApiEvent.PROJECTS, b)
                                .query(Map.of("cursor", cursorOfB))
                                .claims(callerOfA))));
        attempts.add(new Attempt(
                "GetWorkspaceCollection B",
                api.call(
                        "GetWorkspaceCollection",
                        onB("GET", ApiEvent.COLLECTION, b).claims(callerOfA))));
        for (Map<String, String> path : List.of(bProjectPath, bProjectUnderA)) {
            String where = path == bProjectPath ? " (B's path)" : " (under A's path)";
            attempts.add(new Attempt(
                    "GetProject" + where,
                    api.call(
                            "GetProject",
                            ApiEvent.of("GET", ApiEvent.PROJECT).path(path).claims(callerOfA))));
            attempts.add(new Attempt(
                    "UpdateProject" + where,
                    api.call(
                            "UpdateProject",
                            ApiEvent.of("PATCH", ApiEvent.PROJECT)
                                    .path(path)
                                    .body("{\"status\":\"ARCHIVED\"}")
                                    .headers(ifMatch)
                                    .claims(callerOfA))));
            attempts.add(new Attempt(
                    "DeleteProject" + where,
                    api.call(
                            "DeleteProject",
                            ApiEvent.of("DELETE", ApiEvent.PROJECT).path(path).claims(callerOfA))));
        }
        // THEN every one is a 404 problem, and the audit shows no request to B's partition
        for (Attempt attempt : attempts) {
            assertThat(attempt.response().status()).as(attempt.name()).isEqualTo(404);
            assertThat(attempt.response().contentType()).as(attempt.name()).isEqualTo("application/problem+json");
            Map<String, Object> log =
                    Json.readObject(attempt.response().logLines().get(0));
            assertThat((List<Object>) log.get("partitions")).as(attempt.name()).doesNotContain("WS#" + b);
            if (attempt.name().contains("B")) {
                assertThat(attempt.response().dynamoCalls()).as(attempt.name()).isZero();
            }
        }
        assertThat(attempts).hasSize(12);
        // Creating a workspace is for operators: A's caller gets 403 whatever the id, and B is untouched.
        Lambda.Response create = api.call(
                "CreateWorkspace",
                ApiEvent.of("POST", ApiEvent.WORKSPACES)
                        .body("{\"id\":\"" + b + "\",\"name\":\"B2\"}")
                        .claims(callerOfA));
        assertThat(create.status()).isEqualTo(403);
        assertThat(create.dynamoCalls()).isZero();
        assertThat(Partitions.items(api.engine.client, "WS#" + b)).isEqualTo(bBefore);
        // And A's own project is still reachable by A: the 404s above are not a blanket refusal.
        assertThat(api.call(
                                "GetProject",
                                ApiEvent.of("GET", ApiEvent.PROJECT)
                                        .path(Map.of("workspaceId", a, "projectId", projectOfA))
                                        .claims(callerOfA))
                        .status())
                .isEqualTo(200);
    }

    private static ApiEvent onB(String method, String route, String b) {
        return ApiEvent.of(method, route).path("workspaceId", b);
    }

    @Test
    void arrayClaim_andOperatorScope_shouldBeUnderstood() {
        String a = Api.freshWorkspaceId("arr");
        api.createWorkspace(a, "A");
        ApiEvent get = ApiEvent.of("GET", ApiEvent.WORKSPACE).path("workspaceId", a);

        Lambda.Response flattenedArray = api.call(
                "GetWorkspace", get.claims(Map.of("workspaces", "[other " + a + "]", "scope", "openid oneread/api")));
        Lambda.Response operator = api.call("GetWorkspace", get.claims(Map.of("scope", "openid oneread/admin")));
        // scp and a bracketed scope list are not the scope claim's grammar (RFC 6749 §3.3): no access at all
        Lambda.Response looseOperator = api.call("GetWorkspace", get.claims(Map.of("scp", "[openid oneread/admin]")));
        Lambda.Response noClaims = api.call("GetWorkspace", get.withoutAuthorizer());

        assertThat(flattenedArray.status()).isEqualTo(200);
        assertThat(operator.status()).isEqualTo(200);
        assertThat(looseOperator.status()).isEqualTo(403);
        assertThat(looseOperator.dynamoCalls()).isZero();
        assertThat(noClaims.status()).isEqualTo(401);
        assertThat(noClaims.dynamoCalls()).isZero();
    }
}
