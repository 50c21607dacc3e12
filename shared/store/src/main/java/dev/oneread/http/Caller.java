package dev.oneread.http;

import dev.oneread.keys.WorkspaceId;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Who is calling, from the claims the HTTP API JWT authorizer verified ({@code requestContext.authorizer.jwt}).
 * Only the claims the template's identity provider issues are read, each by its standard grammar, and anything
 * outside it grants nothing (fail closed):
 *
 * <ul>
 *   <li>{@code scope}: scope tokens separated by single spaces (RFC 6749 §3.3), matched exactly. {@link
 *       #ACCESS_SCOPE} lets a caller use the API at all, {@link #OPERATOR_SCOPE} marks an operator. {@code scp}
 *       and other spellings are not read.
 *   <li>{@code workspaces}: the caller's workspace slugs, space-separated ({@code acme globex}), or an array claim
 *       as the HTTP API passes it, flattened to {@code [acme globex]}. A value with any other shape ({@code
 *       [acme,globex]}, an element that is not a slug) grants no workspace at all.
 *   <li>{@code token_use}: where present (Cognito), it must be {@code access}. An ID token is not a credential
 *       for the API; API Gateway's docs: "there is no standard mechanism to differentiate JWT access tokens from
 *       other types of JWTs ... we recommend that you configure your routes to require authorization scopes",
 *       which template.yaml does, and this checks again.
 *   <li>{@code sub}: who the caller is, for what is theirs alone (Idempotency-Keys).
 * </ul>
 *
 * @param accessToken true when the token may call the API: an access token ({@code token_use} absent or
 *                    {@code access}) with the access or the operator scope
 */
public record Caller(String subject, Set<String> workspaces, boolean operator, boolean accessToken) {
    public static final String OPERATOR_SCOPE = "oneread/admin";
    public static final String ACCESS_SCOPE = "oneread/api";

    private static final String SLUG = WorkspaceId.SLUG_SYNTAX;
    private static final String SLUGS = WorkspaceId.SLUG_LIST_SYNTAX;
    /** {@code acme globex}, or the HTTP API's flattening of an array claim, {@code [acme globex]}. */
    private static final Pattern WORKSPACES = Pattern.compile("^(?:" + SLUGS + "|\\[(?:" + SLUGS + ")?\\])$");

    private static final Pattern SCOPE_TOKEN = Pattern.compile("^[\\x21\\x23-\\x5b\\x5d-\\x7e]+$");

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
        Set<String> scopes = scopes(claims.get("scope"));
        Object tokenUse = claims.get("token_use");
        boolean accessToken = (tokenUse == null || "access".equals(tokenUse))
                && (scopes.contains(ACCESS_SCOPE) || scopes.contains(OPERATOR_SCOPE));
        Object subject = claims.get("sub");
        return new Caller(
                subject instanceof String s ? s : "",
                workspaces(claims.get("workspaces")),
                accessToken && scopes.contains(OPERATOR_SCOPE),
                accessToken);
    }

    /** RFC 6749 §3.3: {@code scope-token *( SP scope-token )}. Anything else is no scope at all. */
    static Set<String> scopes(Object claim) {
        if (!(claim instanceof String text) || text.isEmpty()) {
            return Set.of();
        }
        List<String> tokens = List.of(text.split(" ", -1));
        if (!tokens.stream().allMatch(t -> SCOPE_TOKEN.matcher(t).matches())) {
            return Set.of();
        }
        return Set.copyOf(tokens);
    }

    /**
     * The workspace slugs of a {@code workspaces} claim: a string (API Gateway passes every claim as one) of
     * space-separated slugs, optionally in the brackets of a flattened array; or, from an event that kept the
     * array, a list of slugs. Any other value grants nothing.
     */
    static Set<String> workspaces(Object claim) {
        if (claim instanceof List<?> list) {
            boolean allSlugs = list.stream().allMatch(v -> v instanceof String s && s.matches(SLUG));
            return allSlugs ? Set.copyOf(list.stream().map(String.class::cast).toList()) : Set.of();
        }
        if (!(claim instanceof String text)
                || text.isEmpty()
                || !WORKSPACES.matcher(text).matches()) {
            return Set.of();
        }
        String inner = text.startsWith("[") ? text.substring(1, text.length() - 1) : text;
        return inner.isEmpty() ? Set.of() : Set.copyOf(List.of(inner.split(" ")));
    }
}
