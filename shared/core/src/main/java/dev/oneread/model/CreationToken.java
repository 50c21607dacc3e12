package dev.oneread.model;

import dev.oneread.keys.SnapshotSafeRandom;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

/**
 * Marks an item with the request that created it. A create is a conditional put that never overwrites; when it
 * is refused, the item in the way may be this request's own, written by an attempt whose answer was lost (a
 * 500 after the commit, a timeout) and then retried by the SDK or by the client. The token tells the two
 * apart: the item carries this token, so the create happened, and it is a success, not a 409.
 *
 * <p>128 bits, base64url (22 characters): enough to never collide, small enough to cost no capacity unit.
 */
public record CreationToken(String value) {
    private static final SecureRandom RANDOM = SnapshotSafeRandom.create();
    private static final int BYTES = 16;

    public CreationToken {
        if (value == null || value.length() != 22) {
            throw new IllegalArgumentException("a creation token is 22 base64url characters");
        }
    }

    /** A request without an Idempotency-Key: its own attempts (the SDK's retries) are all that can repeat it. */
    public static CreationToken random() {
        byte[] bytes = new byte[BYTES];
        RANDOM.nextBytes(bytes);
        return encode(bytes);
    }

    /**
     * A request with an Idempotency-Key: every retry of it with the same key and the same body, in any
     * invocation, has the same token. The body is part of it so that, once the key's record has expired, a
     * different request under the same key never passes for the one that created the item.
     */
    public static CreationToken of(String keyHash, String payloadHash) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((keyHash + "\n" + payloadHash).getBytes(StandardCharsets.UTF_8));
            return encode(Arrays.copyOf(digest, BYTES));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    private static CreationToken encode(byte[] bytes) {
        return new CreationToken(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
    }
}
