package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.local.ProjectRoot;
import dev.oneread.tests.support.OpenApiContract;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The validator against the real openapi.yaml: what a valid response looks like, and each kind of breach. */
class OpenApiContractTest {
    private static final OpenApiContract CONTRACT =
            OpenApiContract.load(ProjectRoot.find().resolve("openapi.yaml"));
    private static final String JSON = "application/json";
    private static final String PROBLEM = "application/problem+json";
    private static final String GET_WORKSPACE = "GET /workspaces/{workspaceId}";
    private static final String GET_PROJECT = "GET /workspaces/{workspaceId}/projects/{projectId}";
    private static final String LIST_PROJECTS = "GET /workspaces/{workspaceId}/projects";
    private static final String DELETE_PROJECT = "DELETE /workspaces/{workspaceId}/projects/{projectId}";

    private static final String COLLECTION = "GET /workspaces/{workspaceId}/collection";

    /** A route and the problem statuses its function may answer (401 is apart: the authorizer sends it). */
    private record Route(String key, List<Integer> problems) {}

    private static final List<Route> ROUTES = List.of(
            new Route("POST /workspaces", List.of(400, 403, 409, 413, 415, 422, 500, 503)),
            new Route(GET_WORKSPACE, List.of(400, 404, 500, 503)),
            new Route("PATCH /workspaces/{workspaceId}", List.of(400, 404, 412, 413, 415, 428, 500, 503)),
            new Route("POST /workspaces/{workspaceId}/projects", List.of(400, 404, 409, 413, 415, 422, 500, 503)),
            new Route(LIST_PROJECTS, List.of(400, 404, 500, 503)),
            new Route(GET_PROJECT, List.of(400, 404, 500, 503)),
            new Route(
                    "PATCH /workspaces/{workspaceId}/projects/{projectId}",
                    List.of(400, 404, 412, 413, 415, 428, 500, 503)),
            new Route(DELETE_PROJECT, List.of(400, 404, 412, 500, 503)),
            new Route(COLLECTION, List.of(400, 404, 500, 503)));

    @Test
    void violations_shouldBeEmpty_whenAWorkspaceBodyIsValid() {
        // GIVEN settings of every JSON kind, since settings are free-form
        Map<String, Object> workspace = workspace();
        workspace.put(
                "settings",
                Map.of(
                        "plan",
                        "team",
                        "seats",
                        12,
                        "ratio",
                        new BigDecimal("0.5"),
                        "sso",
                        true,
                        "domains",
                        List.of("acme.dev"),
                        "limits",
                        Map.of("projects", 100)));
        // WHEN
        List<String> violations = violations(GET_WORKSPACE, 200, JSON, Json.write(workspace));
        // THEN
        assertThat(violations).isEmpty();
    }

    @Test
    void violations_shouldBeEmpty_whenNullableFieldsAreNull() {
        // GIVEN a project without description on the last page, and a collection page without the workspace
        Map<String, Object> page = new LinkedHashMap<>();
        page.put("items", List.of(project()));
        page.put("nextCursor", null);
        Map<String, Object> collection = new LinkedHashMap<>();
        collection.put("workspace", null);
        collection.put("projects", List.of(project()));
        collection.put("nextCursor", null);
        // WHEN
        List<String> violations = new ArrayList<>();
        violations.addAll(violations(LIST_PROJECTS, 200, JSON, Json.write(page)));
        violations.addAll(violations(COLLECTION, 200, JSON, Json.write(collection)));
        // THEN
        assertThat(violations).isEmpty();
    }

    @Test
    void violations_shouldReportAMissingField_whenARequiredFieldIsAbsent() {
        // GIVEN
        Map<String, Object> workspace = workspace();
        workspace.remove("version");
        // WHEN
        List<String> violations = violations(GET_WORKSPACE, 200, JSON, Json.write(workspace));
        // THEN
        assertThat(violations)
                .containsExactly("GET /workspaces/{workspaceId} 200: $: required property 'version' not found");
    }

    @Test
    void violations_shouldReportAnExtraField_whenTheBodyHasAnUndocumentedProperty() {
        // GIVEN a key attribute leaking into the representation
        Map<String, Object> workspace = workspace();
        workspace.put("entityRef", "WS#acme");
        // WHEN
        List<String> violations = violations(GET_WORKSPACE, 200, JSON, Json.write(workspace));
        // THEN
        assertThat(violations)
                .containsExactly(
                        "GET /workspaces/{workspaceId} 200: $: property 'entityRef' is not defined in the schema and the schema "
                                + "does not allow additional properties");
    }

    @Test
    void violations_shouldReportAWrongType_whenVersionIsAString() {
        // GIVEN
        Map<String, Object> workspace = workspace();
        workspace.put("version", "1");
        // WHEN
        List<String> violations = violations(GET_WORKSPACE, 200, JSON, Json.write(workspace));
        // THEN
        assertThat(violations)
                .containsExactly("GET /workspaces/{workspaceId} 200: $.version: string found, integer expected");
    }

    @Test
    void violations_shouldReportABadEnum_whenAListedProjectHasAnUnknownStatus() {
        // GIVEN
        Map<String, Object> project = project();
        project.put("status", "DELETED");
        Map<String, Object> page = new LinkedHashMap<>();
        page.put("items", List.of(project(), project));
        page.put("nextCursor", "UFJPSiMwMU04VkU0MlJGQVZZU0cyRjJFQ0tGMkNCWg");
        // WHEN
        List<String> violations = violations(LIST_PROJECTS, 200, JSON, Json.write(page));
        // THEN the path names the item
        assertThat(violations)
                .containsExactly(
                        "GET /workspaces/{workspaceId}/projects 200: $.items[1].status: does not have a value in the "
                                + "enumeration [\"ACTIVE\", \"PAUSED\", \"ARCHIVED\"]");
    }

    @Test
    void violations_shouldReportABadPattern_whenIdsAreNotCanonical() {
        // GIVEN an upper-case slug and a lower-case ULID
        Map<String, Object> project = project();
        project.put("workspaceId", "Acme");
        project.put("id", "01jdq6v7k4n3m2p1r0s9t8v7w6");
        // WHEN
        List<String> violations = violations(GET_PROJECT, 200, JSON, Json.write(project));
        // THEN
        assertThat(violations)
                .containsExactlyInAnyOrder(
                        "GET /workspaces/{workspaceId}/projects/{projectId} 200: $.id: "
                                + "does not match the regex pattern ^[0-7][0-9A-HJKMNP-TV-Z]{25}$",
                        "GET /workspaces/{workspaceId}/projects/{projectId} 200: $.workspaceId: "
                                + "does not match the regex pattern ^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$");
    }

    @Test
    void violations_shouldReportANull_whenANonNullableFieldIsNull() {
        // GIVEN description may be null, name may not
        Map<String, Object> project = project();
        project.put("name", null);
        // WHEN
        List<String> violations = violations(GET_PROJECT, 200, JSON, Json.write(project));
        // THEN
        assertThat(violations)
                .containsExactly(
                        "GET /workspaces/{workspaceId}/projects/{projectId} 200: $.name: null found, string expected");
    }

    @Test
    void violations_shouldReportTheWorkspacesOwnViolation_whenACollectionsWorkspaceIsInvalid() {
        // GIVEN workspace is "a Workspace or null": a broken workspace must be reported with its own violation,
        // not merely as not null
        Map<String, Object> workspace = workspace();
        workspace.remove("settings");
        Map<String, Object> collection = new LinkedHashMap<>();
        collection.put("workspace", workspace);
        collection.put("projects", List.of());
        collection.put("nextCursor", null);
        // WHEN
        List<String> violations = violations(COLLECTION, 200, JSON, Json.write(collection));
        // THEN
        assertThat(violations)
                .containsExactlyInAnyOrder(
                        "GET /workspaces/{workspaceId}/collection 200: $.workspace: required property 'settings' not found",
                        "GET /workspaces/{workspaceId}/collection 200: $.workspace: does not have a value in the enumeration [null]");
    }

    @Test
    void violations_shouldReportBounds_whenLengthOrValueIsOutOfRange() {
        // GIVEN
        Map<String, Object> project = project();
        project.put("name", "");
        project.put("description", "d".repeat(2001));
        project.put("version", 0);
        // WHEN
        List<String> violations = violations(GET_PROJECT, 200, JSON, Json.write(project));
        // THEN
        assertThat(violations)
                .containsExactlyInAnyOrder(
                        "GET /workspaces/{workspaceId}/projects/{projectId} 200: $.name: must be at least 1 characters long",
                        "GET /workspaces/{workspaceId}/projects/{projectId} 200: $.description: must be at most 2000 characters long",
                        "GET /workspaces/{workspaceId}/projects/{projectId} 200: $.version: must have a minimum value of 1");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "2026-12-02T12:00:00",
                "2026-12-02T13:00:00+01:00",
                "2026-13-02T12:00:00Z",
                "2026-12-02 12:00:00Z",
                "1764676800000"
            })
    void violations_shouldReportABadTimestamp_whenItIsNotAUtcInstant(String timestamp) {
        // GIVEN no zone, an offset rather than UTC, an impossible month, no T, epoch millis
        Map<String, Object> workspace = workspace();
        workspace.put("createdAt", timestamp);
        // WHEN
        List<String> violations = violations(GET_WORKSPACE, 200, JSON, Json.write(workspace));
        // THEN
        assertThat(violations)
                .containsExactly("GET /workspaces/{workspaceId} 200: $.createdAt: \"" + timestamp
                        + "\" is not a UTC date-time like 2026-12-02T12:00:00.123Z");
    }

    @Test
    void violations_shouldReportAnUndocumentedStatus_whenTheRouteNeverAnswersIt() {
        // WHEN a status the API never uses
        List<String> violations = violations(GET_WORKSPACE, 418, PROBLEM, problem(418));
        // THEN
        assertThat(violations)
                .containsExactly("GET /workspaces/{workspaceId} 418: the status is not documented "
                        + "(documented: 200, 400, 401, 403, 429, 404, 500, 503)");
    }

    @Test
    void violations_shouldReportAnUndocumentedOperation_whenTheMethodHasNoRoute() {
        // WHEN
        List<String> violations =
                CONTRACT.violations("PUT", "/workspaces/{workspaceId}", 200, JSON, Json.write(workspace()));
        // THEN
        assertThat(violations).containsExactly("PUT /workspaces/{workspaceId}: the operation is not documented");
    }

    @Test
    void violations_shouldReportTheContentType_whenAProblemIsSentAsPlainJson() {
        // WHEN
        List<String> violations = violations(GET_WORKSPACE, 404, JSON, problem(404));
        // THEN
        assertThat(violations)
                .containsExactly("GET /workspaces/{workspaceId} 404: content type application/json "
                        + "is not documented (documented: application/problem+json)");
    }

    @Test
    void violations_shouldIgnoreMediaTypeParameters_whenTheMediaTypeIsDocumented() {
        // WHEN
        List<String> violations =
                violations(GET_WORKSPACE, 200, "Application/JSON; charset=utf-8", Json.write(workspace()));
        // THEN
        assertThat(violations).isEmpty();
    }

    @Test
    void violations_shouldReportAMissingBody_whenAJsonBodyIsDocumented() {
        // WHEN
        List<String> violations = violations(GET_WORKSPACE, 200, JSON, "");
        // THEN
        assertThat(violations)
                .containsExactly(
                        "GET /workspaces/{workspaceId} 200: the body is empty, but application/json documents one");
    }

    @Test
    void violations_shouldReportTheBody_whenItIsNotJson() {
        // WHEN
        List<String> violations = violations(GET_WORKSPACE, 503, PROBLEM, "Service Unavailable");
        // THEN
        assertThat(violations).containsExactly("GET /workspaces/{workspaceId} 503: the body is not JSON");
    }

    @Test
    void violations_shouldReportABody_whenA204HasOne() {
        // WHEN
        List<String> empty = violations(DELETE_PROJECT, 204, null, "");
        List<String> withBody = violations(DELETE_PROJECT, 204, JSON, "{}");
        // THEN
        assertThat(empty).isEmpty();
        assertThat(withBody)
                .containsExactly(
                        "DELETE /workspaces/{workspaceId}/projects/{projectId} 204: a 204 must have no body, got 2 characters");
    }

    @Test
    void violations_shouldReportAnExtraProblemMember_whenTheProblemHasMoreThanRfc9457Fields() {
        // GIVEN
        Map<String, Object> problem = Json.readObject(problem(500));
        problem.put("stackTrace", "java.lang.IllegalStateException");
        // WHEN
        List<String> violations = violations(GET_WORKSPACE, 500, PROBLEM, Json.write(problem));
        // THEN
        assertThat(violations)
                .containsExactly(
                        "GET /workspaces/{workspaceId} 500: $: property 'stackTrace' is not defined in the schema and the schema "
                                + "does not allow additional properties");
    }

    static Stream<Arguments> documentedProblems() {
        return ROUTES.stream()
                .flatMap(route -> route.problems().stream().map(status -> Arguments.of(route.key(), status)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("documentedProblems")
    void violations_shouldBeEmpty_whenARouteAnswersOneOfItsProblems(String routeKey, int status) {
        // WHEN
        List<String> violations = violations(routeKey, status, PROBLEM, problem(status));
        // THEN
        assertThat(violations).isEmpty();
    }

    static Stream<String> routes() {
        return ROUTES.stream().map(Route::key);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("routes")
    void violations_shouldBeEmpty_when401ComesFromTheAuthorizerOrAFunction(String routeKey) {
        // WHEN API Gateway rejects the token before any function runs, or a function gets no verified claims
        List<String> fromAuthorizer = violations(routeKey, 401, JSON, "{\"message\":\"Unauthorized\"}");
        List<String> fromFunction = violations(routeKey, 401, PROBLEM, problem(401));
        // THEN
        assertThat(fromAuthorizer).isEmpty();
        assertThat(fromFunction).isEmpty();
    }

    static Stream<Arguments> successes() {
        Map<String, Object> page = new LinkedHashMap<>();
        page.put("items", List.of(project(), project()));
        page.put("nextCursor", "UFJPSiMwMU04VkU0MlJGQVZZU0cyRjJFQ0tGMkNCWg");
        Map<String, Object> collection = new LinkedHashMap<>();
        collection.put("workspace", workspace());
        collection.put("projects", List.of(project()));
        collection.put("nextCursor", null);
        return Stream.of(
                Arguments.of("POST /workspaces", 201, Json.write(workspace())),
                Arguments.of(GET_WORKSPACE, 200, Json.write(workspace())),
                Arguments.of("PATCH /workspaces/{workspaceId}", 200, Json.write(workspace())),
                Arguments.of("POST /workspaces/{workspaceId}/projects", 201, Json.write(project())),
                Arguments.of(LIST_PROJECTS, 200, Json.write(page)),
                Arguments.of(GET_PROJECT, 200, Json.write(project())),
                Arguments.of("PATCH /workspaces/{workspaceId}/projects/{projectId}", 200, Json.write(project())),
                Arguments.of(COLLECTION, 200, Json.write(collection)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("successes")
    void violations_shouldBeEmpty_whenARouteAnswersItsSuccessBody(String routeKey, int status, String body) {
        // WHEN
        List<String> violations = violations(routeKey, status, JSON, body);
        // THEN
        assertThat(violations).isEmpty();
    }

    /**
     * Every link (ETag to If-Match, so stateful tools reach a successful PATCH and DELETE) names an operation of the
     * document and a parameter that operation has, or its If-Match header.
     */
    @Test
    void links_shouldNameDocumentedOperationsAndParameters() throws java.io.IOException {
        tools.jackson.databind.JsonNode document = new tools.jackson.dataformat.yaml.YAMLMapper()
                .readTree(java.nio.file.Files.readString(ProjectRoot.find().resolve("openapi.yaml")));
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        for (tools.jackson.databind.JsonNode path : document.path("paths")) {
            for (String method : List.of("get", "post", "patch", "delete")) {
                tools.jackson.databind.JsonNode operation = path.path(method);
                if (operation.has("operationId")) {
                    List<String> names = new ArrayList<>(List.of("workspaceId", "projectId"));
                    if (method.equals("patch") || method.equals("delete")) {
                        names.add("header.If-Match");
                    }
                    parameters.put(operation.path("operationId").asString(), names);
                }
            }
        }
        List<String> links = new ArrayList<>();
        for (tools.jackson.databind.JsonNode path : document.path("paths")) {
            for (tools.jackson.databind.JsonNode operation : path) {
                for (tools.jackson.databind.JsonNode response : operation.path("responses")) {
                    for (tools.jackson.databind.JsonNode link : response.path("links")) {
                        String target = link.path("operationId").asString();
                        links.add(target);
                        assertThat(parameters).containsKey(target);
                        assertThat(parameters.get(target))
                                .containsAll(link.path("parameters").propertyNames());
                        // every link into a write passes the version just read; a read or a create takes none
                        boolean write = parameters.get(target).contains("header.If-Match");
                        assertThat(link.path("parameters")
                                        .path("header.If-Match")
                                        .asString())
                                .isEqualTo(write ? "$response.header.ETag" : "");
                    }
                }
            }
        }
        assertThat(links)
                .contains("updateWorkspace", "deleteWorkspace", "updateProject", "deleteProject")
                .hasSize(12);
    }

    /** The method is the route key's own, as in API Gateway's {@code routeKey}. */
    private static List<String> violations(String routeKey, int status, String contentType, String body) {
        return CONTRACT.violations(routeKey.substring(0, routeKey.indexOf(' ')), routeKey, status, contentType, body);
    }

    private static Map<String, Object> workspace() {
        Map<String, Object> workspace = new LinkedHashMap<>();
        workspace.put("id", "acme");
        workspace.put("name", "Acme");
        workspace.put("settings", Map.of("plan", "team"));
        workspace.put("createdAt", "2026-12-02T12:00:00.123Z");
        workspace.put("updatedAt", "2026-12-02T12:00:00Z");
        workspace.put("version", 1);
        return workspace;
    }

    private static Map<String, Object> project() {
        Map<String, Object> project = new LinkedHashMap<>();
        project.put("id", "01JDQ6V7K4N3M2P1R0S9T8V7W6");
        project.put("workspaceId", "acme");
        project.put("name", "Website");
        project.put("description", null);
        project.put("status", "ACTIVE");
        project.put("createdAt", "2026-12-02T12:00:00.123Z");
        project.put("updatedAt", "2026-12-02T12:00:00.123Z");
        project.put("version", 1);
        return project;
    }

    /** As Problems writes it; a 500 has no detail. */
    private static String problem(int status) {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", "about:blank");
        problem.put("title", "Some Title");
        problem.put("status", status);
        if (status != 500) {
            problem.put("detail", "what went wrong");
        }
        return Json.write(problem);
    }
}
