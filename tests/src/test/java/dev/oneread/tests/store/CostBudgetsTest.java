package dev.oneread.tests.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.runner.LocalQueues;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.operations.CostBudget;
import dev.oneread.operations.Descriptor;
import dev.oneread.operations.Operation;
import dev.oneread.operations.Operations;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.TestEngine;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every route against its {@link CostBudget}, the declaration the console flags requests by and each function logs
 * {@code overBudget} against (EmbeddedMetricFormatTest): everyday requests on
 * a plain workspace and on a hot tenant of 10 shards make exactly the budget's calls (a list page over several
 * partitions: its first round at least, both at most) and stay within its capacity.
 * The suite prints each route's budget and what it measured.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CostBudgetsTest {
    private final String ws = Api.freshWorkspaceId("budget");
    private final String hot = Api.freshWorkspaceId("budgethot");
    private final ShardPlan plan = ShardPlan.parse(hot + "=10", "");
    private final Api api = new Api(plan);
    private final List<String> report = new ArrayList<>();

    @BeforeAll
    void data() {
        api.createWorkspace(ws, "Budget");
        api.createWorkspace(hot, "Hot");
        for (int i = 0; i < 25; i++) {
            api.createProject(ws, "{\"name\":\"p" + i + "\",\"description\":\"an everyday project\"}");
            api.createProject(hot, "{\"name\":\"h" + i + "\"}");
        }
    }

    @AfterAll
    void print() {
        System.out.println("route budgets (calls, capacity units) and what each request measured:");
        report.forEach(line -> System.out.println("  " + line));
    }

    /** Asserts the response is within the route's budget, with exactly its calls, and records the line. */
    private void assertWithin(String function, String workspace, boolean keyed, Lambda.Response response) {
        assertThat(response.status()).as(response.body()).isLessThan(300);
        CostBudget budget = Operations.ofFunction(function)
                .map(Operation::descriptor)
                .map(Descriptor::budget)
                .orElseThrow();
        CostBudget.Allowance allowance = budget.allowance(plan, WorkspaceId.of(workspace), keyed);
        int calls = response.dynamoCalls();
        BigDecimal capacity = response.dynamoCapacity();
        report.add(String.format(
                "%-24s %-58s budget %2d calls %5s CU   measured %2d calls %5s CU%s",
                function,
                budget.description(),
                allowance.calls(),
                CostBudget.plain(allowance.capacity()),
                calls,
                CostBudget.plain(capacity),
                workspace.equals(hot)
                        ? "   (10 shards)"
                        : keyed
                                ? "   (Idempotency-Key)"
                                : function.startsWith("List") && !function.equals("ListProjects")
                                        ? "   (8 index shards)"
                                        : ""));
        if (fansOutInRounds(budget, allowance)) {
            // A page over several partitions asks each once (its share of the page and a margin), and a second
            // time only those that can still reach the page: the budget is both rounds, the least is round 1.
            assertThat(calls).as(function).isBetween(allowance.calls() / CostBudget.FAN_OUT_ROUNDS, allowance.calls());
        } else {
            assertThat(calls).as(function).isEqualTo(allowance.calls());
        }
        assertThat(capacity).as(function).isLessThanOrEqualTo(allowance.capacity());
        assertThat(allowance.overrun(calls, capacity)).isEmpty();
    }

    private static boolean fansOutInRounds(CostBudget budget, CostBudget.Allowance allowance) {
        return allowance.calls() > 1
                && switch (budget.fan()) {
                    case PROJECT_PARTITIONS, COLLECTION_PARTITIONS, INDEX_SHARDS -> true;
                    default -> false;
                };
    }

    @Test
    void everyRouteOfTheTemplate_shouldHaveABudget() {
        SamTemplate template = SamTemplate.load(TestEngine.get().root.resolve("template.yaml"));
        TreeSet<String> routed = new TreeSet<>();
        TreeSet<String> routeKeys = new TreeSet<>();
        template.resourcesOfType("AWS::Serverless::Function").forEach((id, resource) -> {
            Map<String, Object> events =
                    SamTemplate.map(SamTemplate.map(resource.get("Properties")).get("Events"));
            events.values().stream()
                    .map(SamTemplate::map)
                    .filter(e -> "HttpApi".equals(e.get("Type")))
                    .map(e -> SamTemplate.map(e.get("Properties")))
                    .forEach(route -> {
                        routed.add(id);
                        routeKeys.add(route.get("Method") + " " + route.get("Path"));
                    });
        });
        assertThat(routed).hasSize(13);
        assertThat(routeKeys).hasSize(13);
        // the catalogue's budget for each function, and the one its function logs against, found by the route key
        // API Gateway sends (the catalogue's route is held to the template by CatalogueTest)
        routed.forEach(id -> assertThat(
                        Operations.ofFunction(id).map(Operation::descriptor).map(Descriptor::budget))
                .as(id)
                .isPresent());
        routeKeys.forEach(key -> assertThat(CostBudget.ofRoute(key)).as(key).isPresent());
    }

    @Test
    void reads_shouldStayWithinTheirBudgets() {
        String project = api.listAllProjects(ws).get(0);
        String hotProject = api.listAllProjects(hot).get(0);
        assertWithin("GetWorkspace", ws, false, api.getWorkspace(ws));
        assertWithin("GetProject", ws, false, api.getProject(ws, project));
        assertWithin("GetProject", hot, false, api.getProject(hot, hotProject));
        assertWithin("ListProjects", ws, false, api.listProjects(ws, Map.of("limit", "100")));
        assertWithin("ListProjects", hot, false, api.listProjects(hot, Map.of("limit", "100")));
        assertWithin("GetWorkspaceCollection", ws, false, api.collection(ws, Map.of("limit", "100")));
        assertWithin("GetWorkspaceCollection", hot, false, api.collection(hot, Map.of("limit", "100")));
        Map<String, Object> operator = Map.of("sub", "op", "workspaces", "", "scope", "openid oneread/admin");
        assertWithin(
                "ListProjectsByStatus",
                ws,
                false,
                api.call(
                        "ListProjectsByStatus",
                        ApiEvent.of("GET", ApiEvent.ALL_PROJECTS)
                                .query(Map.of("status", "ACTIVE", "limit", "100"))
                                .claims(operator)));
        assertWithin(
                "GetHotTenantReport",
                ws,
                false,
                api.call(
                        "GetHotTenantReport",
                        ApiEvent.of("GET", "/reports/hot-tenants")
                                .query(Map.of("limit", "100"))
                                .claims(operator)));
        assertWithin(
                "ListWorkspaces",
                ws,
                false,
                api.call(
                        "ListWorkspaces",
                        ApiEvent.of("GET", ApiEvent.WORKSPACES)
                                .query(Map.of("limit", "100"))
                                .claims(operator)));
    }

    @Test
    void deleteWorkspace_shouldStayWithinItsBudget() {
        SamTemplate template = SamTemplate.load(TestEngine.get().root.resolve("template.yaml"));
        try (LocalQueues queues = LocalQueues.start(template, "budget", Duration.ofSeconds(30))) {
            api.withJobQueue(queues.client(), queues.url("JobQueue"), Duration.ofSeconds(12));
            String doomed = Api.freshWorkspaceId("budgetd");
            api.createWorkspace(doomed, "Doomed");
            assertWithin("DeleteWorkspace", doomed, false, api.deleteWorkspace(doomed, "\"1\""));
        }
    }

    @Test
    void writes_shouldStayWithinTheirBudgets() {
        String fresh = Api.freshWorkspaceId("budgetw");
        assertWithin("CreateWorkspace", fresh, false, api.createWorkspace(fresh, "Fresh"));
        String keyed = Api.freshWorkspaceId("budgetk");
        assertWithin(
                "CreateWorkspace",
                keyed,
                true,
                api.call(
                        "CreateWorkspace",
                        ApiEvent.of("POST", ApiEvent.WORKSPACES)
                                .header("Idempotency-Key", UUID.randomUUID().toString())
                                .body("{\"id\":\"" + keyed + "\",\"name\":\"Keyed\"}")));
        assertWithin("UpdateWorkspace", fresh, false, api.patchWorkspace(fresh, "\"1\"", "{\"name\":\"Renamed\"}"));
        Lambda.Response created = api.createProject(ws, "{\"name\":\"budgeted\"}");
        assertWithin("CreateProject", ws, false, created);
        String id = (String) created.json().get("id");
        assertWithin(
                "CreateProject",
                ws,
                true,
                api.createProject(ws, "{\"name\":\"keyed\"}", UUID.randomUUID().toString()));
        assertWithin("CreateProject", hot, false, api.createProject(hot, "{\"name\":\"hot one\"}"));
        assertWithin("UpdateProject", ws, false, api.patchProject(ws, id, "\"1\"", "{\"name\":\"renamed\"}"));
        // A status change moves the project's GSI1 entry to another index key: the dearest write of all (3 WCU).
        Lambda.Response moved = api.patchProject(ws, id, "\"2\"", "{\"status\":\"PAUSED\"}");
        assertWithin("UpdateProject", ws, false, moved);
        assertThat(moved.dynamoCapacity()).isEqualByComparingTo("3");
        assertWithin("DeleteProject", ws, false, api.deleteProject(ws, id, "\"3\""));
    }
}
