package dev.oneread.tests;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.oneread.functions.createproject.CreateProjectFunction;
import dev.oneread.functions.createworkspace.CreateWorkspaceFunction;
import dev.oneread.functions.deleteproject.DeleteProjectFunction;
import dev.oneread.functions.getproject.GetProjectFunction;
import dev.oneread.functions.getworkspace.GetWorkspaceFunction;
import dev.oneread.functions.getworkspacecollection.GetWorkspaceCollectionFunction;
import dev.oneread.functions.listprojects.ListProjectsFunction;
import dev.oneread.functions.updateproject.UpdateProjectFunction;
import dev.oneread.functions.updateworkspace.UpdateWorkspaceFunction;
import dev.oneread.http.FunctionConfig;
import dev.oneread.json.Json;
import dev.oneread.keys.ShardPlan;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Every function, wired to the test engine with the read audit on, called with API Gateway events. */
final class Api {
    final TestEngine engine = TestEngine.get();
    final Map<String, RequestStreamHandler> handlers = new LinkedHashMap<>();

    private final ShardPlan plan;

    Api() {
        this(ShardPlan.none());
    }

    /** Every function with this deployment's hot-tenant plan. */
    Api(ShardPlan plan) {
        this.plan = plan;
        DynamoDbClient client = engine.client;
        handlers.put("CreateWorkspace", new CreateWorkspaceFunction(client, config("CreateWorkspace", plan)));
        handlers.put("GetWorkspace", new GetWorkspaceFunction(client, config("GetWorkspace", plan)));
        handlers.put("CreateProject", new CreateProjectFunction(client, config("CreateProject", plan)));
        handlers.put("ListProjects", new ListProjectsFunction(client, engine.asyncClient, config("ListProjects", plan)));
        handlers.put("GetProject", new GetProjectFunction(client, config("GetProject", plan)));
        handlers.put("GetWorkspaceCollection",
                new GetWorkspaceCollectionFunction(client, engine.asyncClient, config("GetWorkspaceCollection", plan)));
        handlers.put("UpdateWorkspace", new UpdateWorkspaceFunction(client, config("UpdateWorkspace", plan)));
        handlers.put("UpdateProject", new UpdateProjectFunction(client, config("UpdateProject", plan)));
        handlers.put("DeleteProject", new DeleteProjectFunction(client, config("DeleteProject", plan)));
    }

    /** The key every test function seals cursors with (base64 of 32 bytes). */
    static final byte[] CURSOR_KEY = "oneread-test-cursor-key-32-bytes".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    static FunctionConfig config(String name) {
        return new FunctionConfig(name, TestEngine.TABLE, true, CURSOR_KEY);
    }

    private FunctionConfig config(String name, ShardPlan plan) {
        return new FunctionConfig(name, TestEngine.TABLE, true, CURSOR_KEY, plan);
    }

    /** Any request, with explicit headers and claims (null claims: no authorizer context at all). */
    Lambda.Response call(String function, String method, String route, Map<String, String> pathParameters,
                         Map<String, String> query, String body, Map<String, String> headers, Map<String, Object> claims) {
        return Lambda.invoke(handlers.get(function),
                ApiEvents.event(method, route, pathParameters, query, body, headers, claims));
    }

    Lambda.Response patchWorkspace(String workspaceId, String ifMatch, String body) {
        Map<String, String> path = Map.of("workspaceId", workspaceId);
        return call("UpdateWorkspace", "PATCH", "/workspaces/{workspaceId}", path, Map.of(), body,
                ifMatch == null ? Map.of() : Map.of("If-Match", ifMatch),
                ApiEvents.defaultClaims("PATCH", "/workspaces/{workspaceId}", path));
    }

    Lambda.Response patchProject(String workspaceId, String projectId, String ifMatch, String body) {
        Map<String, String> path = Map.of("workspaceId", workspaceId, "projectId", projectId);
        String route = "/workspaces/{workspaceId}/projects/{projectId}";
        return call("UpdateProject", "PATCH", route, path, Map.of(), body,
                ifMatch == null ? Map.of() : Map.of("If-Match", ifMatch), ApiEvents.defaultClaims("PATCH", route, path));
    }

    Lambda.Response deleteProject(String workspaceId, String projectId, String ifMatch) {
        Map<String, String> path = Map.of("workspaceId", workspaceId, "projectId", projectId);
        String route = "/workspaces/{workspaceId}/projects/{projectId}";
        return call("DeleteProject", "DELETE", route, path, Map.of(), null,
                ifMatch == null ? Map.of() : Map.of("If-Match", ifMatch), ApiEvents.defaultClaims("DELETE", route, path));
    }

    Lambda.Response createProject(String workspaceId, String body, String idempotencyKey) {
        Map<String, String> path = Map.of("workspaceId", workspaceId);
        String route = "/workspaces/{workspaceId}/projects";
        return call("CreateProject", "POST", route, path, Map.of(), body, Map.of("Idempotency-Key", idempotencyKey),
                ApiEvents.defaultClaims("POST", route, path));
    }

    /** A workspace id no other test uses. */
    static String freshWorkspaceId(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    Lambda.Response createWorkspace(String body) {
        return Lambda.invoke(handlers.get("CreateWorkspace"),
                ApiEvents.event("POST", "/workspaces", Map.of(), Map.of(), body));
    }

    Lambda.Response createWorkspace(String id, String name) {
        return createWorkspace(Json.write(Map.of("id", id, "name", name, "settings", Map.of("plan", "team"))));
    }

    Lambda.Response getWorkspace(String workspaceId) {
        return Lambda.invoke(handlers.get("GetWorkspace"), ApiEvents.event("GET", "/workspaces/{workspaceId}",
                Map.of("workspaceId", workspaceId), Map.of(), null));
    }

    Lambda.Response createProject(String workspaceId, String body) {
        return Lambda.invoke(handlers.get("CreateProject"), ApiEvents.event("POST",
                "/workspaces/{workspaceId}/projects", Map.of("workspaceId", workspaceId), Map.of(), body));
    }

    Lambda.Response listProjects(String workspaceId, Map<String, String> query) {
        return Lambda.invoke(handlers.get("ListProjects"), ApiEvents.event("GET",
                "/workspaces/{workspaceId}/projects", Map.of("workspaceId", workspaceId), query, null));
    }

    Lambda.Response getProject(String workspaceId, String projectId) {
        return Lambda.invoke(handlers.get("GetProject"), ApiEvents.event("GET",
                "/workspaces/{workspaceId}/projects/{projectId}",
                Map.of("workspaceId", workspaceId, "projectId", projectId), Map.of(), null));
    }

    Lambda.Response collection(String workspaceId, Map<String, String> query) {
        return Lambda.invoke(handlers.get("GetWorkspaceCollection"), ApiEvents.event("GET",
                "/workspaces/{workspaceId}/collection", Map.of("workspaceId", workspaceId), query, null));
    }
}
