package dev.oneread.local.iam;

import java.util.List;

/**
 * The identity-based statements of one principal, evaluated as IAM documents it ("Policy evaluation logic", for a
 * request within one account with no resource-based policy, boundary or session policy): a Deny statement that
 * applies denies, whatever allows; else an Allow that applies allows; else the request is implicitly denied.
 *
 * <pre>{@code Decision d = new Policy(statements).evaluate(request);}</pre>
 */
public record Policy(List<Statement> statements) {
    public Policy {
        statements = List.copyOf(statements);
    }

    public Decision evaluate(IamRequest request) {
        boolean allowed = false;
        for (Statement statement : statements) {
            if (statement.appliesTo(request)) {
                if (!statement.allow()) {
                    return Decision.EXPLICIT_DENY;
                }
                allowed = true;
            }
        }
        return allowed ? Decision.ALLOW : Decision.IMPLICIT_DENY;
    }

    /** The grants of the Allow statements that allowed {@code request} (empty unless it is allowed). */
    public List<Statement.Grant> grantsUsedBy(IamRequest request) {
        if (evaluate(request) != Decision.ALLOW) {
            return List.of();
        }
        return statements.stream()
                .filter(s -> s.allow() && s.appliesTo(request))
                .flatMap(s -> s.grantsUsedBy(request).stream())
                .toList();
    }

    /** Every grant of the Allow statements. */
    public List<Statement.Grant> grants() {
        return statements.stream()
                .filter(Statement::allow)
                .flatMap(s -> s.grants().stream())
                .toList();
    }
}
