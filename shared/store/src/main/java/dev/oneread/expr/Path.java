package dev.oneread.expr;

import java.util.ArrayList;
import java.util.List;

/**
 * A document path into a map attribute, such as a workspace's {@code stats.s07}: each segment gets its own
 * {@code #name} placeholder, so a segment is never parsed for dots or brackets. DynamoDB refuses a SET through a
 * parent map that does not exist, so a writer guards such a SET with {@code attribute_exists} of the parent.
 *
 * <pre>{@code Path p = Path.of("stats", "s07"); // renders #s.#s07}</pre>
 */
public record Path(List<String> segments) {
    public Path {
        if (segments == null || segments.isEmpty()) {
            throw new IllegalArgumentException("a path needs at least one segment");
        }
        segments = List.copyOf(segments);
        segments.forEach(Placeholders::initialsOf);
    }

    public static Path of(String attribute, String... more) {
        List<String> all = new ArrayList<>();
        all.add(attribute);
        all.addAll(List.of(more));
        return new Path(all);
    }

    /** The path one segment deeper. */
    public Path then(String segment) {
        List<String> all = new ArrayList<>(segments);
        all.add(segment);
        return new Path(all);
    }

    String render(Placeholders placeholders) {
        List<String> names = new ArrayList<>();
        segments.forEach(segment -> names.add(placeholders.name(segment)));
        return String.join(".", names);
    }

    /** The hint of a value placeholder assigned to this path: the last segment's initials. */
    String valueHint() {
        return Placeholders.initialsOf(segments.get(segments.size() - 1));
    }
}
