package dev.oneread.http;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * Turns a store position (a sort key) into the opaque {@code nextCursor} string and back. The cursor holds
 * only the sort key: the partition always comes from the request path, so a cursor can never move a query
 * to another workspace, and the store re-validates the decoded key with the codec.
 */
public final class Cursors {
    private static final Pattern BASE64URL = Pattern.compile("^[A-Za-z0-9_-]{1,512}$");

    private Cursors() {
    }

    public static String encode(String position) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(position.getBytes(StandardCharsets.UTF_8));
    }

    public static String decode(String cursor) {
        if (cursor == null || !BASE64URL.matcher(cursor).matches()) {
            throw new BadCursorException();
        }
        try {
            return new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new BadCursorException();
        }
    }

    /** The cursor is not one this service issued. */
    static final class BadCursorException extends RuntimeException {
        BadCursorException() {
            super("bad cursor", null, false, false);
        }
    }
}
