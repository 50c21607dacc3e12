package dev.oneread.local.expr;

import dev.oneread.json.Json;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Prints a {@link QueryRequest} three ways: the expression and its two maps, a ready-to-paste AWS SDK for
 * Java v2 snippet, and the equivalent {@code aws dynamodb query} command line, single-quoted for a POSIX
 * shell. It prints the request object itself, so what it shows is what was built.
 */
public final class RequestPrinter {
    private static final int LABEL_WIDTH = 27;
    /**
     * A local engine checks neither region nor credentials, but the SDK and the CLI refuse to send without them:
     * fixed ones make a local snippet run on a machine with no AWS configuration at all.
     */
    private static final String LOCAL_REGION = "us-east-1";

    private static final String LOCAL_KEY = "local";

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

    /** The snippet for the deployed table: it sends with {@code DynamoDbClient dynamoDb}, the caller's client. */
    public static List<String> javaSnippet(QueryRequest request) {
        return javaSnippet(request, Optional.empty());
    }

    /**
     * Imports, then statements that build the request and send it: with the caller's {@code DynamoDbClient
     * dynamoDb} for the deployed table, or with one they declare for {@code engine}, a local engine.
     */
    public static List<String> javaSnippet(QueryRequest request, Optional<URI> engine) {
        List<String> lines = new ArrayList<>();
        if (engine.isPresent()) {
            lines.add("import java.net.URI;");
        }
        lines.add("import java.util.Map;");
        if (engine.isPresent()) {
            lines.add("import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;");
            lines.add("import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;");
            lines.add("import software.amazon.awssdk.regions.Region;");
        }
        lines.addAll(List.of(
                "import software.amazon.awssdk.services.dynamodb.DynamoDbClient;",
                "import software.amazon.awssdk.services.dynamodb.model.AttributeValue;",
                "import software.amazon.awssdk.services.dynamodb.model.QueryRequest;",
                "import software.amazon.awssdk.services.dynamodb.model.QueryResponse;",
                "import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;"));
        if (engine.isPresent()) {
            lines.addAll(List.of(
                    "// the local engine, which takes any region and credentials",
                    "DynamoDbClient dynamoDb = DynamoDbClient.builder()",
                    "        .endpointOverride(URI.create("
                            + javaString(engine.get().toString()) + "))",
                    "        .region(Region.of(" + javaString(LOCAL_REGION) + "))",
                    "        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("
                            + javaString(LOCAL_KEY) + ", " + javaString(LOCAL_KEY) + ")))",
                    "        .build();"));
        } else {
            lines.add("// dynamoDb: your DynamoDbClient");
        }
        lines.add("QueryRequest request = QueryRequest.builder()");
        lines.add("        .tableName(" + javaString(request.tableName()) + ")");
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

    /** The command line for the deployed table: the CLI's own configuration picks account and region. */
    public static List<String> awsCli(QueryRequest request) {
        return awsCli(request, Optional.empty());
    }

    /**
     * {@code aws dynamodb query ...}, one option a line, every argument single-quoted where needed; for a local
     * {@code engine}, its endpoint, a region, and credentials set for this one command.
     */
    public static List<String> awsCli(QueryRequest request, Optional<URI> engine) {
        List<String> options = new ArrayList<>();
        engine.ifPresent(uri -> {
            options.add("--endpoint-url " + shellQuote(uri.toString()));
            options.add("--region " + LOCAL_REGION);
        });
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
        lines.add((engine.isPresent()
                        ? "AWS_ACCESS_KEY_ID=" + LOCAL_KEY + " AWS_SECRET_ACCESS_KEY=" + LOCAL_KEY + " "
                        : "")
                + "aws dynamodb query \\");
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
