package dev.oneread.expr;

/**
 * Condition expressions for conditional writes.
 *
 * <pre>{@code Expression create = Condition.attributeNotExists("EntityRef");  // attribute_not_exists(#er)}</pre>
 */
public final class Condition {
    private Condition() {
    }

    /** True when no item with this key exists yet: the guard that makes a put a create. */
    public static Expression attributeNotExists(String attribute) {
        Placeholders placeholders = new Placeholders();
        return placeholders.build("attribute_not_exists(" + placeholders.name(attribute) + ")");
    }

    /** True when the item exists: the guard that keeps an update from creating an item. */
    public static Expression attributeExists(String attribute) {
        Placeholders placeholders = new Placeholders();
        return placeholders.build("attribute_exists(" + placeholders.name(attribute) + ")");
    }
}
