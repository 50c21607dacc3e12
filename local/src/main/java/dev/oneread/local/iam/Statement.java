package dev.oneread.local.iam;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One statement of an identity-based policy, with its values resolved: Effect, Action or NotAction, Resource or
 * NotResource, and its conditions (all of which must hold). {@code label} names it in the report and in test
 * failures ({@code DeleteProject: statement 1}).
 *
 * <pre>{@code Statement.parse("GetProject: statement 1", Map.of("Effect", "Allow", "Action", "dynamodb:GetItem",
 *     "Resource", tableArn))}</pre>
 */
public record Statement(
        String label,
        boolean allow,
        List<String> actions,
        boolean notAction,
        List<String> resources,
        boolean notResource,
        List<Condition> conditions) {
    public Statement {
        actions = List.copyOf(actions);
        resources = List.copyOf(resources);
        conditions = List.copyOf(conditions);
    }

    /** A statement from its JSON form (maps, lists and strings, intrinsics already resolved). */
    public static Statement parse(String label, Map<String, Object> json) {
        Object effect = json.get("Effect");
        if (!"Allow".equals(effect) && !"Deny".equals(effect)) {
            throw new IllegalArgumentException(label + ": Effect must be Allow or Deny, not " + effect);
        }
        boolean notAction = json.containsKey("NotAction");
        boolean notResource = json.containsKey("NotResource");
        List<Condition> conditions = new ArrayList<>();
        mapOf(json.get("Condition"))
                .forEach((operator, block) -> mapOf(block)
                        .forEach((key, values) -> conditions.add(Condition.of(operator, key, strings(values)))));
        return new Statement(
                label,
                "Allow".equals(effect),
                strings(json.get(notAction ? "NotAction" : "Action")),
                notAction,
                strings(json.get(notResource ? "NotResource" : "Resource")),
                notResource,
                conditions);
    }

    /** Whether this statement applies to {@code request}: its action, its resource and every condition. */
    public boolean appliesTo(IamRequest request) {
        return matchesAction(request.action())
                && matchesResource(request.resource())
                && conditions.stream().allMatch(c -> c.holds(request.context()));
    }

    private boolean matchesAction(String action) {
        boolean listed = actions.stream().anyMatch(a -> Wildcards.matches(a, action, true));
        return notAction != listed;
    }

    private boolean matchesResource(String resource) {
        boolean listed = resources.stream().anyMatch(r -> Wildcards.matches(r, resource, false));
        return notResource != listed;
    }

    /**
     * The entries of this statement a request it applies to used: each listed action and resource pattern that
     * matches it (for NotAction or NotResource, the element itself). What the least-privilege report counts.
     */
    public List<Grant> grantsUsedBy(IamRequest request) {
        List<String> usedActions = notAction
                ? List.of("NotAction " + actions)
                : actions.stream()
                        .filter(a -> Wildcards.matches(a, request.action(), true))
                        .toList();
        List<String> usedResources = notResource
                ? List.of("NotResource " + resources)
                : resources.stream()
                        .filter(r -> Wildcards.matches(r, request.resource(), false))
                        .toList();
        List<Grant> used = new ArrayList<>();
        usedActions.forEach(a -> usedResources.forEach(r -> used.add(new Grant(label, a, r, conditionText()))));
        return used;
    }

    /** Every (action, resource) pair this statement grants, as the report lists them. */
    public List<Grant> grants() {
        List<String> listedActions = notAction ? List.of("NotAction " + actions) : actions;
        List<String> listedResources = notResource ? List.of("NotResource " + resources) : resources;
        List<Grant> all = new ArrayList<>();
        listedActions.forEach(a -> listedResources.forEach(r -> all.add(new Grant(label, a, r, conditionText()))));
        return all;
    }

    private String conditionText() {
        return conditions.stream()
                .map(Condition::toString)
                .reduce((a, b) -> a + "; " + b)
                .orElse("");
    }

    /** One action pattern on one resource pattern of one statement, under its conditions. */
    public record Grant(String statement, String action, String resource, String condition) {}

    @SuppressWarnings("unchecked")
    private static Map<String, Object> mapOf(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    private static List<String> strings(Object value) {
        if (value == null) {
            return List.of();
        }
        if (value instanceof List<?> list) {
            return list.stream().map(String::valueOf).toList();
        }
        return List.of(String.valueOf(value));
    }
}
