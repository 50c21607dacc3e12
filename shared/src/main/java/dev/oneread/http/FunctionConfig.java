package dev.oneread.http;

import dev.oneread.store.FunctionEnvironment;
import java.util.Map;

/**
 * What a function reads from its environment (set in template.yaml): the table, and whether responses
 * carry the {@code X-Dynamo-*} read audit headers.
 */
public record FunctionConfig(String functionName, String tableName, boolean readAudit) {

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
                Boolean.parseBoolean(environment.getOrDefault("READ_AUDIT", "false")));
    }
}
