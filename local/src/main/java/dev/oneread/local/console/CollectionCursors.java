package dev.oneread.local.console;

import dev.oneread.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code next} cursor of a collection page: its {@link CollectionPages.Position} as plain JSON (a developer
 * may read it), base64url, then an HMAC-SHA256 of it and of the collection it pages, with a key this console drew
 * at start. So a cursor changed by hand, or one given to another collection, is refused; one from before a restart
 * too (the page starts again from the first).
 *
 * <pre>{@code String next = cursors.seal(position, "tenant=acme"); cursors.open(next, "tenant=acme");}</pre>
 */
final class CollectionCursors {
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
    private static final int MAX_CURSOR_CHARS = 64 * 1024;

    private final SecretKeySpec key;

    CollectionCursors() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        this.key = new SecretKeySpec(bytes, "HmacSHA256");
    }

    String seal(CollectionPages.Position position, String view) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("segment", position.segment());
        json.put("after", new java.util.TreeMap<>(position.after()));
        json.put("done", new ArrayList<>(new TreeSet<>(position.done())));
        json.put("since", position.since());
        String body = ENCODER.encodeToString(Json.write(json).getBytes(StandardCharsets.UTF_8));
        return body + "." + ENCODER.encodeToString(mac(body, view));
    }

    /**
     * The position a cursor holds, for a page of {@code view} (of {@code segments} segments), whose partitions
     * {@code belongs} accepts.
     *
     * @throws BadRequest (400) when this console did not issue it for this view
     */
    @SuppressWarnings("unchecked")
    CollectionPages.Position open(
            String cursor, String view, int segments, java.util.function.Predicate<String> belongs) {
        int dot = cursor.indexOf('.');
        if (cursor.length() > MAX_CURSOR_CHARS || dot < 0) {
            throw refused();
        }
        String body = cursor.substring(0, dot);
        byte[] tag;
        try {
            tag = DECODER.decode(cursor.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            throw refused();
        }
        if (!MessageDigest.isEqual(tag, mac(body, view))) {
            throw refused();
        }
        // Signed by this console, so well formed; the partitions are checked all the same.
        Map<String, Object> json = Json.readObject(new String(DECODER.decode(body), StandardCharsets.UTF_8));
        int segment = ((Number) json.get("segment")).intValue();
        Map<String, String> after = (Map<String, String>) json.get("after");
        List<String> done = (List<String>) json.get("done");
        String since = (String) json.get("since");
        if (segment < 0
                || segment >= segments
                || !after.keySet().stream().allMatch(belongs)
                || !done.stream().allMatch(belongs)) {
            throw refused();
        }
        return new CollectionPages.Position(segment, after, new TreeSet<>(done), since);
    }

    private static BadRequest refused() {
        return new BadRequest("after is not a cursor this console gave for this collection: start from the first page");
    }

    private byte[] mac(String body, String view) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update(view.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            return mac.doFinal(body.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
