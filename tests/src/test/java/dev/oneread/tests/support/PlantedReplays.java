package dev.oneread.tests.support;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.WorkspaceId;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A completed idempotency record written straight into the table, as a hand-written item on AWS or an imported one
 * would be: the key the API would find for this caller, route, workspace and Idempotency-Key, with a stored response
 * of the test's choosing. The hash is derived here again (not borrowed from the store), so a test also pins the
 * record's key scheme.
 */
public final class PlantedReplays {
    /** The holder a completed record keeps: any 22 characters (a claim's id), no longer checked once completed. */
    private static final String HOLDER = "AAAAAAAAAAAAAAAAAAAAAA";

    /** The stored response a replay would send: status, headers (lower-case names) and body. */
    public record StoredResponse(int status, Map<String, String> headers, String body) {}

    private PlantedReplays() {}

    /**
     * @param caller the token's subject
     * @param routeKey the route as API Gateway names it, {@code "POST /workspaces/{workspaceId}/projects"}
     * @param requestBody the body the replaying request sends (its hash is the record's payload hash)
     */
    public static Map<String, AttributeValue> completed(
            String caller, String routeKey, String ws, String key, String requestBody, StoredResponse response) {
        PrimaryKey primary =
                KeyCodec.idempotencyKey(WorkspaceId.of(ws), sha256(String.join("\n", caller, routeKey, ws, key)));
        Map<String, AttributeValue> headers = new LinkedHashMap<>();
        response.headers().forEach((name, value) -> headers.put(name, AttributeValue.fromS(value)));
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("EntityRef", AttributeValue.fromS(primary.partition()));
        item.put("Detail", AttributeValue.fromS(primary.sort()));
        item.put("status", AttributeValue.fromS("COMPLETED"));
        item.put("payloadHash", AttributeValue.fromS(sha256(requestBody)));
        item.put("holder", AttributeValue.fromS(HOLDER));
        item.put(
                "inProgressUntil",
                AttributeValue.fromN(Long.toString(Instant.now().toEpochMilli())));
        item.put(
                "expiresAt",
                AttributeValue.fromN(
                        Long.toString(Instant.now().plusSeconds(3600).getEpochSecond())));
        item.put("responseStatus", AttributeValue.fromN(Integer.toString(response.status())));
        item.put("responseHeaders", AttributeValue.fromM(headers));
        item.put("responseBody", AttributeValue.fromS(response.body()));
        return item;
    }

    public static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
