package dev.oneread.http;

import dev.oneread.keys.SnapshotSafeRandom;
import dev.oneread.model.ListPosition;
import dev.oneread.runtime.CursorKeys;
import dev.oneread.store.exceptions.InvalidCursorException;
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
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.TreeSet;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Opaque pagination cursors: a {@link ListPosition}, sealed with AES-256-GCM and bound (as associated data) to
 * the key id, the workspace and the route, with an expiry inside. The first byte names the key (see
 * {@link CursorKeys}), so that a rotation keeps the cursors of the previous key valid. A cursor that was altered, expired, or issued for
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
    private static final SecureRandom RANDOM = SnapshotSafeRandom.create();

    /** Keys older than this are loaded again before use: the bound on how long a rotation takes to arrive. */
    static final Duration REFRESH = Duration.ofMinutes(5);
    /** A cursor that names an unknown key loads the keys again, but not more often than this. */
    static final Duration RELOAD_ON_UNKNOWN = Duration.ofSeconds(10);

    private final CursorKeys.Source source;
    private final Clock clock;
    private volatile CursorKeys keys;
    private volatile Instant loadedAt;

    /** @param key 32 bytes (AES-256): one key, id 0, never reloaded */
    public Cursors(byte[] key, Clock clock) {
        this(CursorKeys.Source.fixed(CursorKeys.single(key)), clock);
    }

    /** Loads the keys now (at init), and again every {@link #REFRESH}, or when a cursor names another key. */
    public Cursors(CursorKeys.Source source, Clock clock) {
        this.source = source;
        this.clock = clock;
        this.keys = source.load();
        this.loadedAt = clock.instant();
    }

    public String seal(ListPosition position, String workspaceId, String routeKey) {
        CursorKeys.Key key = current().current();
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        byte[] text = encode(position);
        ByteBuffer plain = ByteBuffer.allocate(Long.BYTES + text.length)
                .putLong(clock.instant().plus(LIFETIME).getEpochSecond())
                .put(text);
        try {
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, key, nonce, workspaceId, routeKey);
            byte[] sealed = cipher.doFinal(plain.array());
            return Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString(ByteBuffer.allocate(1 + nonce.length + sealed.length)
                            .put((byte) key.id())
                            .put(nonce)
                            .put(sealed)
                            .array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM unavailable", e);
        }
    }

    /** The keys, loaded again once {@link #REFRESH} old; a failed load keeps the keys there are. */
    private CursorKeys current() {
        if (clock.instant().isAfter(loadedAt.plus(REFRESH))) {
            reload();
        }
        return keys;
    }

    private synchronized void reload() {
        try {
            keys = source.load();
        } catch (RuntimeException e) {
            // Keep serving with the keys there are; the next refresh tries again.
        }
        loadedAt = clock.instant();
    }

    /** The key a cursor names: one of the keys, or after a reload (rate-limited) one of the new ones. */
    private CursorKeys.Key keyFor(int id) {
        Optional<CursorKeys.Key> key = current().byId(id);
        if (key.isEmpty() && clock.instant().isAfter(loadedAt.plus(RELOAD_ON_UNKNOWN))) {
            reload();
            key = keys.byId(id);
        }
        return key.orElseThrow(InvalidCursorException::new);
    }

    public ListPosition open(String cursor, String workspaceId, String routeKey) {
        if (cursor == null || cursor.length() > 1024 || !cursor.matches("^[A-Za-z0-9_-]+$")) {
            throw new InvalidCursorException();
        }
        byte[] raw;
        try {
            raw = Base64.getUrlDecoder().decode(cursor);
        } catch (IllegalArgumentException e) {
            throw new InvalidCursorException();
        }
        if (raw.length < 1 + NONCE_BYTES + TAG_BITS / 8 + Long.BYTES) {
            throw new InvalidCursorException();
        }
        CursorKeys.Key key = keyFor(Byte.toUnsignedInt(raw[0]));
        byte[] plain;
        try {
            Cipher cipher = cipher(
                    Cipher.DECRYPT_MODE,
                    key,
                    java.util.Arrays.copyOfRange(raw, 1, 1 + NONCE_BYTES),
                    workspaceId,
                    routeKey);
            plain = cipher.doFinal(raw, 1 + NONCE_BYTES, raw.length - 1 - NONCE_BYTES);
        } catch (GeneralSecurityException e) {
            throw new InvalidCursorException(); // tampered, or sealed for another workspace or route
        }
        ByteBuffer buffer = ByteBuffer.wrap(plain);
        if (buffer.getLong() < clock.instant().getEpochSecond()) {
            throw new InvalidCursorException();
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
                throw new InvalidCursorException();
            }
            return new ListPosition(afterSortKey, exhausted);
        } catch (IOException e) {
            throw new InvalidCursorException();
        }
    }

    /** AES-GCM with the key id, the workspace and the route as associated data: none can be changed unnoticed. */
    private static Cipher cipher(int mode, CursorKeys.Key key, byte[] nonce, String workspaceId, String routeKey)
            throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, new SecretKeySpec(key.bytes(), "AES"), new GCMParameterSpec(TAG_BITS, nonce));
        cipher.updateAAD((key.id() + "\n" + workspaceId + "\n" + routeKey).getBytes(StandardCharsets.UTF_8));
        return cipher;
    }
}
