package dev.oneread.expr;

import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A condition expression for conditional writes, composable with {@link #and} and {@link #or}. Rendering
 * is deferred so that a condition shares one set of placeholders with the update it guards.
 *
 * <pre>{@code
 * Expression e = Condition.attributeExists("EntityRef").and(Condition.equalTo("version", AttributeValue.fromN("3"))).build();
 * // attribute_exists(#er) AND #v = :v
 * }</pre>
 */
public final class Condition {
    private final Function<Placeholders, String> renderer;

    private Condition(Function<Placeholders, String> renderer) {
        this.renderer = renderer;
    }

    /** True when no item with this key exists yet: the guard that makes a put a create. */
    public static Condition attributeNotExists(String attribute) {
        return attributeNotExists(Path.of(attribute));
    }

    public static Condition attributeNotExists(Path path) {
        return new Condition(p -> "attribute_not_exists(" + path.render(p) + ")");
    }

    /** True when the item exists: the guard that keeps an update from creating an item. */
    public static Condition attributeExists(String attribute) {
        return attributeExists(Path.of(attribute));
    }

    public static Condition attributeExists(Path path) {
        return new Condition(p -> "attribute_exists(" + path.render(p) + ")");
    }

    public static Condition equalTo(String attribute, AttributeValue value) {
        return compare(attribute, "=", value);
    }

    public static Condition lessThan(String attribute, AttributeValue value) {
        return compare(attribute, "<", value);
    }

    public static Condition lessThan(Path path, AttributeValue value) {
        return compare(path, "<", value);
    }

    public static Condition notEqualTo(String attribute, AttributeValue value) {
        return compare(attribute, "<>", value);
    }

    public static Condition lessThanOrEqualTo(String attribute, AttributeValue value) {
        return compare(attribute, "<=", value);
    }

    public static Condition greaterThan(String attribute, AttributeValue value) {
        return compare(attribute, ">", value);
    }

    public static Condition greaterThanOrEqualTo(String attribute, AttributeValue value) {
        return compare(attribute, ">=", value);
    }

    /** {@code begins_with(path, value)}: a string or binary attribute that starts with {@code value}. */
    public static Condition beginsWith(String attribute, AttributeValue value) {
        return function("begins_with", Path.of(attribute), value);
    }

    /** {@code contains(path, value)}: a string holding {@code value}, or a set or list with it as a member. */
    public static Condition contains(String attribute, AttributeValue value) {
        return function("contains", Path.of(attribute), value);
    }

    public Condition and(Condition other) {
        return new Condition(p -> render(p) + " AND " + other.render(p));
    }

    /** Parenthesised, so that it composes safely with AND. */
    public Condition or(Condition other) {
        return new Condition(p -> "(" + render(p) + " OR " + other.render(p) + ")");
    }

    public Expression build() {
        Placeholders placeholders = new Placeholders();
        return placeholders.build(render(placeholders));
    }

    String render(Placeholders placeholders) {
        return renderer.apply(placeholders);
    }

    private static Condition compare(String attribute, String operator, AttributeValue value) {
        return compare(Path.of(attribute), operator, value);
    }

    private static Condition function(String name, Path path, AttributeValue value) {
        return new Condition(p -> name + "(" + path.render(p) + ", " + p.value(path.valueHint(), value) + ")");
    }

    private static Condition compare(Path path, String operator, AttributeValue value) {
        return new Condition(p -> path.render(p) + " " + operator + " " + p.value(path.valueHint(), value));
    }
}
