package dev.oneread.local.runner;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One HttpApi route of a function, matched the way API Gateway matches: {@code {name}} takes one path
 * segment, {@code {name+}} the rest of the path, and method {@code ANY} takes every method.
 */
public record RouteSpec(String method, String path, List<String> authorizationScopes) {

    /**
     * @param authorizationScopes the route's {@code Auth.AuthorizationScopes}: a token must carry at least one of
     *                            them (none: any verified token)
     */
    public RouteSpec {
        method = method.toUpperCase(Locale.ROOT);
        authorizationScopes = List.copyOf(authorizationScopes);
    }

    /** A route that asks for no scope. */
    public RouteSpec(String method, String path) {
        this(method, path, List.of());
    }

    /**
     * As API Gateway decides for a route with AuthorizationScopes: the token's scopes must include at least one
     * of the route's. A route without any takes every verified token.
     */
    public boolean admits(List<String> tokenScopes) {
        return authorizationScopes.isEmpty()
                || (tokenScopes != null && tokenScopes.stream().anyMatch(authorizationScopes::contains));
    }

    /** {@code "GET /workspaces/{workspaceId}"}, as in an event's {@code routeKey}. */
    public String routeKey() {
        return method + " " + path;
    }

    public boolean acceptsMethod(String requestMethod) {
        return method.equals("ANY") || method.equals(requestMethod.toUpperCase(Locale.ROOT));
    }

    /**
     * The still percent-encoded path parameters if {@code rawPath} matches this route's path, else null.
     */
    public Map<String, String> match(String rawPath) {
        List<String> pattern = segments(path);
        List<String> actual = segments(rawPath);
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < pattern.size(); i++) {
            String p = pattern.get(i);
            if (p.startsWith("{") && p.endsWith("+}")) {
                if (i >= actual.size()) {
                    return null;
                }
                parameters.put(p.substring(1, p.length() - 2), String.join("/", actual.subList(i, actual.size())));
                return parameters;
            }
            if (i >= actual.size()) {
                return null;
            }
            String a = actual.get(i);
            if (p.startsWith("{") && p.endsWith("}")) {
                if (a.isEmpty()) {
                    return null;
                }
                parameters.put(p.substring(1, p.length() - 1), a);
            } else if (!p.equals(a)) {
                return null;
            }
        }
        return pattern.size() == actual.size() ? parameters : null;
    }

    /** Literal segments count more than parameters, so the most specific route wins, as in API Gateway. */
    int specificity() {
        int score = 0;
        for (String segment : segments(path)) {
            score = score * 3 + (segment.endsWith("+}") ? 0 : segment.startsWith("{") ? 1 : 2);
        }
        return score * 100 + segments(path).size();
    }

    private static List<String> segments(String path) {
        String trimmed = path.startsWith("/") ? path.substring(1) : path;
        List<String> out = new ArrayList<>(List.of(trimmed.split("/", -1)));
        if (out.size() > 1 && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1); // a trailing slash does not add a segment
        }
        return out;
    }
}
