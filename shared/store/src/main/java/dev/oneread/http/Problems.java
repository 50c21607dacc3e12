package dev.oneread.http;

import dev.oneread.json.Json;
import dev.oneread.keys.InvalidIdException;
import dev.oneread.store.exceptions.AlreadyExistsException;
import dev.oneread.store.exceptions.IdempotencyInProgressException;
import dev.oneread.store.exceptions.IdempotencyMismatchException;
import dev.oneread.store.exceptions.InvalidCursorException;
import dev.oneread.store.exceptions.NotFoundException;
import dev.oneread.store.exceptions.PreconditionFailedException;
import dev.oneread.store.exceptions.QuotaExceededException;
import dev.oneread.store.exceptions.StoreUnavailableException;
import dev.oneread.store.exceptions.UndecodableItemException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one place that maps exceptions to HTTP: RFC 9457 {@code application/problem+json} responses. Details
 * come from messages written for callers; anything unexpected becomes a bare 500 with no detail, so no
 * stack trace, key or internal name ever reaches a response.
 */
public final class Problems {
    /** Seconds a client should wait before retrying after a 503. */
    static final String RETRY_AFTER_SECONDS = "1";

    private Problems() {}

    public static HttpResponse fromException(Throwable error) {
        if (error instanceof HttpProblemException e) {
            return problem(e.status(), e.getMessage());
        } else if (error instanceof InvalidIdException e) {
            return problem(400, e.getMessage());
        } else if (error instanceof Json.InvalidTextException e) {
            return problem(400, e.getMessage());
        } else if (error instanceof Json.MalformedJsonException) {
            return problem(400, "body must be a JSON object");
        } else if (error instanceof InvalidCursorException) {
            return problem(400, "cursor is not valid for this list");
        } else if (error instanceof NotFoundException e) {
            return problem(404, e.getMessage());
        } else if (error instanceof AlreadyExistsException e) {
            return problem(409, e.getMessage());
        } else if (error instanceof QuotaExceededException e) {
            return problem(409, QUOTA_EXCEEDED, "Project quota exceeded", e.getMessage());
        } else if (error instanceof IdempotencyInProgressException e) {
            return problem(409, e.getMessage()).withHeader("retry-after", wholeSeconds(e.retryAfter()));
        } else if (error instanceof IdempotencyMismatchException e) {
            return problem(422, e.getMessage());
        } else if (error instanceof PreconditionFailedException e) {
            return problem(412, e.getMessage());
        } else if (error instanceof UndecodableItemException) {
            // A 500 of its own type, so that a client and a dashboard can tell it apart; nothing of the item in it.
            return problem(500, UNDECODABLE_ITEM, title(500), null);
        } else if (error instanceof StoreUnavailableException) {
            return problem(503, "the service is temporarily unavailable; retry later")
                    .withHeader("retry-after", RETRY_AFTER_SECONDS);
        }
        return problem(500, null);
    }

    /** Retry-After is whole seconds (RFC 9110 §10.2.3): rounded up, so a retry never comes too early; at least 1. */
    private static String wholeSeconds(Duration delay) {
        long millis = delay.toMillis();
        return Long.toString(Math.max(1, (millis + 999) / 1000));
    }

    /** The problem type of a create refused by the workspace's project quota (RFC 9457 §3.1.1: a URI). */
    public static final String QUOTA_EXCEEDED = "https://oneread.dev/problems/project-quota-exceeded";

    /**
     * The problem type of a read that met an item it cannot decode (written by hand, or by another version): the
     * whole answer is refused, a list page included, rather than shorter; the log line names the item's key.
     */
    public static final String UNDECODABLE_ITEM = "https://oneread.dev/problems/undecodable-item";

    public static HttpResponse problem(int status, String detail) {
        return problem(status, "about:blank", title(status), detail);
    }

    /** A problem of a type of its own, for a refusal a client should tell apart from others of its status. */
    public static HttpResponse problem(int status, String type, String title, String detail) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type);
        body.put("title", title);
        body.put("status", status);
        if (detail != null) {
            body.put("detail", detail);
        }
        return new HttpResponse(status, Map.of("content-type", HttpResponse.PROBLEM_TYPE), Json.write(body));
    }

    private static String title(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 409 -> "Conflict";
            case 412 -> "Precondition Failed";
            case 413 -> "Content Too Large";
            case 415 -> "Unsupported Media Type";
            case 422 -> "Unprocessable Content";
            case 428 -> "Precondition Required";
            case 503 -> "Service Unavailable";
            default -> status >= 500 ? "Internal Server Error" : "Client Error";
        };
    }
}
