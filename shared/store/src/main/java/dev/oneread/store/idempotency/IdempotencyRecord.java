package dev.oneread.store.idempotency;

import dev.oneread.json.Json;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.CreationToken;
import dev.oneread.model.StoredResponse;
import dev.oneread.store.exceptions.UndecodableItemException;
import dev.oneread.store.items.Items;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An idempotency record as the store writes it: claimed (in progress, with the id its create reserved) or
 * completed (with the response to replay). Decoded strictly, so that a record the API could not have written (by
 * hand, or planted by an import) is never replayed: its response must be a 2xx with a JSON object for a body,
 * and of its headers only the API's own are kept (see {@link StoredResponse}).
 *
 * <pre>{@code IdempotencyRecord record = IdempotencyRecord.of(item);}</pre>
 *
 * @param storedHeaders the response headers as stored, all of them: what an import checks against {@link
 *     #STORED_HEADERS}; a replay takes only {@link StoredResponse#headers()}
 */
public record IdempotencyRecord(
        PrimaryKey key,
        boolean completed,
        String payloadHash,
        String holder,
        long inProgressUntil,
        long expiresAt,
        Optional<String> reservedId,
        Optional<StoredResponse> response,
        Map<String, String> storedHeaders) {
    /** The headers the API stores with a response (a create's): its content type, Location and ETag. */
    static final Set<String> STORED_HEADERS = Set.of("content-type", "location", "etag");

    /** The attributes of a record in each state: what the claim writes, and what the completion adds or removes. */
    static final Set<String> CLAIMED = Set.of(
            Items.STATUS,
            Items.PAYLOAD_HASH,
            Items.HOLDER,
            Items.IN_PROGRESS_UNTIL,
            Items.EXPIRES_AT,
            Items.RESERVED_ID);

    static final Set<String> COMPLETED = Set.of(
            Items.STATUS,
            Items.PAYLOAD_HASH,
            Items.HOLDER,
            Items.IN_PROGRESS_UNTIL,
            Items.EXPIRES_AT,
            Items.RESPONSE_STATUS,
            Items.RESPONSE_HEADERS,
            Items.RESPONSE_BODY);

    public static IdempotencyRecord of(Map<String, AttributeValue> item) {
        PrimaryKey key = Items.keyOf(item);
        String status = Items.string(item, Items.STATUS);
        boolean completed = Items.COMPLETED.equals(status);
        if (!completed && !Items.IN_PROGRESS.equals(status)) {
            throw new UndecodableItemException(key, Items.STATUS + " is neither INPROGRESS nor COMPLETED");
        }
        String payloadHash = Items.string(item, Items.PAYLOAD_HASH);
        if (!payloadHash.matches("^[0-9a-f]{64}$")) {
            throw new UndecodableItemException(key, Items.PAYLOAD_HASH + " is not a SHA-256 hex digest");
        }
        String holder = Items.string(item, Items.HOLDER);
        try {
            new CreationToken(holder);
        } catch (IllegalArgumentException e) {
            throw new UndecodableItemException(key, Items.HOLDER + " is not a claim's token");
        }
        long inProgressUntil = Items.number(item, Items.IN_PROGRESS_UNTIL);
        long expiresAt = Items.number(item, Items.EXPIRES_AT);
        if (!completed) {
            return new IdempotencyRecord(
                    key,
                    false,
                    payloadHash,
                    holder,
                    inProgressUntil,
                    expiresAt,
                    Optional.of(Items.string(item, Items.RESERVED_ID)),
                    Optional.empty(),
                    Map.of());
        }
        Map<String, String> headers = headers(key, item.get(Items.RESPONSE_HEADERS));
        return new IdempotencyRecord(
                key,
                true,
                payloadHash,
                holder,
                inProgressUntil,
                expiresAt,
                Optional.empty(),
                Optional.of(response(key, item, headers)),
                headers);
    }

    /**
     * The reply this record keeps: a 2xx, a JSON object, and only the headers the API sets (see above). A stored
     * content type is not read: a replay is always JSON.
     */
    private static StoredResponse response(
            PrimaryKey key, Map<String, AttributeValue> item, Map<String, String> headers) {
        long status = Items.number(item, Items.RESPONSE_STATUS);
        if (status < 200 || status > 299) {
            throw new UndecodableItemException(key, Items.RESPONSE_STATUS + " is not a 2xx, the only kind kept");
        }
        String location = headers.get("location");
        if (location != null
                && !location.matches("^/workspaces/[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:/projects/[0-9A-Z]{26})?$")) {
            throw new UndecodableItemException(key, Items.RESPONSE_HEADERS + " holds a Location the API never sets");
        }
        String etag = headers.get("etag");
        if (etag != null && !etag.matches("^\"[1-9][0-9]{0,18}\"$")) {
            throw new UndecodableItemException(key, Items.RESPONSE_HEADERS + " holds an ETag the API never sets");
        }
        String body = Items.string(item, Items.RESPONSE_BODY);
        try {
            Json.readObject(body);
        } catch (RuntimeException e) {
            throw new UndecodableItemException(key, Items.RESPONSE_BODY + " is not a JSON object");
        }
        return new StoredResponse((int) status, headers, body);
    }

    private static Map<String, String> headers(PrimaryKey key, AttributeValue value) {
        if (value == null || !value.hasM()) {
            throw new UndecodableItemException(key, Items.RESPONSE_HEADERS + " is missing or not a map");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        value.m().forEach((name, header) -> {
            if (!name.equals(name.toLowerCase(java.util.Locale.ROOT))) {
                // The API keeps header names in lower case; a record that does not was not written by it.
                throw new UndecodableItemException(key, Items.RESPONSE_HEADERS + " holds a name not in lower case");
            }
            if (header.s() == null) {
                throw new UndecodableItemException(key, Items.RESPONSE_HEADERS + " holds a value that is not a string");
            }
            headers.put(name, header.s());
        });
        return headers;
    }

    /**
     * Why this record's response is not one a create in {@code workspaceId} answered, or empty when it is: its
     * Location must name that workspace (the workspace itself, or a project in it), its body's {@code id} must be
     * the one the Location names, and a {@code workspaceId} in its body must be that workspace. The key hash binds
     * a record to its workspace and route, but not what it holds: a record written by hand or imported could
     * otherwise answer one workspace's POST with another's resource. Every replay checks it against the
     * request's workspace, and an import against the record's own partition.
     */
    public Optional<String> answersAnotherThan(WorkspaceId workspaceId) {
        if (response.isEmpty()) {
            return Optional.empty();
        }
        String own = "/workspaces/" + workspaceId.value();
        String location = response.get().headers().get("location");
        if (location == null || !(location.equals(own) || location.startsWith(own + "/"))) {
            return Optional.of(Items.RESPONSE_HEADERS + " holds no Location in the record's own workspace");
        }
        Map<String, Object> body = Json.readObject(response.get().body());
        if (!(body.get("id") instanceof String id) || !location.endsWith("/" + id)) {
            return Optional.of(Items.RESPONSE_BODY + " holds no id, or not the one its Location names");
        }
        Object bodyWorkspace = body.get("workspaceId");
        if (bodyWorkspace != null && !bodyWorkspace.equals(workspaceId.value())) {
            return Optional.of(Items.RESPONSE_BODY + " names another workspace than the record's own");
        }
        return Optional.empty();
    }

    /**
     * Why this record is not one the API could have written as it stands, where decoding alone let it pass: an
     * attribute the record's state does not have, or a stored header the API never stores. Empty when it could.
     */
    public Optional<String> notAsWritten(Map<String, AttributeValue> item) {
        Optional<String> outside = Items.attributeOutside(item, completed ? COMPLETED : CLAIMED);
        if (outside.isPresent()) {
            return Optional.of((completed ? "a completed" : "an in-progress") + " idempotency record has no attribute "
                    + outside.get());
        }
        String contentType = storedHeaders.get("content-type");
        if (contentType != null && !contentType.equals("application/json")) {
            // A replay says JSON whatever the record holds; an import still refuses a record the API never wrote.
            return Optional.of(Items.RESPONSE_HEADERS + " names a content type other than JSON");
        }
        return storedHeaders.keySet().stream()
                .filter(name -> !STORED_HEADERS.contains(name))
                .findFirst()
                .map(name -> Items.RESPONSE_HEADERS + " holds " + name + ", a header the API never stores");
    }
}
