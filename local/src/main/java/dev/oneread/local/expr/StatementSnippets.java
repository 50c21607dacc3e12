package dev.oneread.local.expr;

import dev.oneread.json.Json;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A page of a PartiQL SELECT as four programs that run as pasted, as {@link PageSnippets} prints a Scan or Query's:
 * one ExecuteStatement with the page's Limit (and its NextToken, for a page after the first), its items printed one
 * a line, then its NextToken (or "end") and capacity on standard error.
 *
 * <pre>{@code StatementSnippets.all("SELECT * FROM \"oneread\" WHERE \"EntityRef\" = 'WS#acme'", 25, null, engine)}</pre>
 */
public final class StatementSnippets {
    private StatementSnippets() {}

    /** All four, by the names the console's page shows them under. */
    public static Map<String, String> all(String statement, int limit, String nextToken, Optional<URI> engine) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("java", java(statement, limit, nextToken, engine));
        out.put("cli", cli(statement, limit, nextToken, engine));
        out.put("python", python(statement, limit, nextToken, engine));
        out.put("javascript", javascript(statement, limit, nextToken, engine));
        return out;
    }

    private static String java(String statement, int limit, String nextToken, Optional<URI> engine) {
        List<String> l = new ArrayList<>();
        l.add("import java.util.TreeMap;");
        l.addAll(PageSnippets.javaClientImports(engine));
        l.add("import software.amazon.awssdk.services.dynamodb.DynamoDbClient;");
        l.add("import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementRequest;");
        l.add("import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;");
        l.add("import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;");
        l.add("");
        l.add("/** One page of a PartiQL SELECT: one ExecuteStatement of Limit " + limit + ". */");
        l.add("public class StatementPage {");
        l.add("    public static void main(String[] args) {");
        l.addAll(PageSnippets.javaClient(engine));
        l.add(
                "        ExecuteStatementResponse response = dynamoDb.executeStatement(ExecuteStatementRequest.builder()");
        l.add("                .statement(" + RequestPrinter.javaString(statement) + ")");
        l.add("                .limit(" + limit + ")");
        if (nextToken != null) {
            l.add("                .nextToken(" + RequestPrinter.javaString(nextToken) + ")");
        }
        l.add("                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)");
        l.add("                .build());");
        l.add("        response.items().forEach(item -> System.out.println(new TreeMap<>(item)));");
        l.add("        System.err.println(\"next: \" + (response.nextToken() == null ? \"end\" : response.nextToken())"
                + " + \", \" + response.consumedCapacity().capacityUnits() + \" capacity units\");");
        l.add("    }");
        l.add("}");
        return String.join("\n", l) + "\n";
    }

    private static String cli(String statement, int limit, String nextToken, Optional<URI> engine) {
        List<String> l = new ArrayList<>();
        l.add("#!/usr/bin/env bash");
        l.add(
                "# One page of a PartiQL SELECT. Needs the aws CLI and jq. Prints the items, one a line, then the figures on"
                        + " stderr.");
        l.add("set -euo pipefail");
        if (engine.isPresent()) {
            l.add("# the local engine, which takes any credentials");
            l.add("export AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local");
        }
        l.add("response=$(aws dynamodb execute-statement \\");
        engine.ifPresent(uri -> {
            l.add("    --endpoint-url " + RequestPrinter.shellQuote(uri.toString()) + " \\");
            l.add("    --region us-east-1 \\");
        });
        l.add("    --statement " + RequestPrinter.shellQuote(statement) + " \\");
        l.add("    --limit " + limit + " \\");
        if (nextToken != null) {
            l.add("    --next-token " + RequestPrinter.shellQuote(nextToken) + " \\");
        }
        l.add("    --return-consumed-capacity TOTAL \\");
        l.add("    --output json)");
        l.add("jq -c '.Items[]' <<<\"$response\"");
        l.add("echo \"next: $(jq -r '.NextToken // \"end\"' <<<\"$response\"),"
                + " $(jq '.ConsumedCapacity.CapacityUnits' <<<\"$response\") capacity units\" >&2");
        return String.join("\n", l) + "\n";
    }

    private static String python(String statement, int limit, String nextToken, Optional<URI> engine) {
        List<String> l = new ArrayList<>();
        l.add("# One page of a PartiQL SELECT. Prints the items, one a line, then the figures on stderr.");
        l.add("import json");
        l.add("import sys");
        l.add("");
        l.add("import boto3");
        l.add("");
        l.addAll(PageSnippets.pythonClient(engine));
        l.add("response = dynamodb.execute_statement(");
        l.add("    Statement=" + Json.write(statement) + ",");
        l.add("    Limit=" + limit + ",");
        if (nextToken != null) {
            l.add("    NextToken=" + Json.write(nextToken) + ",");
        }
        l.add("    ReturnConsumedCapacity=\"TOTAL\",");
        l.add(")");
        l.add("for item in response[\"Items\"]:");
        l.add("    print(json.dumps(item, sort_keys=True))");
        l.add("print(f\"next: {response.get('NextToken', 'end')}, {response['ConsumedCapacity']['CapacityUnits']}"
                + " capacity units\", file=sys.stderr)");
        return String.join("\n", l) + "\n";
    }

    private static String javascript(String statement, int limit, String nextToken, Optional<URI> engine) {
        List<String> l = new ArrayList<>();
        l.add(
                "// One page of a PartiQL SELECT, an ES module (save as statement.mjs). Prints the items, one a line, then"
                        + " the figures on stderr.");
        l.add("import { DynamoDBClient, ExecuteStatementCommand } from '@aws-sdk/client-dynamodb';");
        l.add("");
        l.addAll(PageSnippets.javascriptClient(engine));
        l.add("const response = await dynamodb.send(new ExecuteStatementCommand({");
        l.add("  Statement: " + Json.write(statement) + ",");
        l.add("  Limit: " + limit + ",");
        if (nextToken != null) {
            l.add("  NextToken: " + Json.write(nextToken) + ",");
        }
        l.add("  ReturnConsumedCapacity: 'TOTAL',");
        l.add("}));");
        l.add("for (const item of response.Items) console.log(JSON.stringify(item));");
        l.add("console.error(`next: ${response.NextToken ?? 'end'}, ${response.ConsumedCapacity.CapacityUnits} capacity"
                + " units`);");
        l.add("dynamodb.destroy();");
        return String.join("\n", l) + "\n";
    }
}
