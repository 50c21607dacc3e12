package dev.oneread.http;

import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.CreationToken;
import dev.oneread.model.StoredResponse;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.calls.InvocationDeadline;
import dev.oneread.store.exceptions.IdempotencyMismatchException;
import dev.oneread.store.idempotency.IdempotencyStore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code Idempotency-Key} for POSTs: a retry with the same key and body gets the first response and creates
 * nothing; the same key with another body is a 422; a duplicate while the first is in flight (or its outcome is
 * unknown) is a 409 with Retry-After. Without the header a POST runs as it is.
 *
 * <p>Correct under ambiguous failures: the id of what is created is reserved with the claim, so every attempt
 * of one request creates under the same id, and every created item carries the request's {@link
 * CreationToken}, so an attempt that meets an earlier attempt's item knows it for its own (the store answers
 * it as created). The claim is released only after a definite refusal (4xx); after a 5xx, a timeout or a
 * throttle the write may have landed, so the claim stays until {@link InvocationDeadline#untilSentWritesLand()}.
 *
 * <pre>{@code return idempotency.run(request, workspaceId, tally, ids, (id, token) -> create(id, token));}</pre>
 */
public final class IdempotentRequests {
    static final String HEADER = "idempotency-key";
    private final IdempotencyStore store;
    private final Clock clock;

    public IdempotentRequests(IdempotencyStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** The create itself: given the id to create under and the token to mark it with. */
    @FunctionalInterface
    public interface Create<I> {
        HttpResponse run(I id, CreationToken token);
    }

    /**
     * How an id to create under is made ({@code fresh}), and kept in the idempotency record between attempts
     * ({@code encode}, {@code decode}).
     */
    public record Ids<I>(Supplier<I> fresh, Function<I, String> encode, Function<String, I> decode) {}

    /**
     * Runs {@code create} at most once per key: under a fresh id and a random token without a key; with one,
     * under the id reserved by the key's claim and the key's token. Only a success is kept for replay.
     */
    public <I> HttpResponse run(
            ApiRequest request, WorkspaceId workspaceId, CallTally tally, Ids<I> ids, Create<I> create) {
        Optional<String> key = request.header(HEADER);
        if (key.isEmpty()) {
            return create.run(ids.fresh().get(), CreationToken.random());
        }
        if (!key.get().matches("^[\\x21-\\x7e]{1,255}$")) {
            throw HttpProblemException.badRequest("Idempotency-Key must be 1-255 visible ASCII characters");
        }
        // The key is the client's: scope it to the caller, the route and the workspace, so that two callers (or
        // two APIs) whose keys collide never share a record.
        String keyHash = sha256(
                String.join("\n", request.caller().subject(), request.routeKey(), workspaceId.value(), key.get()));
        String payloadHash = sha256(request.body() == null ? "" : request.body());
        IdempotencyStore.Claim claim = store.claim(
                workspaceId,
                keyHash,
                payloadHash,
                ids.encode().apply(ids.fresh().get()),
                clock.instant(),
                tally.deadline().untilSentWritesLand(),
                tally);
        if (claim instanceof IdempotencyStore.Claim.Replay replay) {
            // Only what the API itself sets: its status, JSON, Location and ETag (see StoredResponse).
            StoredResponse stored = replay.response();
            if (!createdOnRoute(stored, request.routeKey(), workspaceId)) {
                // The store checked the workspace; a response of another route (a workspace's Location for a
                // project's create) is no answer to this request either.
                throw new IdempotencyMismatchException();
            }
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("content-type", HttpResponse.JSON_TYPE);
            headers.putAll(stored.headers());
            return new HttpResponse(stored.status(), headers, stored.body()).withHeader("idempotent-replayed", "true");
        }
        I id = ids.decode().apply(((IdempotencyStore.Claim.Granted) claim).reservedId());
        HttpResponse response = runKeepingUnknownOutcomes(
                workspaceId, keyHash, tally, () -> create.run(id, CreationToken.of(keyHash, payloadHash)));
        if (response.statusCode() >= 200 && response.statusCode() < 300) {
            completeQuietly(workspaceId, keyHash, response, tally);
        }
        return response;
    }

    /**
     * Whether a kept response is a create's on {@code routeKey} ({@code POST /workspaces/{workspaceId}/projects}):
     * its Location is one resource directly in the route's collection, with the workspace in its path.
     */
    static boolean createdOnRoute(StoredResponse stored, String routeKey, WorkspaceId workspaceId) {
        String collection =
                routeKey.substring(routeKey.indexOf(' ') + 1).replace("{workspaceId}", workspaceId.value()) + "/";
        String location = stored.headers().get("location");
        return location != null
                && location.startsWith(collection)
                && location.length() > collection.length()
                && location.indexOf('/', collection.length()) < 0;
    }

    /**
     * Runs the create and releases the claim after a definite refusal (a 4xx, thrown or returned: nothing was
     * created). Anything else (a 5xx, a timeout, throttling that outlived the retries) may have created it: the
     * claim stays, and a retry after its deadline takes it over with the same id and token.
     */
    private HttpResponse runKeepingUnknownOutcomes(
            WorkspaceId workspaceId, String keyHash, CallTally tally, Supplier<HttpResponse> create) {
        HttpResponse response;
        try {
            response = create.get();
        } catch (RuntimeException e) {
            if (definitelyRefused(Problems.fromException(e))) {
                releaseQuietly(workspaceId, keyHash, tally);
            }
            throw e;
        }
        if (definitelyRefused(response)) {
            releaseQuietly(workspaceId, keyHash, tally);
        }
        return response;
    }

    private static boolean definitelyRefused(HttpResponse response) {
        return response.statusCode() >= 400 && response.statusCode() < 500;
    }

    /**
     * Keeps the response for replay. If that fails, the create still happened and the caller gets its 201: the
     * record stays in progress, and a retry after its deadline takes it over, meets the item it created, and
     * completes it then.
     */
    private void completeQuietly(WorkspaceId workspaceId, String keyHash, HttpResponse response, CallTally tally) {
        try {
            store.complete(
                    workspaceId,
                    keyHash,
                    new StoredResponse(response.statusCode(), response.headers(), response.body()),
                    tally);
        } catch (RuntimeException ignored) {
            // See above: the in-progress claim and the creation token make the retry converge on this response.
        }
    }

    private void releaseQuietly(WorkspaceId workspaceId, String keyHash, CallTally tally) {
        try {
            store.release(workspaceId, keyHash, tally);
        } catch (RuntimeException ignored) {
            // The claim then expires with its in-progress deadline; the original error is what the caller needs.
        }
    }

    static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}
