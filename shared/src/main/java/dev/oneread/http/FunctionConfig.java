package dev.oneread.http;

import dev.oneread.keys.ShardPlan;
import dev.oneread.store.FunctionEnvironment;
import java.util.Map;

/**
 * What a function reads from its environment (set in template.yaml): the table, whether responses carry the
 * {@code X-Dynamo-*} read audit headers, and the key that seals pagination cursors.
 */
public record FunctionConfig(
        String functionName, String tableName, boolean readAudit, byte[] cursorKey, ShardPlan shardPlan) {

    /** A function of a deployment without hot tenants. */
    public FunctionConfig(String functionName, String tableName, boolean readAudit, byte[] cursorKey) {
        this(functionName, tableName, readAudit, cursorKey, ShardPlan.none());
    }

    public static FunctionConfig fromEnvironment(String defaultFunctionName) {
        return from(FunctionEnvironment.get(), defaultFunctionName);
    }

    public static FunctionConfig from(Map<String, String> environment, String defaultFunctionName) {
        String table = environment.get("TABLE_NAME");
        if (table == null || table.isBlank()) {
            throw new IllegalStateException("TABLE_NAME is not set");
        }
        return new FunctionConfig(
                environment.getOrDefault("AWS_LAMBDA_FUNCTION_NAME", defaultFunctionName),
                table,
                Boolean.parseBoolean(environment.getOrDefault("READ_AUDIT", "false")),
                cursorKey(environment.get("CURSOR_KEY")),
                ShardPlan.parse(
                        environment.getOrDefault("HOT_TENANT_SHARDS", ""),
                        environment.getOrDefault("HOT_TENANT_MIGRATING", "")));
    }

    /** CURSOR_KEY is base64 of 32 random bytes; without it (or with a bad one) lists cannot page: fail at init. */
    private static byte[] cursorKey(String base64) {
        if (base64 == null || base64.isBlank()) {
            return null;
        }
        try {
            byte[] key = java.util.Base64.getDecoder().decode(base64.strip());
            if (key.length != 32) {
                throw new IllegalStateException("CURSOR_KEY must be base64 of 32 bytes");
            }
            return key;
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("CURSOR_KEY is not base64");
        }
    }
}
