package dev.oneread.http;

import dev.oneread.model.ListPosition;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.TreeSet;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Opaque pagination cursors: a {@link ListPosition}, sealed with AES-256-GCM and bound (as associated data) to
 * the workspace and the route, with an expiry inside. A cursor that was altered, expired, or issued for
 * another workspace or route fails authentication and is a 400; nobody can read a key out of one or forge
 * one. The partition still comes from the path, and the store re-validates the position with the codec.
 *
 * <pre>{@code String next = cursors.seal(position, workspaceId, routeKey);}</pre>
 */
public final class Cursors {
    /** How long a cursor stays valid: long enough to page, short enough that a leaked one soon dies. */
    static final Duration LIFETIME = Duration.ofHours(1);

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;
    private final Clock clock;

    /** @param key 32 bytes (AES-256), from the CursorKey template parameter */
    public Cursors(byte[] key, Clock clock) {
        if (key == null || key.length != 32) {
            throw new IllegalArgumentException("cursor key must be 32 bytes");
        }
        this.key = new SecretKeySpec(key, "AES");
        this.clock = clock;
    }

    public String seal(ListPosition position, String workspaceId, String routeKey) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        byte[] text = encode(position);
        ByteBuffer plain = ByteBuffer.allocate(Long.BYTES + text.length)
                .putLong(clock.instant().plus(LIFETIME).getEpochSecond())
                .put(text);
        try {
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, nonce, workspaceId, routeKey);
            byte[] sealed = cipher.doFinal(plain.array());
            return Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString(ByteBuffer.allocate(nonce.length + sealed.length)
                            .put(nonce)
                            .put(sealed)
                            .array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM unavailable", e);
        }
    }

    public ListPosition open(String cursor, String workspaceId, String routeKey) {
        if (cursor == null || cursor.length() > 1024 || !cursor.matches("^[A-Za-z0-9_-]+$")) {
            throw new BadCursorException();
        }
        byte[] raw;
        try {
            raw = Base64.getUrlDecoder().decode(cursor);
        } catch (IllegalArgumentException e) {
            throw new BadCursorException();
        }
        if (raw.length < NONCE_BYTES + TAG_BITS / 8 + Long.BYTES) {
            throw new BadCursorException();
        }
        byte[] plain;
        try {
            Cipher cipher =
                    cipher(Cipher.DECRYPT_MODE, java.util.Arrays.copyOf(raw, NONCE_BYTES), workspaceId, routeKey);
            plain = cipher.doFinal(raw, NONCE_BYTES, raw.length - NONCE_BYTES);
        } catch (GeneralSecurityException e) {
            throw new BadCursorException(); // tampered, or sealed for another workspace or route
        }
        ByteBuffer buffer = ByteBuffer.wrap(plain);
        if (buffer.getLong() < clock.instant().getEpochSecond()) {
            throw new BadCursorException();
        }
        return decode(buffer);
    }

    /** The position as bytes: the sort key, then the count and indexes of the exhausted partitions. */
    private static byte[] encode(ListPosition position) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(position.afterSortKey());
            out.writeShort(position.exhausted().size());
            for (int index : position.exhausted()) {
                out.writeShort(index);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Only this class writes these bytes, under authentication; anything else (an older format) is a 400. */
    private static ListPosition decode(ByteBuffer buffer) {
        try (DataInputStream in =
                new DataInputStream(new ByteArrayInputStream(buffer.array(), buffer.position(), buffer.remaining()))) {
            String afterSortKey = in.readUTF();
            int count = in.readUnsignedShort();
            TreeSet<Integer> exhausted = new TreeSet<>();
            for (int i = 0; i < count; i++) {
                exhausted.add(in.readUnsignedShort());
            }
            if (in.available() > 0) {
                throw new BadCursorException();
            }
            return new ListPosition(afterSortKey, exhausted);
        } catch (IOException e) {
            throw new BadCursorException();
        }
    }

    private Cipher cipher(int mode, byte[] nonce, String workspaceId, String routeKey) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
        cipher.updateAAD((workspaceId + "\n" + routeKey).getBytes(StandardCharsets.UTF_8));
        return cipher;
    }

    /** The cursor is not one this service issued for this list, or it expired. */
    static final class BadCursorException extends RuntimeException {
        BadCursorException() {
            super("bad cursor", null, false, false);
        }
    }
}
