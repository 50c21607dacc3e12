package dev.oneread.http;

/**
 * A request the HTTP layer rejects before any DynamoDB call: the status and a detail safe to show the
 * caller (it names the field and the rule, never internal names or the raw input).
 */
public final class HttpProblemException extends RuntimeException {
    private final int status;

    public HttpProblemException(int status, String detail) {
        super(detail, null, false, false);
        this.status = status;
    }

    public static HttpProblemException badRequest(String detail) {
        return new HttpProblemException(400, detail);
    }

    public int status() {
        return status;
    }
}
