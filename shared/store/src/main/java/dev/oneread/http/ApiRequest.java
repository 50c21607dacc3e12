package dev.oneread.http;

import dev.oneread.json.Json;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ExpectedVersion;
import dev.oneread.model.ListPosition;
import dev.oneread.model.ProjectStatus;
import dev.oneread.store.exceptions.NotFoundException;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An HTTP API payload format 2.0 event, reduced to what handlers use, with validated accessors: each one
 * either returns a valid value or throws an exception that {@link Problems} turns into a 400.
 *
 * <pre>{@code WorkspaceId id = request.workspaceId();  // 400 for "acme#01", "ACME", ...}</pre>
 */
public record ApiRequest(
        String routeKey,
        String method,
        String rawPath,
        Map<String, String> headers,
        Map<String, String> queryParameters,
        Map<String, String> pathParameters,
        String body,
        String requestId,
        Caller caller,
        Cursors cursors) {
    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 100;

    static ApiRequest fromEvent(Map<String, Object> event, Cursors cursors) {
        Map<String, Object> context = mapOrEmpty(event.get("requestContext"));
        Map<String, Object> http = mapOrEmpty(context.get("http"));
        String body = (String) event.get("body");
        if (body != null && Boolean.TRUE.equals(event.get("isBase64Encoded"))) {
            try {
                // Reported, not replaced: a U+FFFD slipped into a name would be a silent change of what was sent.
                body = DisplayText.decodeUtf8(Base64.getDecoder().decode(body));
            } catch (IllegalArgumentException e) {
                throw HttpProblemException.badRequest("body is not valid base64");
            }
        }
        return new ApiRequest(
                String.valueOf(event.getOrDefault("routeKey", "$default")),
                String.valueOf(http.getOrDefault("method", "GET")).toUpperCase(Locale.ROOT),
                String.valueOf(event.getOrDefault("rawPath", "/")),
                strings(event.get("headers"), true),
                strings(event.get("queryStringParameters"), false),
                strings(event.get("pathParameters"), false),
                body,
                String.valueOf(context.getOrDefault("requestId", "")),
                Caller.fromRequestContext(context),
                cursors);
    }

    /**
     * The path's workspace, valid and visible to the caller. A workspace outside the caller's claims is a 404
     * like a missing one (no DynamoDB call, nothing to tell the two apart), so ids cannot be probed.
     */
    public WorkspaceId workspaceId() {
        WorkspaceId id = WorkspaceId.of(pathParameters.get("workspaceId"));
        if (!caller().mayAccess(id)) {
            throw new NotFoundException("workspace");
        }
        return id;
    }

    /**
     * The verified caller; a request without authorizer claims is refused (fail closed), and so is a token that is
     * not an access token for this API (an ID token, or one without the access scope): 403, as API Gateway answers
     * a token that lacks the route's scopes.
     */
    public Caller caller() {
        if (caller == null) {
            throw new HttpProblemException(401, "credentials are required");
        }
        if (!caller.accessToken()) {
            throw new HttpProblemException(
                    403, "an access token with the " + Caller.ACCESS_SCOPE + " scope is required");
        }
        return caller;
    }

    /** Creating workspaces and cross-workspace reads are for operators only. */
    public void requireOperator() {
        if (!caller().operator()) {
            throw new HttpProblemException(403, "this operation requires the " + Caller.OPERATOR_SCOPE + " scope");
        }
    }

    public ProjectId projectId() {
        return ProjectId.of(pathParameters.get("projectId"));
    }

    /** {@code ?limit=}: 1 to 100, default 20. */
    public int limit() {
        String raw = queryParameters.get("limit");
        if (raw == null) {
            return DEFAULT_LIMIT;
        }
        if (!raw.matches("^[0-9]{1,3}$") || Integer.parseInt(raw) < 1 || Integer.parseInt(raw) > MAX_LIMIT) {
            throw HttpProblemException.badRequest("limit must be an integer from 1 to " + MAX_LIMIT);
        }
        return Integer.parseInt(raw);
    }

    /** {@code ?cursor=}, opened to the list position it stands for; only valid for this workspace and route. */
    public Optional<ListPosition> cursor() {
        return cursor(workspaceId().value());
    }

    /** The {@code nextCursor} to return for a list position, or null on the last page. */
    public String nextCursor(Optional<ListPosition> position) {
        return nextCursor(position, workspaceId().value());
    }

    /**
     * {@code ?cursor=} of a list that is not a workspace's: valid only for this route and {@code listScope} (what
     * the list is of, such as {@code status=ACTIVE}), so a cursor of one status is refused on another.
     */
    public Optional<ListPosition> cursor(String listScope) {
        String raw = queryParameters.get("cursor");
        return raw == null ? Optional.empty() : Optional.of(requireCursors().open(raw, listScope, routeKey));
    }

    /** The {@code nextCursor} of a list that is not a workspace's, bound to {@code listScope} and this route. */
    public String nextCursor(Optional<ListPosition> position, String listScope) {
        return position.map(p -> requireCursors().seal(p, listScope, routeKey)).orElse(null);
    }

    /** {@code ?status=}: one of the project statuses, required. */
    public ProjectStatus statusParameter() {
        String raw = queryParameters.get("status");
        for (ProjectStatus status : ProjectStatus.values()) {
            if (status.name().equals(raw)) {
                return status;
            }
        }
        throw HttpProblemException.badRequest("status is required: one of ACTIVE, PAUSED, ARCHIVED");
    }

    /**
     * The version named by {@code If-Match: "<version>"} (our ETags). A missing header is a 428; a value that
     * cannot match any version is a 412, as RFC 9110 has it. {@code *} matches any existing version. A PATCH reads
     * it after its body, so that a bad body is a 400 whether the If-Match is missing, unparseable or stale.
     */
    public ExpectedVersion ifMatchVersion() {
        String value = header("if-match")
                .orElseThrow(() -> new HttpProblemException(428, "If-Match with the ETag you read is required"));
        String tag = value.strip();
        if (tag.equals("*")) {
            return ExpectedVersion.any();
        }
        if (tag.matches("^\"[1-9][0-9]{0,17}\"$")) {
            return ExpectedVersion.exactly(Long.parseLong(tag.substring(1, tag.length() - 1)));
        }
        throw new HttpProblemException(412, "If-Match does not match the current version");
    }

    /** {@code If-Match} when present (DELETE), else any version. */
    public ExpectedVersion optionalIfMatchVersion() {
        return header("if-match").isPresent() ? ifMatchVersion() : ExpectedVersion.any();
    }

    private Cursors requireCursors() {
        if (cursors == null) {
            throw new IllegalStateException("cursor keys are not configured (CURSOR_KEY_SECRET)");
        }
        return cursors;
    }

    /** The body as a JSON object; a missing, non-JSON or non-object body is a 400. */
    public Map<String, Object> jsonBody() {
        String contentType = headers.getOrDefault("content-type", "");
        String mediaType = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (!mediaType.equals("application/json")) {
            throw new HttpProblemException(415, "content-type must be application/json");
        }
        if (body == null || body.isBlank()) {
            throw HttpProblemException.badRequest("body must be a JSON object");
        }
        return Json.readObject(body);
    }

    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> mapOrEmpty(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    private static Map<String, String> strings(Object value, boolean lowerCaseKeys) {
        if (!(value instanceof Map<?, ?> map)) {
            return Map.of();
        }
        java.util.LinkedHashMap<String, String> out = new java.util.LinkedHashMap<>();
        map.forEach((k, v) -> {
            if (k != null && v != null) {
                String key = lowerCaseKeys ? String.valueOf(k).toLowerCase(Locale.ROOT) : String.valueOf(k);
                out.put(key, String.valueOf(v));
            }
        });
        return java.util.Collections.unmodifiableMap(out);
    }
}
