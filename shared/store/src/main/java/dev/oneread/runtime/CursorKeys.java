package dev.oneread.runtime;

import dev.oneread.json.Json;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The keys that seal and open pagination cursors: {@code current} seals, it and every {@code previous} key
 * open. Each has an id, written into every cursor, so that during a rotation a cursor sealed with the old key
 * still opens while the new one seals.
 *
 * <p>In Secrets Manager the secret's value is
 * {@code {"current":{"id":2,"key":"<base64 of 32 bytes>"},"previous":[{"id":1,"key":"..."}]}}.
 *
 * <pre>{@code CursorKeys keys = CursorKeys.parse(secretString);}</pre>
 */
public record CursorKeys(Key current, List<Key> previous) {

    /** One AES-256 key and its id (0-255, one byte of every cursor). */
    public record Key(int id, byte[] bytes) {
        public Key {
            if (id < 0 || id > 255) {
                throw new IllegalArgumentException("a cursor key id is 0-255");
            }
            if (bytes == null || bytes.length != 32) {
                throw new IllegalArgumentException("a cursor key is 32 bytes (AES-256)");
            }
            bytes = bytes.clone();
        }
    }

    public CursorKeys {
        previous = List.copyOf(previous);
    }

    /** One key and no other, id 0: the local runner's and the tests'. */
    public static CursorKeys single(byte[] key) {
        return new CursorKeys(new Key(0, key), List.of());
    }

    /** The key a cursor names, if it is one of these. */
    public Optional<Key> byId(int id) {
        if (current.id() == id) {
            return Optional.of(current);
        }
        return previous.stream().filter(k -> k.id() == id).findFirst();
    }

    /** The secret's value, as above; anything else fails the function's init with a message that says what. */
    @SuppressWarnings("unchecked")
    public static CursorKeys parse(String secret) {
        try {
            Map<String, Object> value = Json.readObject(secret);
            List<Key> previous = new ArrayList<>();
            for (Object key : (List<Object>) value.getOrDefault("previous", List.of())) {
                previous.add(key((Map<String, Object>) key));
            }
            return new CursorKeys(key((Map<String, Object>) value.get("current")), previous);
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    "the cursor key secret must be {\"current\":{\"id\":0-255,\"key\":\"<base64 of 32 bytes>\"},"
                            + "\"previous\":[...]}");
        }
    }

    private static Key key(Map<String, Object> key) {
        return new Key(((Number) key.get("id")).intValue(), Base64.getDecoder().decode((String) key.get("key")));
    }

    /** Where the keys come from: asked at init, and again by {@link dev.oneread.http.Cursors} to pick up a rotation. */
    @FunctionalInterface
    public interface Source {
        CursorKeys load();

        static Source fixed(CursorKeys keys) {
            return () -> keys;
        }
    }

    /**
     * How a paging function reads its keys from the secret its environment names (CURSOR_KEY_SECRET): the secrets
     * module's {@code CursorKeySecret::fromEnvironment}. A function passes it to {@code FunctionConfig}, so only a
     * function that pages carries the Secrets Manager client.
     */
    @FunctionalInterface
    public interface SecretReader {
        Source read(Map<String, String> environment, String secretId);
    }
}
