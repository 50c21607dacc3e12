package dev.oneread.tests.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.oneread.functions.createproject.CreateProjectFunction;
import dev.oneread.functions.createworkspace.CreateWorkspaceFunction;
import dev.oneread.functions.deleteproject.DeleteProjectFunction;
import dev.oneread.functions.deleteworkspace.DeleteWorkspaceFunction;
import dev.oneread.functions.gethottenantreport.GetHotTenantReportFunction;
import dev.oneread.functions.getproject.GetProjectFunction;
import dev.oneread.functions.getworkspace.GetWorkspaceFunction;
import dev.oneread.functions.getworkspacecollection.GetWorkspaceCollectionFunction;
import dev.oneread.functions.listprojects.ListProjectsFunction;
import dev.oneread.functions.listprojectsbystatus.ListProjectsByStatusFunction;
import dev.oneread.functions.listworkspaces.ListWorkspacesFunction;
import dev.oneread.functions.updateproject.UpdateProjectFunction;
import dev.oneread.functions.updateworkspace.UpdateWorkspaceFunction;
import dev.oneread.json.Json;
import dev.oneread.keys.ShardPlan;
import dev.oneread.runtime.FunctionConfig;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/** Every function, wired to the test engine with the read audit on, called with API Gateway events. */
public final class Api {
    public final TestEngine engine;
    public final Map<String, RequestStreamHandler> handlers = new LinkedHashMap<>();

    private final ShardPlan plan;
    public final String table;

    public Api() {
        this(ShardPlan.none());
    }

    /** Every function with this deployment's hot-tenant plan. */
    public Api(ShardPlan plan) {
        this(plan, TestEngine.TABLE);
    }

    /** Every function on a table of its own (made from template.yaml if missing), with this plan. */
    public Api(ShardPlan plan, String table) {
        this(TestEngine.get(), plan, table);
    }

    /** Every function on {@code engine} (one at other partition limits), on {@code table}, with this plan. */
    public Api(TestEngine engine, ShardPlan plan, String table) {
        this.engine = engine;
        this.plan = plan;
        this.table = table;
        if (!table.equals(TestEngine.TABLE)) {
            dev.oneread.local.template.TemplateTables.from(
                            dev.oneread.local.template.SamTemplate.load(engine.root.resolve("template.yaml")))
                    .createMissing(engine.client, Map.of("Table", table));
        }
        // Each function signs as itself: the IAM front allows what its role allows, and nothing else.
        handlers.put(
                "CreateWorkspace",
                new CreateWorkspaceFunction(client("CreateWorkspace"), config("CreateWorkspace", plan, table)));
        handlers.put(
                "GetWorkspace", new GetWorkspaceFunction(client("GetWorkspace"), config("GetWorkspace", plan, table)));
        handlers.put(
                "CreateProject",
                new CreateProjectFunction(client("CreateProject"), config("CreateProject", plan, table)));
        handlers.put(
                "ListProjects",
                new ListProjectsFunction(client("ListProjects"), engine.pool, config("ListProjects", plan, table)));
        handlers.put("GetProject", new GetProjectFunction(client("GetProject"), config("GetProject", plan, table)));
        handlers.put(
                "GetWorkspaceCollection",
                new GetWorkspaceCollectionFunction(
                        client("GetWorkspaceCollection"), engine.pool, config("GetWorkspaceCollection", plan, table)));
        handlers.put(
                "UpdateWorkspace",
                new UpdateWorkspaceFunction(client("UpdateWorkspace"), config("UpdateWorkspace", plan, table)));
        handlers.put(
                "UpdateProject",
                new UpdateProjectFunction(client("UpdateProject"), config("UpdateProject", plan, table)));
        handlers.put(
                "DeleteProject",
                new DeleteProjectFunction(client("DeleteProject"), config("DeleteProject", plan, table)));
        handlers.put(
                "ListProjectsByStatus",
                new ListProjectsByStatusFunction(
                        client("ListProjectsByStatus"), engine.pool, config("ListProjectsByStatus", plan, table)));
        handlers.put(
                "GetHotTenantReport",
                new GetHotTenantReportFunction(
                        client("GetHotTenantReport"), config("GetHotTenantReport", plan, table)));
        handlers.put(
                "ListWorkspaces",
                new ListWorkspacesFunction(
                        client("ListWorkspaces"), engine.pool, config("ListWorkspaces", plan, table)));
    }

    /**
     * Adds DeleteWorkspace, which needs the job queue for its purge task: on the queues a test started, with the
     * fence it chose.
     */
    public Api withJobQueue(SqsClient sqs, String queueUrl, Duration fence) {
        return withJobQueue(sqs, queueUrl, fence, Clock.systemUTC());
    }

    /** As {@link #withJobQueue(SqsClient, String, Duration)}, the DELETE stamping its time from {@code clock}. */
    public Api withJobQueue(SqsClient sqs, String queueUrl, Duration fence, Clock clock) {
        handlers.put(
                "DeleteWorkspace",
                new DeleteWorkspaceFunction(
                        client("DeleteWorkspace"),
                        sqs,
                        queueUrl,
                        config("DeleteWorkspace", plan, table),
                        fence,
                        clock));
        return this;
    }

    /** The client {@code function} signs with, on this Api's table. */
    private DynamoDbClient client(String function) {
        return engine.functionClient(function, table);
    }

    /** DELETE /workspaces/{id} as an operator (see {@link #withJobQueue}). */
    public Lambda.Response deleteWorkspace(String workspaceId, String ifMatch) {
        return call(
                "DeleteWorkspace",
                ifMatch(onWorkspace("DELETE", ApiEvent.WORKSPACE, workspaceId), ifMatch)
                        .claims(Map.of("sub", "op", "workspaces", "", "scope", "openid oneread/admin")));
    }

    /** The key every test function seals cursors with (base64 of 32 bytes). */
    public static final byte[] CURSOR_KEY = "oneread-test-cursor-key-32-bytes".getBytes(StandardCharsets.UTF_8);

    public static FunctionConfig config(String name) {
        return new FunctionConfig(name, TestEngine.TABLE, true, CURSOR_KEY);
    }

    /** A function's configuration with this deployment's hot-tenant plan. */
    public static FunctionConfig config(String name, ShardPlan plan) {
        return config(name, plan, TestEngine.TABLE);
    }

    public static FunctionConfig config(String name, ShardPlan plan, String table) {
        return new FunctionConfig(name, table, true, CURSOR_KEY, plan);
    }

    /** Any request to one function. */
    public Lambda.Response call(String function, ApiEvent event) {
        return Lambda.invoke(handlers.get(function), event);
    }

    /** A workspace id no other test uses. */
    public static String freshWorkspaceId(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A new workspace named Acme under a fresh id (the route tests' usual start): its id. */
    public String newWorkspace() {
        String ws = freshWorkspaceId("w");
        assertThat(createWorkspace(ws, "Acme").status()).isEqualTo(201);
        return ws;
    }

    private static ApiEvent onWorkspace(String method, String route, String workspaceId) {
        return ApiEvent.of(method, route).path("workspaceId", workspaceId);
    }

    private static ApiEvent onProject(String method, String workspaceId, String projectId) {
        return onWorkspace(method, ApiEvent.PROJECT, workspaceId).path("projectId", projectId);
    }

    private static ApiEvent ifMatch(ApiEvent event, String ifMatch) {
        return ifMatch == null ? event : event.header("If-Match", ifMatch);
    }

    public Lambda.Response createWorkspace(String body) {
        return call("CreateWorkspace", ApiEvent.of("POST", ApiEvent.WORKSPACES).body(body));
    }

    public Lambda.Response createWorkspace(String id, String name) {
        return createWorkspace(Json.write(Map.of("id", id, "name", name, "settings", Map.of("plan", "team"))));
    }

    public Lambda.Response getWorkspace(String workspaceId) {
        return call("GetWorkspace", onWorkspace("GET", ApiEvent.WORKSPACE, workspaceId));
    }

    public Lambda.Response patchWorkspace(String workspaceId, String ifMatch, String body) {
        return call(
                "UpdateWorkspace",
                ifMatch(onWorkspace("PATCH", ApiEvent.WORKSPACE, workspaceId).body(body), ifMatch));
    }

    /** PATCH /workspaces/{id} as an operator, who alone may set a workspace's project quota. */
    public Lambda.Response patchWorkspaceAsOperator(String workspaceId, String ifMatch, String body) {
        return call(
                "UpdateWorkspace",
                ifMatch(onWorkspace("PATCH", ApiEvent.WORKSPACE, workspaceId).body(body), ifMatch)
                        .claims(Map.of("sub", "op", "workspaces", "", "scope", "openid oneread/admin")));
    }

    public Lambda.Response createProject(String workspaceId, String body) {
        return call(
                "CreateProject",
                onWorkspace("POST", ApiEvent.PROJECTS, workspaceId).body(body));
    }

    public Lambda.Response createProject(String workspaceId, String body, String idempotencyKey) {
        return call(
                "CreateProject",
                onWorkspace("POST", ApiEvent.PROJECTS, workspaceId)
                        .body(body)
                        .header("Idempotency-Key", idempotencyKey));
    }

    public Lambda.Response listProjects(String workspaceId, Map<String, String> query) {
        return call(
                "ListProjects",
                onWorkspace("GET", ApiEvent.PROJECTS, workspaceId).query(query));
    }

    /** Every project of a workspace, newest first, read 100 a page through ListProjects. */
    public List<String> listAllProjects(String workspaceId) {
        return Pages.ids(Pages.follow(Map.of("limit", "100"), query -> listProjects(workspaceId, query)), "items");
    }

    public Lambda.Response getProject(String workspaceId, String projectId) {
        return call("GetProject", onProject("GET", workspaceId, projectId));
    }

    public Lambda.Response patchProject(String workspaceId, String projectId, String ifMatch, String body) {
        return call(
                "UpdateProject",
                ifMatch(onProject("PATCH", workspaceId, projectId).body(body), ifMatch));
    }

    public Lambda.Response deleteProject(String workspaceId, String projectId, String ifMatch) {
        return call("DeleteProject", ifMatch(onProject("DELETE", workspaceId, projectId), ifMatch));
    }

    public Lambda.Response collection(String workspaceId, Map<String, String> query) {
        return call(
                "GetWorkspaceCollection",
                onWorkspace("GET", ApiEvent.COLLECTION, workspaceId).query(query));
    }
}
