package dev.oneread.local.expr;

import dev.oneread.json.Json;
import dev.oneread.store.items.DynamoJson;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/**
 * A page of a Scan or Query as four programs that run as pasted, in Java (SDK v2, a single-file program for the
 * {@code java} launcher), the aws CLI (bash, with jq), Python (boto3) and JavaScript (SDK v3, an ES module): each
 * makes the calls the console made, by the same rule, and prints the page's items, one a line, then its figures on
 * standard error. The request's expressions are printed as the expression builder wrote them, placeholders and all.
 *
 * <p>The rule, {@link #RULE}: each call's Limit is the matches still wanted, doubled at each call (so an unfiltered
 * page is one call, and a 1% filter needs a handful), never more than the budget's items left; the calls stop when
 * the page is full, when the budget of items read is spent, or at the end of the table or partition. A call that
 * brings more matches than the page wants keeps the first ones; the next page starts after the last item kept.
 *
 * <pre>{@code PageSnippets.Page page = PageSnippets.Page.of(scan, 25, 5_000, null);
 * String python = PageSnippets.python(page, Optional.of(URI.create("http://127.0.0.1:8000")));}</pre>
 */
public final class PageSnippets {
    /** The fill rule in a sentence: what each snippet says of itself, and the console beside its figures. */
    public static final String RULE = "each call's Limit is the matches still wanted, doubled at each call, at most the"
            + " budget's items left; the calls stop when the page is full, the budget is spent, or at the end";

    /** Past 2^30 the doubled Limit is above any budget: the shift stops there, so no language overflows. */
    private static final int MAX_DOUBLINGS = 30;

    private static final String LOCAL_REGION = "us-east-1";
    private static final String LOCAL_KEY = "local";

    private PageSnippets() {}

    /**
     * A read to print: the operation ({@code Query} or {@code Scan}), its request's parts, the page's limit of
     * matches, the budget of items read and where it starts (null: at the beginning).
     */
    public record Page(
            String operation,
            String table,
            String index,
            String keyCondition,
            String filter,
            String projection,
            Map<String, String> names,
            Map<String, AttributeValue> values,
            Boolean forward,
            int limit,
            int budget,
            Map<String, AttributeValue> start) {

        public static Page of(QueryRequest q, int limit, int budget, Map<String, AttributeValue> start) {
            return new Page(
                    "Query",
                    q.tableName(),
                    q.indexName(),
                    q.keyConditionExpression(),
                    q.filterExpression(),
                    q.projectionExpression(),
                    q.hasExpressionAttributeNames() ? q.expressionAttributeNames() : null,
                    q.hasExpressionAttributeValues() ? q.expressionAttributeValues() : null,
                    q.scanIndexForward(),
                    limit,
                    budget,
                    start);
        }

        public static Page of(ScanRequest s, int limit, int budget, Map<String, AttributeValue> start) {
            return new Page(
                    "Scan",
                    s.tableName(),
                    s.indexName(),
                    null,
                    s.filterExpression(),
                    s.projectionExpression(),
                    s.hasExpressionAttributeNames() ? s.expressionAttributeNames() : null,
                    s.hasExpressionAttributeValues() ? s.expressionAttributeValues() : null,
                    null,
                    limit,
                    budget,
                    start);
        }

        private boolean query() {
            return operation.equals("Query");
        }

        /** The request's members in DynamoDB's own names, as boto3 and the SDK v3 take them; absent ones left out. */
        private List<Map.Entry<String, Object>> members() {
            List<Map.Entry<String, Object>> out = new ArrayList<>();
            out.add(Map.entry("TableName", table));
            add(out, "IndexName", index);
            add(out, "KeyConditionExpression", keyCondition);
            add(out, "FilterExpression", filter);
            add(out, "ProjectionExpression", projection);
            add(out, "ExpressionAttributeNames", names);
            add(out, "ExpressionAttributeValues", values == null ? null : DynamoJson.item(values));
            add(out, "ScanIndexForward", forward);
            out.add(Map.entry("ReturnConsumedCapacity", "TOTAL"));
            return out;
        }

        private static void add(List<Map.Entry<String, Object>> out, String name, Object value) {
            if (value != null) {
                out.add(Map.entry(name, value));
            }
        }
    }

    /** All four, by the names the console's page shows them under. */
    public static Map<String, String> all(Page page, Optional<URI> engine) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        out.put("java", java(page, engine));
        out.put("cli", cli(page, engine));
        out.put("python", python(page, engine));
        out.put("javascript", javascript(page, engine));
        return out;
    }

    private static String comment(Page page) {
        return "One page of " + page.operation() + ": up to " + page.limit() + " matches, at most " + page.budget()
                + " items read. " + RULE + ".";
    }

    // ---- Java ---------------------------------------------------------------------------------------------------

    /** A single-file program: {@code java -cp <the SDK's jars> QueryPage.java}. */
    public static String java(Page page, Optional<URI> engine) {
        String op = page.operation();
        List<String> l = new ArrayList<>();
        l.add("import java.util.ArrayList;");
        l.add("import java.util.List;");
        l.add("import java.util.Map;");
        l.add("import java.util.TreeMap;");
        l.addAll(javaClientImports(engine));
        l.add("import software.amazon.awssdk.services.dynamodb.DynamoDbClient;");
        l.add("import software.amazon.awssdk.services.dynamodb.model.AttributeValue;");
        l.add("import software.amazon.awssdk.services.dynamodb.model." + op + "Request;");
        l.add("import software.amazon.awssdk.services.dynamodb.model." + op + "Response;");
        l.add("import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;");
        l.add("");
        l.add("/** " + comment(page) + " */");
        l.add("public class " + op + "Page {");
        l.add("    public static void main(String[] args) {");
        l.addAll(javaClient(engine));
        l.add("        " + op + "Request request = " + op + "Request.builder()");
        l.add("                .tableName(" + RequestPrinter.javaString(page.table()) + ")");
        if (page.index() != null) {
            l.add("                .indexName(" + RequestPrinter.javaString(page.index()) + ")");
        }
        if (page.keyCondition() != null) {
            l.add("                .keyConditionExpression(" + RequestPrinter.javaString(page.keyCondition()) + ")");
        }
        if (page.filter() != null) {
            l.add("                .filterExpression(" + RequestPrinter.javaString(page.filter()) + ")");
        }
        if (page.projection() != null) {
            l.add("                .projectionExpression(" + RequestPrinter.javaString(page.projection()) + ")");
        }
        if (page.names() != null) {
            l.add("                .expressionAttributeNames(Map.of("
                    + javaEntries(page.names(), RequestPrinter::javaString) + "))");
        }
        if (page.values() != null) {
            l.add("                .expressionAttributeValues(Map.of("
                    + javaEntries(page.values(), PageSnippets::javaValue) + "))");
        }
        if (page.forward() != null) {
            l.add("                .scanIndexForward(" + page.forward() + ")");
        }
        l.add("                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)");
        l.add("                .build();");
        l.add("        int pageLimit = " + page.limit() + "; // matches");
        l.add("        int budget = " + page.budget() + "; // items read");
        l.add("        Map<String, AttributeValue> start = "
                + (page.start() == null ? "null" : "Map.of(" + javaEntries(page.start(), PageSnippets::javaValue) + ")")
                + ";");
        l.add("        List<Map<String, AttributeValue>> items = new ArrayList<>();");
        l.add("        int calls = 0;");
        l.add("        int read = 0;");
        l.add("        double consumed = 0;");
        l.add("        String stopped;");
        l.add("        while (true) {");
        l.add("            // Limit counts the items read, before the filter");
        l.add(
                "            int limit = (int) Math.min(budget - read, (long) (pageLimit - items.size()) << Math.min(calls, "
                        + MAX_DOUBLINGS + "));");
        l.add("            " + op + "Response response = dynamoDb." + op.toLowerCase(java.util.Locale.ROOT)
                + "(request.toBuilder().limit(limit).exclusiveStartKey(start).build());");
        l.add("            calls++;");
        l.add("            read += response.scannedCount();");
        l.add("            consumed += response.consumedCapacity().capacityUnits();");
        l.add("            int wanted = pageLimit - items.size();");
        l.add("            items.addAll(response.items().subList(0, Math.min(wanted, response.items().size())));");
        l.add("            if (response.items().size() > wanted) {");
        l.add("                stopped = \"page full\"; // the next page starts after the last item kept");
        l.add("                break;");
        l.add("            }");
        l.add("            if (!response.hasLastEvaluatedKey() || response.lastEvaluatedKey().isEmpty()) {");
        l.add("                stopped = \"end\";");
        l.add("                break;");
        l.add("            }");
        l.add("            start = response.lastEvaluatedKey();");
        l.add("            if (items.size() == pageLimit) {");
        l.add("                stopped = \"page full\";");
        l.add("                break;");
        l.add("            }");
        l.add("            if (read >= budget) {");
        l.add("                stopped = \"budget spent\";");
        l.add("                break;");
        l.add("            }");
        l.add("        }");
        l.add("        items.forEach(item -> System.out.println(new TreeMap<>(item)));");
        l.add("        System.err.println(items.size() + \" items, \" + calls + \" calls, \" + read + \" items read, \""
                + " + consumed + \" capacity units, stopped: \" + stopped);");
        l.add("    }");
        l.add("}");
        return String.join("\n", l) + "\n";
    }

    /** The imports {@link #javaClient} needs beyond the client's own. */
    static List<String> javaClientImports(Optional<URI> engine) {
        List<String> l = new ArrayList<>();
        if (engine.isPresent()) {
            l.add("import java.net.URI;");
            l.add("import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;");
            l.add("import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;");
            l.add("import software.amazon.awssdk.regions.Region;");
        }
        return l;
    }

    /** Statements of a {@code main} that declare {@code DynamoDbClient dynamoDb}: of the engine, or the default one. */
    static List<String> javaClient(Optional<URI> engine) {
        List<String> l = new ArrayList<>();
        if (engine.isPresent()) {
            l.add("        // the local engine, which takes any region and credentials");
            l.add("        DynamoDbClient dynamoDb = DynamoDbClient.builder()");
            l.add("                .endpointOverride(URI.create("
                    + RequestPrinter.javaString(engine.get().toString()) + "))");
            l.add("                .region(Region.of(" + RequestPrinter.javaString(LOCAL_REGION) + "))");
            l.add("                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("
                    + RequestPrinter.javaString(LOCAL_KEY) + ", " + RequestPrinter.javaString(LOCAL_KEY) + ")))");
            l.add("                .build();");
        } else {
            l.add("        // the deployed table: region and credentials from your AWS configuration");
            l.add("        DynamoDbClient dynamoDb = DynamoDbClient.create();");
        }
        return l;
    }

    private static <V> String javaEntries(Map<String, V> map, java.util.function.Function<V, String> render) {
        List<String> entries = new ArrayList<>();
        map.forEach((k, v) ->
                entries.add("\n                        " + RequestPrinter.javaString(k) + ", " + render.apply(v)));
        return String.join(",", entries);
    }

    private static String javaValue(AttributeValue value) {
        return switch (value.type()) {
            case S -> "AttributeValue.fromS(" + RequestPrinter.javaString(value.s()) + ")";
            case N -> "AttributeValue.fromN(" + RequestPrinter.javaString(value.n()) + ")";
            case BOOL -> "AttributeValue.fromBool(" + value.bool() + ")";
            default -> throw new IllegalArgumentException("a read's values are strings, numbers or booleans");
        };
    }

    // ---- aws CLI ------------------------------------------------------------------------------------------------

    /** A bash script around {@code aws dynamodb query|scan}, with jq to read each response. */
    public static String cli(Page page, Optional<URI> engine) {
        String command = page.query() ? "query" : "scan";
        List<String> options = new ArrayList<>();
        engine.ifPresent(uri -> {
            options.add("--endpoint-url " + RequestPrinter.shellQuote(uri.toString()));
            options.add("--region " + LOCAL_REGION);
        });
        options.add("--table-name " + RequestPrinter.shellQuote(page.table()));
        if (page.index() != null) {
            options.add("--index-name " + RequestPrinter.shellQuote(page.index()));
        }
        if (page.keyCondition() != null) {
            options.add("--key-condition-expression " + RequestPrinter.shellQuote(page.keyCondition()));
        }
        if (page.filter() != null) {
            options.add("--filter-expression " + RequestPrinter.shellQuote(page.filter()));
        }
        if (page.projection() != null) {
            options.add("--projection-expression " + RequestPrinter.shellQuote(page.projection()));
        }
        if (page.names() != null) {
            options.add("--expression-attribute-names " + RequestPrinter.shellQuote(Json.write(page.names())));
        }
        if (page.values() != null) {
            options.add("--expression-attribute-values "
                    + RequestPrinter.shellQuote(Json.write(DynamoJson.item(page.values()))));
        }
        if (Boolean.FALSE.equals(page.forward())) {
            options.add("--no-scan-index-forward");
        }
        options.add("--return-consumed-capacity TOTAL");
        options.add("--output json");
        options.add("--limit \"$limit\"");
        options.add("${start:+--exclusive-start-key \"$start\"}");
        List<String> l = new ArrayList<>();
        l.add("#!/usr/bin/env bash");
        l.add("# " + comment(page));
        l.add("# Needs the aws CLI and jq. Prints the items, one a line, then the figures on stderr.");
        l.add("set -euo pipefail");
        if (engine.isPresent()) {
            l.add("# the local engine, which takes any credentials");
            l.add("export AWS_ACCESS_KEY_ID=" + LOCAL_KEY + " AWS_SECRET_ACCESS_KEY=" + LOCAL_KEY);
        }
        l.add("page_limit=" + page.limit() + " # matches");
        l.add("budget=" + page.budget() + " # items read");
        l.add("start="
                + (page.start() == null ? "''" : RequestPrinter.shellQuote(Json.write(DynamoJson.item(page.start())))));
        l.add("kept=0 calls=0 read=0 consumed=0 stopped=''");
        l.add("while :; do");
        l.add("  # Limit counts the items read, before the filter");
        l.add("  limit=$(( (page_limit - kept) << (calls < " + MAX_DOUBLINGS + " ? calls : " + MAX_DOUBLINGS + ") ))");
        l.add("  (( limit <= budget - read )) || limit=$(( budget - read ))");
        l.add("  response=$(aws dynamodb " + command + " \\");
        for (int i = 0; i < options.size(); i++) {
            l.add("      " + options.get(i) + (i < options.size() - 1 ? " \\" : ")"));
        }
        l.add("  calls=$(( calls + 1 ))");
        l.add("  read=$(( read + $(jq '.ScannedCount' <<<\"$response\") ))");
        l.add("  consumed=$(jq -n \"$consumed + $(jq '.ConsumedCapacity.CapacityUnits' <<<\"$response\")\")");
        l.add("  wanted=$(( page_limit - kept ))");
        l.add("  returned=$(jq '.Items | length' <<<\"$response\")");
        l.add("  jq -c \".Items[:$wanted][]\" <<<\"$response\"");
        l.add("  kept=$(( kept + (returned < wanted ? returned : wanted) ))");
        l.add(
                "  if (( returned > wanted )); then stopped='page full'; break; fi # the next page: after the last item kept");
        l.add("  start=$(jq -c '.LastEvaluatedKey // empty' <<<\"$response\")");
        l.add("  if [ -z \"$start\" ]; then stopped='end'; break; fi");
        l.add("  if (( kept == page_limit )); then stopped='page full'; break; fi");
        l.add("  if (( read >= budget )); then stopped='budget spent'; break; fi");
        l.add("done");
        l.add("echo \"$kept items, $calls calls, $read items read, $consumed capacity units, stopped: $stopped\" >&2");
        return String.join("\n", l) + "\n";
    }

    // ---- Python -------------------------------------------------------------------------------------------------

    /** A boto3 script: {@code python3 query_page.py}. */
    public static String python(Page page, Optional<URI> engine) {
        List<String> l = new ArrayList<>();
        l.add("# " + comment(page));
        l.add("# Prints the items, one a line, then the figures on stderr.");
        l.add("import json");
        l.add("import sys");
        l.add("");
        l.add("import boto3");
        l.add("");
        l.addAll(pythonClient(engine));
        l.add("request = {");
        page.members().forEach(m -> l.add("    " + Json.write(m.getKey()) + ": " + python(m.getValue()) + ","));
        l.add("}");
        l.add("page_limit = " + page.limit() + "  # matches");
        l.add("budget = " + page.budget() + "  # items read");
        l.add("start = " + (page.start() == null ? "None" : python(DynamoJson.item(page.start()))));
        l.add("items, calls, read, consumed, stopped = [], 0, 0, 0.0, None");
        l.add("while True:");
        l.add("    # Limit counts the items read, before the filter");
        l.add("    limit = min(budget - read, (page_limit - len(items)) << calls)");
        l.add("    response = dynamodb." + page.operation().toLowerCase(java.util.Locale.ROOT)
                + "(**request, Limit=limit, **({\"ExclusiveStartKey\": start} if start else {}))");
        l.add("    calls += 1");
        l.add("    read += response[\"ScannedCount\"]");
        l.add("    consumed += response[\"ConsumedCapacity\"][\"CapacityUnits\"]");
        l.add("    wanted = page_limit - len(items)");
        l.add("    items += response[\"Items\"][0:wanted]");
        l.add("    if len(response[\"Items\"]) > wanted:");
        l.add("        stopped = \"page full\"  # the next page starts after the last item kept");
        l.add("        break");
        l.add("    start = response.get(\"LastEvaluatedKey\")");
        l.add("    if not start:");
        l.add("        stopped = \"end\"");
        l.add("        break");
        l.add("    if len(items) == page_limit:");
        l.add("        stopped = \"page full\"");
        l.add("        break");
        l.add("    if read >= budget:");
        l.add("        stopped = \"budget spent\"");
        l.add("        break");
        l.add("for item in items:");
        l.add("    print(json.dumps(item, sort_keys=True))");
        l.add("print(f\"{len(items)} items, {calls} calls, {read} items read, {consumed} capacity units,"
                + " stopped: {stopped}\", file=sys.stderr)");
        return String.join("\n", l) + "\n";
    }

    static List<String> pythonClient(Optional<URI> engine) {
        List<String> l = new ArrayList<>();
        if (engine.isPresent()) {
            l.add("# the local engine, which takes any region and credentials");
            l.add("dynamodb = boto3.client(");
            l.add("    \"dynamodb\",");
            l.add("    endpoint_url=" + Json.write(engine.get().toString()) + ",");
            l.add("    region_name=" + Json.write(LOCAL_REGION) + ",");
            l.add("    aws_access_key_id=" + Json.write(LOCAL_KEY) + ",");
            l.add("    aws_secret_access_key=" + Json.write(LOCAL_KEY) + ",");
            l.add(")");
        } else {
            l.add("# the deployed table: region and credentials from your AWS configuration");
            l.add("dynamodb = boto3.client(\"dynamodb\")");
        }
        return l;
    }

    /**
     * The expression builder's one Query, as boto3 sends it: the same request, Limit and all, and its items printed.
     */
    public static String pythonCall(QueryRequest request, Optional<URI> engine) {
        Page page = Page.of(request, request.limit() == null ? 0 : request.limit(), 0, null);
        List<String> l = new ArrayList<>();
        l.add("import json");
        l.add("");
        l.add("import boto3");
        l.add("");
        l.addAll(pythonClient(engine));
        l.add("response = dynamodb.query(");
        page.members().forEach(m -> l.add("    " + m.getKey() + "=" + python(m.getValue()) + ","));
        if (request.limit() != null) {
            l.add("    Limit=" + request.limit() + ",");
        }
        l.add(")");
        l.add("for item in response[\"Items\"]:");
        l.add("    print(json.dumps(item, sort_keys=True))");
        return String.join("\n", l) + "\n";
    }

    /** A JSON value as a Python literal: JSON's strings and numbers are Python's too; true, false and null are not. */
    static String python(Object value) {
        if (value instanceof Map<?, ?> map) {
            List<String> entries = new ArrayList<>();
            map.forEach((k, v) -> entries.add(Json.write(k) + ": " + python(v)));
            return "{" + String.join(", ", entries) + "}";
        } else if (value instanceof List<?> list) {
            return "["
                    + String.join(", ", list.stream().map(PageSnippets::python).toList()) + "]";
        } else if (value instanceof Boolean b) {
            return b ? "True" : "False";
        } else if (value == null) {
            return "None";
        }
        return Json.write(value);
    }

    // ---- JavaScript ---------------------------------------------------------------------------------------------

    /** An ES module for node (top-level await): {@code node query-page.mjs}, with @aws-sdk/client-dynamodb. */
    public static String javascript(Page page, Optional<URI> engine) {
        String command = page.operation() + "Command";
        List<String> l = new ArrayList<>();
        l.add("// " + comment(page));
        l.add("// An ES module (save as page.mjs). Prints the items, one a line, then the figures on stderr.");
        l.add("import { DynamoDBClient, " + command + " } from '@aws-sdk/client-dynamodb';");
        l.add("");
        l.addAll(javascriptClient(engine));
        l.add("const request = {");
        page.members().forEach(m -> l.add("  " + m.getKey() + ": " + Json.write(m.getValue()) + ","));
        l.add("};");
        l.add("const pageLimit = " + page.limit() + "; // matches");
        l.add("const budget = " + page.budget() + "; // items read");
        l.add("let start = " + (page.start() == null ? "undefined" : Json.write(DynamoJson.item(page.start()))) + ";");
        l.add("const items = [];");
        l.add("let calls = 0, read = 0, consumed = 0, stopped;");
        l.add("while (true) {");
        l.add("  // Limit counts the items read, before the filter");
        l.add("  const limit = Math.min(budget - read, (pageLimit - items.length) * 2 ** calls);");
        l.add("  const response = await dynamodb.send(new " + command
                + "({ ...request, Limit: limit, ExclusiveStartKey: start }));");
        l.add("  calls += 1;");
        l.add("  read += response.ScannedCount;");
        l.add("  consumed += response.ConsumedCapacity.CapacityUnits;");
        l.add("  const wanted = pageLimit - items.length;");
        l.add("  items.push(...response.Items.slice(0, wanted));");
        l.add(
                "  if (response.Items.length > wanted) { stopped = 'page full'; break; } // next: after the last item kept");
        l.add("  start = response.LastEvaluatedKey;");
        l.add("  if (!start) { stopped = 'end'; break; }");
        l.add("  if (items.length === pageLimit) { stopped = 'page full'; break; }");
        l.add("  if (read >= budget) { stopped = 'budget spent'; break; }");
        l.add("}");
        l.add("for (const item of items) console.log(JSON.stringify(item));");
        l.add("console.error(`${items.length} items, ${calls} calls, ${read} items read, ${consumed} capacity units,"
                + " stopped: ${stopped}`);");
        l.add("dynamodb.destroy();");
        return String.join("\n", l) + "\n";
    }

    static List<String> javascriptClient(Optional<URI> engine) {
        List<String> l = new ArrayList<>();
        if (engine.isPresent()) {
            l.add("// the local engine, which takes any region and credentials");
            l.add("const dynamodb = new DynamoDBClient({");
            l.add("  endpoint: " + Json.write(engine.get().toString()) + ",");
            l.add("  region: " + Json.write(LOCAL_REGION) + ",");
            l.add("  credentials: { accessKeyId: " + Json.write(LOCAL_KEY) + ", secretAccessKey: "
                    + Json.write(LOCAL_KEY) + " },");
            l.add("});");
        } else {
            l.add("// the deployed table: region and credentials from your AWS configuration");
            l.add("const dynamodb = new DynamoDBClient({});");
        }
        return l;
    }

    /** The expression builder's one Query, as the SDK v3 sends it (an ES module): Limit and all, its items printed. */
    public static String javascriptCall(QueryRequest request, Optional<URI> engine) {
        Page page = Page.of(request, request.limit() == null ? 0 : request.limit(), 0, null);
        List<String> l = new ArrayList<>();
        l.add("// An ES module (save as query.mjs).");
        l.add("import { DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';");
        l.add("");
        l.addAll(javascriptClient(engine));
        l.add("const response = await dynamodb.send(new QueryCommand({");
        page.members().forEach(m -> l.add("  " + m.getKey() + ": " + Json.write(m.getValue()) + ","));
        if (request.limit() != null) {
            l.add("  Limit: " + request.limit() + ",");
        }
        l.add("}));");
        l.add("for (const item of response.Items) console.log(JSON.stringify(item));");
        l.add("dynamodb.destroy();");
        return String.join("\n", l) + "\n";
    }
}
