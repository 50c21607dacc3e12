package dev.oneread.tests.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.http.HttpApiEvent;
import dev.oneread.json.Json;
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

    private HttpApiEvent build(Map<String, List<String>> headers, String rawQuery, byte[] body) {
        IncomingRequest request = new IncomingRequest(
                "POST",
                "/workspaces/acme%2301/files/a/b%20c.txt",
                rawQuery,
                headers,
                body,
                "127.0.0.1",
                "HTTP/1.1",
                "localhost:3000");
        return HttpApiEventBuilder.build(request, route, route.match(request.rawPath()), null);
    }

    @Test
    void build_shouldShapeTheEventLikeApiGateway() {
        // GIVEN a request with repeated headers, cookies, repeated query keys and encoded path parameters
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Content-Type", List.of("application/json"));
        headers.put("X-Forwarded-For", List.of("1.1.1.1", "2.2.2.2"));
        headers.put("Cookie", List.of("a=1; b=2"));
        // WHEN
        HttpApiEvent event = build(headers, "tag=x&tag=y&q=a%20b", "{\"k\":1}".getBytes(StandardCharsets.UTF_8));
        // THEN
        assertThat(event.version()).isEqualTo("2.0");
        assertThat(event.routeKey()).isEqualTo("POST /workspaces/{workspaceId}/files/{path+}");
        assertThat(event.rawPath()).isEqualTo("/workspaces/acme%2301/files/a/b%20c.txt");
        assertThat(event.rawQueryString()).isEqualTo("tag=x&tag=y&q=a%20b");
        assertThat(event.cookies()).containsExactly("a=1", "b=2");
        assertThat(event.body()).isEqualTo("{\"k\":1}");
        assertThat(event.isBase64Encoded()).isFalse();
        assertThat(event.headers())
                .containsEntry("content-type", "application/json")
                .containsEntry("x-forwarded-for", "1.1.1.1,2.2.2.2")
                .doesNotContainKey("cookie");
        assertThat(event.queryStringParameters()).containsEntry("tag", "x,y").containsEntry("q", "a b");
        assertThat(event.pathParameters())
                .containsEntry("workspaceId", "acme#01")
                .containsEntry("path", "a/b c.txt");
        HttpApiEvent.RequestContext context = event.requestContext();
        assertThat(context.routeKey()).isEqualTo("POST /workspaces/{workspaceId}/files/{path+}");
        assertThat(context.stage()).isEqualTo("$default");
        assertThat(context.requestId()).isNotBlank();
        assertThat(context.accountId()).isNotBlank();
        assertThat(context.apiId()).isNotBlank();
        assertThat(context.timeEpoch()).isPositive();
        assertThat(context.http().method()).isEqualTo("POST");
        assertThat(context.http().sourceIp()).isEqualTo("127.0.0.1");
        assertThat(context.http().protocol()).isEqualTo("HTTP/1.1");
        assertThat(context.time()).matches("\\d\\d/[A-Z][a-z]{2}/\\d{4}:\\d\\d:\\d\\d:\\d\\d \\+0000");
    }

    @Test
    @SuppressWarnings("unchecked")
    void toJsonBytes_shouldWriteTheFieldsApiGatewayWritesAndLeaveOutAbsentOnes() {
        // GIVEN a GET with no body, no query, no cookies
        HttpApiEvent event = build(Map.of("Accept", List.of("application/json")), null, new byte[0]);
        // WHEN
        Map<String, Object> json = Json.readObject(new String(event.toJsonBytes(), StandardCharsets.UTF_8));
        // THEN the optional parts are absent, not null, as API Gateway sends them
        assertThat(json)
                .containsEntry("version", "2.0")
                .containsEntry("rawQueryString", "")
                .containsEntry("isBase64Encoded", false)
                .doesNotContainKeys("body", "cookies", "queryStringParameters");
        assertThat((Map<String, Object>) json.get("pathParameters")).containsEntry("workspaceId", "acme#01");
        Map<String, Object> context = (Map<String, Object>) json.get("requestContext");
        assertThat(context)
                .doesNotContainKey("authorizer")
                .containsEntry("requestId", event.requestContext().requestId());
        assertThat((Map<String, Object>) context.get("http")).containsEntry("method", "POST");
    }

    @Test
    void build_shouldBase64EncodeBinaryBodies() {
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2};

        HttpApiEvent event = build(Map.of("Content-Type", List.of("image/png")), null, png);

        assertThat(event.isBase64Encoded()).isTrue();
        assertThat(event.body()).isEqualTo(Base64.getEncoder().encodeToString(png));
    }

    @Test
    void routes_shouldMatchOneSegmentPerParameterAndTheRestForAGreedyOne() {
        RouteSpec project = new RouteSpec("GET", "/workspaces/{workspaceId}/projects/{projectId}");

        assertThat(project.match("/workspaces/acme/projects/01J"))
                .containsExactly(Map.entry("workspaceId", "acme"), Map.entry("projectId", "01J"));
        assertThat(project.match("/workspaces/acme/projects")).isNull();
        assertThat(project.match("/workspaces/acme/projects/01J/extra")).isNull();
        assertThat(project.match("/workspaces//projects/01J")).isNull();
        assertThat(route.match("/workspaces/acme/files")).isNull();
        assertThat(new RouteSpec("any", "/x").acceptsMethod("PATCH")).isTrue();
    }
}
