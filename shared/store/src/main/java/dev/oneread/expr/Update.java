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

    private record Clause(Path path, AttributeValue value, Assign assign) {}

    private Update() {}

    public static Update set(String attribute, AttributeValue value) {
        return new Update().andSet(attribute, value);
    }

    public Update andSet(String attribute, AttributeValue value) {
        return andSet(Path.of(attribute), value);
    }

    /** {@code SET #a.#b = :b}: the parent map must exist (guard with {@code attribute_exists}). */
    public static Update set(Path path, AttributeValue value) {
        return new Update().andSet(path, value);
    }

    public Update andSet(Path path, AttributeValue value) {
        requireNew(path);
        sets.add(new Clause(path, value, Assign.VALUE));
        return this;
    }

    /**
     * {@code SET #a = if_not_exists(#a, :a)}: keeps a value the item already has, so that the first writer's
     * choice survives every later write of the same clause.
     */
    public Update andSetIfAbsent(String attribute, AttributeValue value) {
        requireNew(Path.of(attribute));
        sets.add(new Clause(Path.of(attribute), value, Assign.IF_ABSENT));
        return this;
    }

    /** {@code SET #a = #a + :one}: a counter such as the item version. */
    public Update increment(String attribute) {
        requireNew(Path.of(attribute));
        sets.add(new Clause(Path.of(attribute), AttributeValue.fromN("1"), Assign.INCREMENT));
        return this;
    }

    public Update remove(String attribute) {
        requireNew(Path.of(attribute));
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
            String name = clause.path().render(placeholders);
            String value = clause.assign() == Assign.INCREMENT
                    ? placeholders.value("one", clause.value())
                    : placeholders.value(clause.path().valueHint(), clause.value());
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

    private void requireNew(Path path) {
        boolean seen = removes.stream().anyMatch(r -> Path.of(r).equals(path))
                || sets.stream().anyMatch(c -> c.path().equals(path));
        if (seen) {
            throw new IllegalArgumentException("attribute updated twice: " + String.join(".", path.segments()));
        }
    }
}
