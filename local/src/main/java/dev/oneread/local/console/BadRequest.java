package dev.oneread.local.console;

import java.util.Map;

/**
 * Input to a console endpoint that it refuses: a 4xx problem, with a detail safe to show, and members of its own
 * where the detail alone cannot say it all (an import's refused items).
 */
final class BadRequest extends RuntimeException {
    private final int status;
    private final transient Map<String, Object> members;

    BadRequest(String detail) {
        this(400, detail);
    }

    BadRequest(int status, String detail) {
        this(status, detail, Map.of());
    }

    BadRequest(int status, String detail, Map<String, Object> members) {
        super(detail, null, false, false);
        this.status = status;
        this.members = Map.copyOf(members);
    }

    int status() {
        return status;
    }

    /** Extension members of the problem (RFC 9457 §3.2), beside type, title, status and detail. */
    Map<String, Object> members() {
        return members;
    }
}
