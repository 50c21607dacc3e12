package dev.oneread.tests.routes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Lambda;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** GET /workspaces/{workspaceId} (GetWorkspace): one GetItem, a missing workspace, the function's log line. */
class GetWorkspaceTest {
    private final Api api = new Api();

    @Test
    void getWorkspace_shouldCostOneGetItemOfHalfAUnit() {
        // GIVEN
        String id = Api.freshWorkspaceId("get");
        api.createWorkspace(id, "Acme");
        // WHEN
        Lambda.Response response = api.getWorkspace(id);
        // THEN
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json()).containsEntry("id", id).containsEntry("settings", Map.of("plan", "team"));
        assertThat(response.headers()).containsEntry("etag", "\"1\"");
        assertThat(response.dynamoCalls()).isEqualTo(1);
        assertThat(response.dynamoCapacity()).isEqualByComparingTo("0.5");
    }

    @Test
    void getWorkspace_shouldReturn404ProblemAfterOneCall_whenMissing() {
        Lambda.Response response = api.getWorkspace(Api.freshWorkspaceId("missing"));

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.contentType()).isEqualTo("application/problem+json");
        assertThat(response.json()).containsEntry("status", 404).containsEntry("title", "Not Found");
        assertThat(response.dynamoCalls()).isEqualTo(1);
        assertThat(response.dynamoCapacity()).isEqualByComparingTo("0.5");
    }

    @Test
    void everyInvocation_shouldWriteOneStructuredLogLine() {
        String id = Api.freshWorkspaceId("log");
        api.createWorkspace(id, "Acme");

        Lambda.Response response = api.getWorkspace(id);

        assertThat(response.logLines()).hasSize(1);
        Map<String, Object> line =
                dev.oneread.json.Json.readObject(response.logLines().get(0));
        assertThat(line)
                .containsEntry("function", "GetWorkspace")
                .containsEntry("route", "GET /workspaces/{workspaceId}")
                .containsEntry("status", 200)
                .containsEntry("calls", 1)
                .containsKeys("capacity", "durationMs", "requestId");
        assertThat(new BigDecimal(line.get("capacity").toString())).isEqualByComparingTo("0.5");
    }
}
