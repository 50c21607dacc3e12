package dev.oneread.keys;

/**
 * A project id: a ULID in its canonical form, 26 upper-case Crockford base32 characters.
 *
 * <p>Fixed width and upper case matter because DynamoDB compares sort keys byte by byte: only then does
 * {@code PROJ#<id>} order projects by creation time. Lower case is rejected, not folded, so that one
 * project has exactly one spelling.
 *
 * <pre>{@code ProjectId id = ProjectId.of("01JDQ6V7K4N3M2P1R0S9T8V7W6");}</pre>
 */
public record ProjectId(String value) implements Comparable<ProjectId> {

    public ProjectId {
        if (!Ulid.isCanonical(value)) {
            throw new InvalidIdException("projectId", "must be a 26-character upper-case ULID");
        }
    }

    public static ProjectId of(String value) {
        return new ProjectId(value);
    }

    /** Milliseconds since the epoch at which the id was generated. */
    public long timestampMillis() {
        return Ulid.timestampMillis(value);
    }

    @Override
    public int compareTo(ProjectId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
