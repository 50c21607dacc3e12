package dev.oneread.priming;

import dev.oneread.http.Caller;
import dev.oneread.http.HttpApiEvent;
import dev.oneread.operations.Descriptor;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The request a function sends itself before SnapStart takes its snapshot, so that the snapshot holds the classes,
 * the connection and the JIT's work of its real path (AWS: invoke priming). It must change no data: reads name a
 * workspace that does not exist, and writes carry {@link #NO_SUCH_VERSION}, a version no item reaches, so DynamoDB
 * refuses them. The two creates are primed with a body their validation refuses, before any store call.
 *
 * <pre>{@code PrimingRequest.of(GetWorkspaceOperation.INSTANCE.descriptor()).toEvent().toJsonBytes()}</pre>
 */
public record PrimingRequest(
        String method,
        String route,
        Map<String, String> pathParameters,
        Map<String, String> query,
        Map<String, String> headers,
        String body,
        boolean operator) {
    /** The workspace priming reads and writes: a valid id; if it exists, the conditions still refuse every write. */
    public static final String WORKSPACE = "snapstart-priming";

    /** The If-Match of a priming write: the largest version the API accepts, which a version bumped by 1 never reaches. */
    public static final String NO_SUCH_VERSION = "\"999999999999999999\"";

    /** A project id that no ULID generator gives out (time 0). */
    public static final String PROJECT = "00000000000000000000000000";

    /** A request on the operation's route, from a caller of its scope (an operator for an operators' route). */
    public static PrimingRequest of(Descriptor operation) {
        String method = operation.route().method();
        String path = operation.route().path();
        return operation.operators() ? operator(method, path) : tenant(method, path);
    }

    /** A tenant's request on {@code route}, whose {workspaceId} and {projectId} are the priming ones. */
    public static PrimingRequest tenant(String method, String route) {
        return new PrimingRequest(method, route, pathOf(route), Map.of(), Map.of(), null, false);
    }

    /** An operator's request on {@code route}. */
    public static PrimingRequest operator(String method, String route) {
        return new PrimingRequest(method, route, pathOf(route), Map.of(), Map.of(), null, true);
    }

    public PrimingRequest withHeader(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new PrimingRequest(method, route, pathParameters, query, more, body, operator);
    }

    public PrimingRequest withQuery(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(query);
        more.put(name, value);
        return new PrimingRequest(method, route, pathParameters, more, headers, body, operator);
    }

    public PrimingRequest withBody(String json) {
        return new PrimingRequest(
                method,
                route,
                pathParameters,
                query,
                withHeader("content-type", "application/json").headers,
                json,
                operator);
    }

    /**
     * The HTTP API (payload 2.0) event, with the claims API Gateway's JWT authorizer would have verified. It has no
     * time and a fixed request id: priming loads no date formatting and draws no random number for it.
     */
    public HttpApiEvent toEvent() {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("sub", "snapstart-priming");
        claims.put("workspaces", operator ? "" : WORKSPACE);
        claims.put("scope", operator ? Caller.OPERATOR_SCOPE : Caller.ACCESS_SCOPE);
        HttpApiEvent.Builder event = HttpApiEvent.builder(method, route)
                .requestId("snapstart-priming")
                .authorizer(new HttpApiEvent.Jwt(claims, null));
        pathParameters.forEach(event::pathParameter);
        query.forEach(event::query);
        headers.forEach(event::header);
        if (body != null) {
            event.body(body);
        }
        return event.build();
    }

    private static Map<String, String> pathOf(String route) {
        Map<String, String> parameters = new LinkedHashMap<>();
        if (route.contains("{workspaceId}")) {
            parameters.put("workspaceId", WORKSPACE);
        }
        if (route.contains("{projectId}")) {
            parameters.put("projectId", PROJECT);
        }
        return parameters;
    }
}
