package dev.oneread.local.iam;

/**
 * A function's execution role as the local IAM holds it: its name (SAM's {@code <Function>Role} for a function with
 * {@code Policies}, or the role its {@code Role} names) and its identity-based statements.
 */
public record FunctionRole(String function, String roleName, Policy policy) {
    /** The assumed-role ARN AWS names a function's calls with: the role, and the function as its session. */
    public String principalArn() {
        return PolicyValues.arn("sts", "", String.join("/", "assumed-role", roleName, function));
    }

    /** AWS's AccessDenied message for a refused request (IAM User Guide, "Troubleshooting access denied"). */
    public String deniedMessage(IamRequest request, Decision decision) {
        return "User: " + principalArn() + " is not authorized to perform: " + request.action() + " on resource: "
                + request.resource() + " " + decision.reason(request.action());
    }
}
