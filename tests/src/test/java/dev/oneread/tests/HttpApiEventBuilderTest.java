package dev.oneread.tests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.runner.HttpApiEventBuilder;
import dev.oneread.local.runner.HttpApiEventBuilder.IncomingRequest;
import dev.oneread.local.runner.RouteSpec;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The event the runner builds, field by field, against the HTTP API 2.0 format API Gateway sends. */
class HttpApiEventBuilderTest {
    private final RouteSpec route = new RouteSpec("POST", "/workspaces/{workspaceId}/files/{path+}");

    private Map<String, Object> build(Map<String, List<String>> headers, String rawQuery, byte[] body) {
        IncomingRequest request = new IncomingRequest("POST", "/workspaces/acme%2301/files/a/b%20c.txt", rawQuery,
                headers, body, "127.0.0.1", "HTTP/1.1", "localhost:3000");
        return HttpApiEventBuilder.build(request, route, route.match(request.rawPath()), null);
    }

    @Test
    @SuppressWarnings("unchecked")
    void build_shouldShapeTheEventLikeApiGateway() {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Content-Type", List.of("application/json"));
        headers.put("X-Forwarded-For", List.of("1.1.1.1", "2.2.2.2"));
        headers.put("Cookie", List.of("a=1; b=2"));

        Map<String, Object> event = build(headers, "tag=x&tag=y&q=a%20b", "{\"k\":1}".getBytes(StandardCharsets.UTF_8));

        assertThat(event).containsEntry("version", "2.0")
                .containsEntry("routeKey", "POST /workspaces/{workspaceId}/files/{path+}")
                .containsEntry("rawPath", "/workspaces/acme%2301/files/a/b%20c.txt")
                .containsEntry("rawQueryString", "tag=x&tag=y&q=a%20b")
                .containsEntry("cookies", List.of("a=1", "b=2"))
                .containsEntry("body", "{\"k\":1}")
                .containsEntry("isBase64Encoded", false);
        assertThat((Map<String, Object>) event.get("headers")).containsEntry("content-type", "application/json")
                .containsEntry("x-forwarded-for", "1.1.1.1,2.2.2.2").doesNotContainKey("cookie");
        assertThat((Map<String, Object>) event.get("queryStringParameters")).containsEntry("tag", "x,y")
                .containsEntry("q", "a b");
        assertThat((Map<String, Object>) event.get("pathParameters")).containsEntry("workspaceId", "acme#01")
                .containsEntry("path", "a/b c.txt");
        Map<String, Object> context = (Map<String, Object>) event.get("requestContext");
        assertThat(context).containsEntry("routeKey", "POST /workspaces/{workspaceId}/files/{path+}")
                .containsEntry("stage", "$default").containsKeys("requestId", "time", "timeEpoch", "accountId", "apiId");
        assertThat((Map<String, Object>) context.get("http")).containsEntry("method", "POST")
                .containsEntry("sourceIp", "127.0.0.1").containsEntry("protocol", "HTTP/1.1");
        assertThat((String) context.get("time")).matches("\\d\\d/[A-Z][a-z]{2}/\\d{4}:\\d\\d:\\d\\d:\\d\\d \\+0000");
    }

    @Test
    void build_shouldBase64EncodeBinaryBodies() {
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2};

        Map<String, Object> event = build(Map.of("Content-Type", List.of("image/png")), null, png);

        assertThat(event).containsEntry("isBase64Encoded", true)
                .containsEntry("body", Base64.getEncoder().encodeToString(png));
    }

    @Test
    void routes_shouldMatchOneSegmentPerParameterAndTheRestForAGreedyOne() {
        RouteSpec project = new RouteSpec("GET", "/workspaces/{workspaceId}/projects/{projectId}");

        assertThat(project.match("/workspaces/acme/projects/01J")).containsExactly(
                Map.entry("workspaceId", "acme"), Map.entry("projectId", "01J"));
        assertThat(project.match("/workspaces/acme/projects")).isNull();
        assertThat(project.match("/workspaces/acme/projects/01J/extra")).isNull();
        assertThat(project.match("/workspaces//projects/01J")).isNull();
        assertThat(route.match("/workspaces/acme/files")).isNull();
        assertThat(new RouteSpec("any", "/x").acceptsMethod("PATCH")).isTrue();
    }
}
