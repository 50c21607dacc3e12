package dev.oneread.tests.support;

import dev.oneread.local.template.SamTemplate;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether a role of template.yaml may call an SQS action on one of its queues, reasoned from the policy text as IAM
 * evaluates it within one account: an explicit Deny in the queue's policy wins; otherwise the call is allowed when
 * an Allow of the role's own policies names the action and the queue. cfn-lint checks a policy's syntax, not what it
 * lets whom do, so this is the check that a documented operation (the DLQ redrive) is not blocked.
 *
 * <p>Principals, queues and roles are the template's logical ids ({@code !GetAtt JobQueue.Arn} is {@code JobQueue};
 * a SAM function's role is {@code <Function>Role}); a role that the template does not define stands for a stranger
 * with every SQS permission of its own. Only what the template's policies use is understood: {@code Principal: "*"},
 * actions with {@code *} wildcards, {@code ArnEquals}/{@code ArnNotEquals} on {@code aws:PrincipalArn}, and
 * {@code Bool} on {@code aws:SecureTransport} (every call is taken to come over TLS, as the SDKs and Lambda's pollers
 * send it).
 * Anything else fails the test rather than being guessed at.
 *
 * <pre>{@code new QueueAccess(template).allows("JobRedriveRole", "sqs:SendMessage", "JobQueue")}</pre>
 */
public final class QueueAccess {
    private static final String PRINCIPAL_ARN = "aws:PrincipalArn";
    private static final String SECURE_TRANSPORT = "aws:SecureTransport";

    private final SamTemplate template;

    public QueueAccess(SamTemplate template) {
        this.template = template;
    }

    /** True when {@code role} may call {@code action} on {@code queue}. */
    public boolean allows(String role, String action, String queue) {
        return !deniedByQueuePolicy(role, action, queue) && allowedByRole(role, action, queue);
    }

    /** True when a Deny of a policy attached to {@code queue} matches the call. */
    public boolean deniedByQueuePolicy(String role, String action, String queue) {
        for (Map<String, Object> policy :
                template.resourcesOfType("AWS::SQS::QueuePolicy").values()) {
            Map<String, Object> properties = SamTemplate.map(policy.get("Properties"));
            boolean attached = SamTemplate.list(properties.get("Queues")).stream()
                    .anyMatch(q -> queue.equals(SamTemplate.map(q).get("Ref")));
            if (!attached) {
                continue;
            }
            for (Object s : SamTemplate.list(
                    SamTemplate.map(properties.get("PolicyDocument")).get("Statement"))) {
                Map<String, Object> statement = SamTemplate.map(s);
                if ("Deny".equals(statement.get("Effect"))
                        && "*".equals(statement.get("Principal"))
                        && namesAction(statement.get("Action"), action)
                        && namesResource(statement.get("Resource"), queue)
                        && conditionHolds(statement.get("Condition"), role)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** True when an Allow of the role's own inline policies names the action on the queue. */
    private boolean allowedByRole(String role, String action, String queue) {
        Map<String, Object> resource = template.resources().get(role);
        if (resource == null) {
            return true; // a stranger: every SQS permission of its own, so only the queue policy can stop it
        }
        for (Object p :
                SamTemplate.list(SamTemplate.map(resource.get("Properties")).get("Policies"))) {
            for (Object s : SamTemplate.list(
                    SamTemplate.map(SamTemplate.map(p).get("PolicyDocument")).get("Statement"))) {
                Map<String, Object> statement = SamTemplate.map(s);
                if ("Allow".equals(statement.get("Effect"))
                        && namesAction(statement.get("Action"), action)
                        && namesResource(statement.get("Resource"), queue)
                        && statement.get("Condition") == null) {
                    return true;
                }
            }
        }
        return false;
    }

    /** IAM matches actions case-insensitively, with {@code *} and {@code ?} as wildcards. */
    private static boolean namesAction(Object actions, String action) {
        return values(actions).stream()
                .map(String.class::cast)
                .anyMatch(pattern -> action.toLowerCase(Locale.ROOT)
                        .matches(pattern.toLowerCase(Locale.ROOT)
                                .replace(".", "\\.")
                                .replace("*", ".*")
                                .replace("?", ".")));
    }

    private static boolean namesResource(Object resources, String queue) {
        return values(resources).stream().anyMatch(r -> queue.equals(logicalId(r)));
    }

    /**
     * The condition of a statement for a call by {@code role}: every operator must hold. For a negated operator
     * with several values, IAM's rule: it holds when the key matches none of them.
     */
    private static boolean conditionHolds(Object condition, String role) {
        for (Map.Entry<String, Object> operator : SamTemplate.map(condition).entrySet()) {
            Map<String, Object> keys = SamTemplate.map(operator.getValue());
            if (operator.getKey().equals("Bool") && keys.keySet().equals(java.util.Set.of(SECURE_TRANSPORT))) {
                if (!"true".equals(String.valueOf(keys.get(SECURE_TRANSPORT)))) {
                    return false; // a statement for plain-HTTP calls: not this one
                }
                continue;
            }
            if (!keys.keySet().equals(java.util.Set.of(PRINCIPAL_ARN))) {
                throw new AssertionError("a condition key this check does not model: " + keys.keySet());
            }
            boolean matchesOne = values(keys.get(PRINCIPAL_ARN)).stream().anyMatch(v -> role.equals(logicalId(v)));
            switch (operator.getKey()) {
                case "ArnEquals" -> {
                    if (!matchesOne) {
                        return false;
                    }
                }
                case "ArnNotEquals" -> {
                    if (matchesOne) {
                        return false;
                    }
                }
                default ->
                    throw new AssertionError("a condition operator this check does not model: " + operator.getKey());
            }
        }
        return true;
    }

    /** {@code {Fn::GetAtt: [X, Arn]}} is X; anything else is not a resource of the template. */
    private static String logicalId(Object value) {
        List<Object> getAtt = SamTemplate.list(SamTemplate.map(value).get("Fn::GetAtt"));
        return getAtt.size() == 2 && "Arn".equals(getAtt.get(1)) ? (String) getAtt.get(0) : null;
    }

    /** A policy element that is one value or a list of them. */
    private static List<Object> values(Object element) {
        return element instanceof List<?> ? SamTemplate.list(element) : element == null ? List.of() : List.of(element);
    }
}
