package dev.oneread.expr;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An UpdateExpression with its guarding condition, rendered with one shared set of placeholders.
 *
 * <pre>{@code
 * UpdateExpression u = Update.set("name", AttributeValue.fromS("New"))
 *         .increment("version")
 *         .when(Condition.attributeExists("EntityRef"))
 *         .build();
 * // SET #n = :n, #v = #v + :one    attribute_exists(#er)
 * }</pre>
 */
public final class Update {
    private final List<Clause> sets = new ArrayList<>();
    private final List<String> removes = new ArrayList<>();
    private Condition condition;

    private record Clause(String attribute, AttributeValue value, boolean increment) {}

    private Update() {}

    public static Update set(String attribute, AttributeValue value) {
        return new Update().andSet(attribute, value);
    }

    public Update andSet(String attribute, AttributeValue value) {
        requireNew(attribute);
        sets.add(new Clause(attribute, value, false));
        return this;
    }

    /** {@code SET #a = #a + :one}: a counter such as the item version. */
    public Update increment(String attribute) {
        requireNew(attribute);
        sets.add(new Clause(attribute, AttributeValue.fromN("1"), true));
        return this;
    }

    public Update remove(String attribute) {
        requireNew(attribute);
        removes.add(attribute);
        return this;
    }

    public Update when(Condition guard) {
        this.condition = guard;
        return this;
    }

    public UpdateExpression build() {
        Placeholders placeholders = new Placeholders();
        List<String> setClauses = new ArrayList<>();
        for (Clause clause : sets) {
            String name = placeholders.name(clause.attribute());
            setClauses.add(
                    clause.increment()
                            ? name + " = " + name + " + " + placeholders.value("one", clause.value())
                            : name + " = "
                                    + placeholders.value(Placeholders.initialsOf(clause.attribute()), clause.value()));
        }
        List<String> removeClauses = new ArrayList<>();
        removes.forEach(attribute -> removeClauses.add(placeholders.name(attribute)));
        String update = (setClauses.isEmpty() ? "" : "SET " + String.join(", ", setClauses))
                + (removeClauses.isEmpty()
                        ? ""
                        : (setClauses.isEmpty() ? "" : " ") + "REMOVE " + String.join(", ", removeClauses));
        if (update.isEmpty()) {
            throw new IllegalStateException("an update needs at least one SET or REMOVE");
        }
        String guard = condition == null ? null : condition.render(placeholders);
        Expression names = placeholders.build(update);
        return new UpdateExpression(update, guard, names.names(), names.values());
    }

    private void requireNew(String attribute) {
        Placeholders.initialsOf(attribute);
        boolean seen = removes.contains(attribute)
                || sets.stream().anyMatch(c -> c.attribute().equals(attribute));
        if (seen) {
            throw new IllegalArgumentException("attribute updated twice: " + attribute);
        }
    }
}
