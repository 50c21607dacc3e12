package dev.oneread.operations;

import java.util.List;

/** Who may call an operation: the OAuth scopes its route requires (template.yaml's {@code AuthorizationScopes}). */
public enum Scope {
    /** A tenant's own workspace: {@code oneread/api}, or an operator's {@code oneread/admin}. */
    TENANT(List.of("oneread/api", "oneread/admin")),
    /** Operators alone: {@code oneread/admin}. */
    OPERATOR(List.of("oneread/admin"));

    private final List<String> authorizationScopes;

    Scope(List<String> authorizationScopes) {
        this.authorizationScopes = authorizationScopes;
    }

    /** The scopes as template.yaml lists them on the route's event. */
    public List<String> authorizationScopes() {
        return authorizationScopes;
    }
}
