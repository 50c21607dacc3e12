package dev.oneread.local.console;

/** Input to a console endpoint that it refuses: a 4xx problem, with a detail safe to show. */
final class BadRequest extends RuntimeException {
    private final int status;

    BadRequest(String detail) {
        this(400, detail);
    }

    BadRequest(int status, String detail) {
        super(detail, null, false, false);
        this.status = status;
    }

    int status() {
        return status;
    }
}
