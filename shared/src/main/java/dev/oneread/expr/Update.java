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

    /** How a SET clause assigns its value. */
    private enum Assign {
        VALUE,
        INCREMENT,
        IF_ABSENT
    }

    private record Clause(String attribute, AttributeValue value, Assign assign) {}

    private Update() {}

    public static Update set(String attribute, AttributeValue value) {
        return new Update().andSet(attribute, value);
    }

    public Update andSet(String attribute, AttributeValue value) {
        requireNew(attribute);
        sets.add(new Clause(attribute, value, Assign.VALUE));
        return this;
    }

    /**
     * {@code SET #a = if_not_exists(#a, :a)}: keeps a value the item already has, so that the first writer's
     * choice survives every later write of the same clause.
     */
    public Update andSetIfAbsent(String attribute, AttributeValue value) {
        requireNew(attribute);
        sets.add(new Clause(attribute, value, Assign.IF_ABSENT));
        return this;
    }

    /** {@code SET #a = #a + :one}: a counter such as the item version. */
    public Update increment(String attribute) {
        requireNew(attribute);
        sets.add(new Clause(attribute, AttributeValue.fromN("1"), Assign.INCREMENT));
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
            String value = clause.assign() == Assign.INCREMENT
                    ? placeholders.value("one", clause.value())
                    : placeholders.value(Placeholders.initialsOf(clause.attribute()), clause.value());
            setClauses.add(
                    switch (clause.assign()) {
                        case VALUE -> name + " = " + value;
                        case INCREMENT -> name + " = " + name + " + " + value;
                        case IF_ABSENT -> name + " = if_not_exists(" + name + ", " + value + ")";
                    });
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
