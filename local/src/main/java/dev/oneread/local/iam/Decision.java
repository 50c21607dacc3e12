package dev.oneread.local.iam;

/**
 * IAM's three outcomes (IAM User Guide, "Policy evaluation logic"): an explicit Deny wins over every Allow; without
 * one, an Allow that applies allows; with neither, the request is implicitly denied.
 */
public enum Decision {
    ALLOW,
    EXPLICIT_DENY,
    IMPLICIT_DENY;

    /** The end of AWS's AccessDenied message for this outcome: why the request was refused. */
    public String reason(String action) {
        return switch (this) {
            case EXPLICIT_DENY -> "with an explicit deny in an identity-based policy";
            case IMPLICIT_DENY -> "because no identity-based policy allows the " + action + " action";
            case ALLOW -> throw new IllegalStateException("an allowed request has no reason to be refused");
        };
    }
}
