package dev.oneread.local.expr;

import dev.oneread.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Prints a {@link QueryRequest} three ways: the expression and its two maps, a ready-to-paste AWS SDK for
 * Java v2 snippet, and the equivalent {@code aws dynamodb query} command line, single-quoted for a POSIX
 * shell. It prints the request object itself, so what it shows is what was built.
 */
public final class RequestPrinter {
    private static final int LABEL_WIDTH = 27;

    private RequestPrinter() {}

    /** The three lines: KeyConditionExpression, ExpressionAttributeNames, ExpressionAttributeValues. */
    public static List<String> expressionLines(QueryRequest request) {
        List<String> names = new ArrayList<>();
        request.expressionAttributeNames().forEach((k, v) -> names.add(jsonString(k) + ": " + jsonString(v)));
        List<String> values = new ArrayList<>();
        request.expressionAttributeValues().forEach((k, v) -> values.add(jsonString(k) + ": " + plain(v)));
        List<String> lines = new ArrayList<>();
        if (request.indexName() != null) {
            lines.add(label("IndexName") + jsonString(request.indexName()));
        }
        lines.add(label("KeyConditionExpression") + jsonString(request.keyConditionExpression()));
        lines.add(label("ExpressionAttributeNames") + braces(names));
        lines.add(label("ExpressionAttributeValues") + braces(values));
        return lines;
    }

    /** Imports, then statements that build the request and send it with a {@code DynamoDbClient dynamoDb}. */
    public static List<String> javaSnippet(QueryRequest request) {
        List<String> lines = new ArrayList<>(List.of(
                "import java.util.Map;",
                "import software.amazon.awssdk.services.dynamodb.DynamoDbClient;",
                "import software.amazon.awssdk.services.dynamodb.model.AttributeValue;",
                "import software.amazon.awssdk.services.dynamodb.model.QueryRequest;",
                "import software.amazon.awssdk.services.dynamodb.model.QueryResponse;",
                "import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;",
                "// dynamoDb: your DynamoDbClient",
                "QueryRequest request = QueryRequest.builder()",
                "        .tableName(" + javaString(request.tableName()) + ")"));
        if (request.indexName() != null) {
            lines.add("        .indexName(" + javaString(request.indexName()) + ")");
        }
        lines.add("        .keyConditionExpression(" + javaString(request.keyConditionExpression()) + ")");
        lines.add("        .expressionAttributeNames(Map.of("
                + mapEntries(request.expressionAttributeNames(), RequestPrinter::javaString) + "))");
        if (request.hasExpressionAttributeValues()) {
            lines.add("        .expressionAttributeValues(Map.of("
                    + mapEntries(request.expressionAttributeValues(), RequestPrinter::javaValue) + "))");
        }
        if (request.scanIndexForward() != null) {
            lines.add("        .scanIndexForward(" + request.scanIndexForward() + ")");
        }
        if (request.limit() != null) {
            lines.add("        .limit(" + request.limit() + ")");
        }
        if (request.returnConsumedCapacity() != null) {
            lines.add("        .returnConsumedCapacity(ReturnConsumedCapacity."
                    + request.returnConsumedCapacity().name() + ")");
        }
        lines.add("        .build();");
        lines.add("QueryResponse response = dynamoDb.query(request);");
        return String.join("\n", lines).lines().toList(); // map entries span several lines
    }

    /** {@code aws dynamodb query ...}, one option a line, every argument single-quoted where needed. */
    public static List<String> awsCli(QueryRequest request) {
        List<String> options = new ArrayList<>();
        options.add("--table-name " + shellQuote(request.tableName()));
        if (request.indexName() != null) {
            options.add("--index-name " + shellQuote(request.indexName()));
        }
        options.add("--key-condition-expression " + shellQuote(request.keyConditionExpression()));
        List<String> names = new ArrayList<>();
        request.expressionAttributeNames().forEach((k, v) -> names.add(jsonString(k) + ":" + jsonString(v)));
        options.add("--expression-attribute-names " + shellQuote("{" + String.join(",", names) + "}"));
        if (request.hasExpressionAttributeValues()) {
            List<String> values = new ArrayList<>();
            request.expressionAttributeValues().forEach((k, v) -> values.add(jsonString(k) + ":" + typed(v)));
            options.add("--expression-attribute-values " + shellQuote("{" + String.join(",", values) + "}"));
        }
        if (Boolean.FALSE.equals(request.scanIndexForward())) {
            options.add("--no-scan-index-forward");
        }
        if (request.limit() != null) {
            options.add("--limit " + request.limit());
        }
        if (request.returnConsumedCapacity() != null) {
            options.add("--return-consumed-capacity "
                    + request.returnConsumedCapacity().toString());
        }
        List<String> lines = new ArrayList<>();
        lines.add("aws dynamodb query \\");
        for (int i = 0; i < options.size(); i++) {
            lines.add("    " + options.get(i) + (i < options.size() - 1 ? " \\" : ""));
        }
        return lines;
    }

    /** POSIX single quoting: safe for every character, a literal quote becomes '\''. */
    public static String shellQuote(String value) {
        if (value.matches("[A-Za-z0-9_./:=@%+,-]+")) {
            return value;
        }
        return "'" + value.replace("'", "'\\''") + "'";
    }

    private static String label(String name) {
        return name + " ".repeat(Math.max(1, LABEL_WIDTH - name.length()));
    }

    private static String braces(List<String> entries) {
        return entries.isEmpty() ? "{ }" : "{ " + String.join(", ", entries) + " }";
    }

    private static <V> String mapEntries(Map<String, V> map, java.util.function.Function<V, String> render) {
        List<String> entries = new ArrayList<>();
        map.forEach((k, v) -> entries.add("\n                " + javaString(k) + ", " + render.apply(v)));
        return String.join(",", entries);
    }

    private static String plain(AttributeValue value) {
        return switch (value.type()) {
            case S -> jsonString(value.s());
            case N -> value.n();
            case BOOL -> value.bool().toString();
            default -> typed(value);
        };
    }

    private static String typed(AttributeValue value) {
        return switch (value.type()) {
            case S -> Json.write(Map.of("S", value.s()));
            case N -> Json.write(Map.of("N", value.n()));
            case BOOL -> Json.write(Map.of("BOOL", value.bool()));
            default -> throw new IllegalArgumentException("key values are strings, numbers or booleans");
        };
    }

    private static String javaValue(AttributeValue value) {
        return switch (value.type()) {
            case S -> "AttributeValue.fromS(" + javaString(value.s()) + ")";
            case N -> "AttributeValue.fromN(" + javaString(value.n()) + ")";
            case BOOL -> "AttributeValue.fromBool(" + value.bool() + ")";
            default -> throw new IllegalArgumentException("key values are strings, numbers or booleans");
        };
    }

    /** A JSON string literal, escaped by the project's one JSON writer. */
    static String jsonString(String s) {
        return Json.write(s);
    }

    /** A Java string literal (not JSON: Java source wants non-ASCII as unicode escapes). */
    static String javaString(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
