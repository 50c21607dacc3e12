package dev.oneread.http;

import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.StoredResponse;
import dev.oneread.store.CallTally;
import dev.oneread.store.IdempotencyStore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code Idempotency-Key} for POSTs: a retry with the same key and body gets the first response and creates
 * nothing; the same key with another body is a 422; a duplicate while the first is in flight is a 409 with
 * Retry-After. Without the header a POST runs as it is.
 *
 * <pre>{@code return idempotency.run(request, workspaceId, tally, () -> create(...));}</pre>
 */
public final class IdempotentRequests {
    static final String HEADER = "idempotency-key";
    private final IdempotencyStore store;
    private final Clock clock;

    public IdempotentRequests(IdempotencyStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /**
     * Runs {@code create} at most once per key. Only a success is kept for replay: after an error the claim is
     * released, so that the client's retry (say, once the workspace exists) runs again.
     */
    public HttpResponse run(
            ApiRequest request, WorkspaceId workspaceId, CallTally tally, Supplier<HttpResponse> create) {
        Optional<String> key = request.header(HEADER);
        if (key.isEmpty()) {
            return create.get();
        }
        if (!key.get().matches("^[\\x21-\\x7e]{1,255}$")) {
            throw HttpProblemException.badRequest("Idempotency-Key must be 1-255 visible ASCII characters");
        }
        // The key is the client's; scope it to the route and workspace so two APIs never share a record.
        String keyHash = sha256(request.routeKey() + "\n" + workspaceId.value() + "\n" + key.get());
        String payloadHash = sha256(request.body() == null ? "" : request.body());
        Duration inFlight =
                tally.remaining().compareTo(Duration.ofMinutes(15)) > 0 ? Duration.ofMinutes(15) : tally.remaining();
        Optional<StoredResponse> replay =
                store.claim(workspaceId, keyHash, payloadHash, clock.instant(), inFlight, tally);
        if (replay.isPresent()) {
            StoredResponse stored = replay.get();
            return new HttpResponse(stored.status(), stored.headers(), stored.body())
                    .withHeader("idempotent-replayed", "true");
        }
        HttpResponse response;
        try {
            response = create.get();
        } catch (RuntimeException e) {
            releaseQuietly(workspaceId, keyHash, tally);
            throw e;
        }
        if (response.statusCode() >= 200 && response.statusCode() < 300) {
            store.complete(
                    workspaceId,
                    keyHash,
                    new StoredResponse(response.statusCode(), response.headers(), response.body()),
                    tally);
        } else {
            releaseQuietly(workspaceId, keyHash, tally);
        }
        return response;
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
