package dev.oneread.model;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The response an idempotent request produced the first time, kept to answer its retries identically. Only what
 * the API itself sets is kept: a 2xx, its Location and ETag, and the body; a replay says {@code application/json}
 * itself. So a record that did not come from the API (written by hand, planted) can never make a replay set a
 * cookie or answer HTML.
 *
 * <pre>{@code new StoredResponse(201, Map.of("location", "/workspaces/acme", "etag", "\"1\""), body)}</pre>
 */
public record StoredResponse(int status, Map<String, String> headers, String body) {
    /** The headers a replay repeats, by their lower-case names: those of a create. */
    public static final Set<String> REPLAYED_HEADERS = Set.of("location", "etag");

    public StoredResponse {
        if (status < 200 || status > 299) {
            throw new IllegalArgumentException("only a success (2xx) is kept for replay");
        }
        if (body == null) {
            throw new IllegalArgumentException("a kept response has a body");
        }
        Map<String, String> kept = new LinkedHashMap<>();
        headers.forEach((name, value) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (REPLAYED_HEADERS.contains(lower)) {
                kept.put(lower, value);
            }
        });
        headers = Map.copyOf(kept);
    }
}
