package dev.oneread.http;

import dev.oneread.keys.WorkspaceId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who is calling, from the claims the HTTP API JWT authorizer verified ({@code requestContext.authorizer.jwt}).
 * Claim {@code workspaces} lists the workspaces the caller belongs to; scope {@code oneread/admin} (from
 * {@code scope}, {@code scp} or the authorizer's scopes) marks an operator.
 */
public record Caller(String subject, Set<String> workspaces, boolean operator) {
    public static final String OPERATOR_SCOPE = "oneread/admin";

    /** @param subject the token's {@code sub}: who the caller is, for what is theirs alone (Idempotency-Keys) */
    public Caller {
        subject = subject == null ? "" : subject;
        workspaces = Set.copyOf(workspaces);
    }

    /** Operators may act on any workspace; everyone else only on their own. */
    public boolean mayAccess(WorkspaceId workspaceId) {
        return operator || workspaces.contains(workspaceId.value());
    }

    /** Null when the event carries no JWT authorizer context at all. */
    static Caller fromRequestContext(Map<String, Object> requestContext) {
        if (!(requestContext.get("authorizer") instanceof Map<?, ?> authorizer)
                || !(authorizer.get("jwt") instanceof Map<?, ?> jwt)
                || !(jwt.get("claims") instanceof Map<?, ?> claims)) {
            return null;
        }
        Set<String> scopes = new LinkedHashSet<>(values(claims.get("scope")));
        scopes.addAll(values(claims.get("scp")));
        scopes.addAll(values(jwt.get("scopes")));
        Object subject = claims.get("sub");
        return new Caller(
                subject == null ? "" : String.valueOf(subject),
                new LinkedHashSet<>(values(claims.get("workspaces"))),
                scopes.contains(OPERATOR_SCOPE));
    }

    /**
     * A claim's values. API Gateway passes claims as strings: a space-separated list ({@code "acme globex"}),
     * or an array claim flattened to {@code "[acme globex]"}. The authorizer's scopes arrive as a JSON array.
     */
    static List<String> values(Object claim) {
        List<String> out = new ArrayList<>();
        if (claim instanceof List<?> list) {
            list.forEach(v -> out.addAll(values(v)));
        } else if (claim != null) {
            String text = String.valueOf(claim).strip();
            if (text.startsWith("[") && text.endsWith("]")) {
                text = text.substring(1, text.length() - 1);
            }
            for (String value : text.split("[\\s,]+")) {
                if (!value.isEmpty()) {
                    out.add(value);
                }
            }
        }
        return out;
    }
}
