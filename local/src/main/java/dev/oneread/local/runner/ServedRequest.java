package dev.oneread.local.runner;

import java.time.Instant;
import java.util.Map;

/**
 * One request start-api served through a function, as the console's request log takes it.
 *
 * @param routeKey the route that matched, as in the event ({@code GET /workspaces/{workspaceId}}), for filtering
 * @param pathParameters the route's parameters ({@code workspaceId}, {@code projectId}), decoded
 * @param requestHeaders the request's headers, lower-cased (the console reads Idempotency-Key's presence)
 * @param responseHeaders the response's headers, lower-cased ({@code x-dynamo-calls}, {@code x-dynamo-capacity})
 * @param callDetail the function's calls as JSON, handed over through the runner's channel; null if none
 * @param errorBody the body of a 4xx or 5xx response, for the log to show its problem; null for any other status
 */
public record ServedRequest(
        Instant at,
        String method,
        String path,
        String function,
        String routeKey,
        Map<String, String> pathParameters,
        Map<String, String> requestHeaders,
        int status,
        double durationMs,
        Map<String, String> responseHeaders,
        String callDetail,
        String errorBody) {

    /** Who is told of each request start-api serves: the console's request log. */
    @FunctionalInterface
    public interface Observer {
        void served(ServedRequest request);
    }
}
