package dev.oneread.operations;

/**
 * An HTTP API route, as template.yaml declares it and API Gateway names it in the event's {@code routeKey}.
 *
 * <pre>{@code new Route("GET", "/projects", "?status=").key()  // "GET /projects"}</pre>
 *
 * @param query how the README shows its query parameters ({@code ?status=}), or empty
 */
public record Route(String method, String path, String query) {
    /** {@code GET /projects?status=}, as the README and {@code expr} name a route. */
    @Override
    public String toString() {
        return method + " " + path + query;
    }

    /** The route key API Gateway sends in the event, {@code GET /projects}: no query. */
    public String key() {
        return method + " " + path;
    }
}
