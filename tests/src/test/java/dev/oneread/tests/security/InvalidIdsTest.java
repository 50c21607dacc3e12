package dev.oneread.tests.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Partitions;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Every id that is not a slug or a canonical ULID is a 400 before any DynamoDB call, and changes nothing in
 * the partitions the id could reach.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InvalidIdsTest {
    private static final String VALID_ULID = "01JDQ6V7K4N3M2P1R0S9T8V7W6";
    private static final List<String> BAD_WORKSPACE_IDS = List.of(
            "acme#01",
            "ACME",
            "a".repeat(64),
            "a".repeat(200),
            "",
            "%23",
            "acme%2301",
            "-acme",
            "acme-",
            "acme_corp",
            "acme corp",
            "acme/01",
            "ácme",
            "acme\n",
            "WS#acme");
    private static final List<String> BAD_PROJECT_IDS = List.of(
            VALID_ULID.toLowerCase(),
            VALID_ULID.substring(1),
            VALID_ULID + "0",
            "81JDQ6V7K4N3M2P1R0S9T8V7W6",
            "01JDQ6V7K4N3M2P1R0S9T8V7WI",
            "01JDQ6V7K4N3M2P1R0S9T8V7W#",
            "",
            "%23",
            "PROJ#" + VALID_ULID,
            "META");

    private final Api api = new Api();
    private final String ws = Api.freshWorkspaceId("valid");

    @BeforeAll
    void createOneValidWorkspace() {
        api.createWorkspace(ws, "Valid");
    }

    Stream<Arguments> badRequests() {
        Stream<Arguments> workspaceRoutes = BAD_WORKSPACE_IDS.stream()
                .flatMap(id -> Stream.of(
                        Arguments.of(
                                "GetWorkspace " + id, id, (Function<Api, Lambda.Response>) a -> a.getWorkspace(id)),
                        Arguments.of("ListProjects " + id, id, (Function<Api, Lambda.Response>)
                                a -> a.listProjects(id, Map.of())),
                        Arguments.of("Collection " + id, id, (Function<Api, Lambda.Response>)
                                a -> a.collection(id, Map.of())),
                        Arguments.of("GetProject " + id, id, (Function<Api, Lambda.Response>)
                                a -> a.getProject(id, VALID_ULID)),
                        Arguments.of("CreateProject " + id, id, (Function<Api, Lambda.Response>)
                                a -> a.createProject(id, "{\"name\":\"x\"}")),
                        Arguments.of("CreateWorkspace " + id, id, (Function<Api, Lambda.Response>)
                                a -> a.createWorkspace(Json.write(Map.of("id", id, "name", "x"))))));
        Stream<Arguments> projectRoutes = BAD_PROJECT_IDS.stream()
                .map(id -> Arguments.of(
                        "GetProject " + id, ws, (Function<Api, Lambda.Response>) a -> a.getProject(ws, id)));
        return Stream.concat(workspaceRoutes, projectRoutes);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void invalidId_shouldGet400ProblemWithNoDynamoDbCall(
            String name, String workspaceId, Function<Api, Lambda.Response> call) {
        // GIVEN the partitions this request could reach, had its workspace id been let through
        Map<String, List<Map<String, AttributeValue>>> before =
                Partitions.snapshot(api.engine.client, Partitions.reachableFrom(List.of(workspaceId)));
        // WHEN
        Lambda.Response response = call.apply(api);
        // THEN
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.contentType()).isEqualTo("application/problem+json");
        assertThat(response.json()).containsEntry("status", 400).containsKey("detail");
        assertThat(response.dynamoCalls()).isZero();
        // No key format or internal name leaks into the problem.
        assertThat(response.body()).doesNotContain("WS#", "PROJ#", "EntityRef", "Detail", "Exception", "at dev.");
        assertThat(Partitions.snapshot(api.engine.client, before.keySet())).isEqualTo(before);
    }
}
