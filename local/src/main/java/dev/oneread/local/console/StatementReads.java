package dev.oneread.local.console;

import dev.oneread.local.expr.StatementSnippets;
import dev.oneread.store.items.DynamoJson;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * The table tools' PartiQL tab: a SELECT, a page at a time (one ExecuteStatement of the page's Limit, Next with its
 * NextToken), answered by the engine's guard as DynamoDB answers it (decision 0004). Only SELECT: the console writes
 * through its checked endpoints, which keep to what the API could have written; an INSERT, UPDATE or DELETE here
 * would skip those checks. The statement is the user's own text: the console writes no expression into it.
 *
 * <pre>{@code {"statement": "SELECT * FROM \"oneread\" WHERE \"EntityRef\" = 'WS#acme'", "limit": 25}}</pre>
 */
final class StatementReads {
    /** DynamoDB's longest statement. */
    private static final int MAX_STATEMENT_CHARS = 8_192;
    /** A NextToken is the guard's, a key in base64: far under this. */
    private static final int MAX_TOKEN_CHARS = 32_768;

    private final TableMirror mirror;
    private final URI engine;

    StatementReads(TableMirror mirror, URI engine) {
        this.mirror = mirror;
        this.engine = engine;
    }

    /** A checked form: the statement, the page's limit, where it resumes, and the engine its snippets name. */
    record Statement(String text, int limit, String nextToken, Optional<URI> engine) {}

    /**
     * Checks a form.
     *
     * @throws BadRequest naming the first fault
     */
    Statement build(Map<String, Object> form) {
        String text = Forms.text(form, "statement", "").strip();
        if (text.isEmpty() || text.length() > MAX_STATEMENT_CHARS) {
            throw new BadRequest("statement is required, at most " + MAX_STATEMENT_CHARS + " characters");
        }
        if (!text.toUpperCase(Locale.ROOT).startsWith("SELECT ")) {
            throw new BadRequest(
                    "only a SELECT runs here: the console writes through the item tools, which keep to what"
                            + " the API could have written");
        }
        int limit = (int) Forms.number(form, "limit", 25, 1, TableReads.MAX_LIMIT);
        String token = Forms.text(form, "nextToken", "");
        if (token.length() > MAX_TOKEN_CHARS) {
            throw new BadRequest("nextToken is not one this console gave");
        }
        Optional<URI> snippetsFor = Boolean.TRUE.equals(form.get("deployed")) ? Optional.empty() : Optional.of(engine);
        return new Statement(text, limit, token.isEmpty() ? null : token, snippetsFor);
    }

    /** Runs one page: its items, the capacity consumed, the NextToken (null at the end) and its snippets. */
    Map<String, Object> run(Statement statement) {
        ExecuteStatementResponse response;
        try {
            response = mirror.client()
                    .executeStatement(ExecuteStatementRequest.builder()
                            .statement(statement.text())
                            .limit(statement.limit())
                            .nextToken(statement.nextToken())
                            .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                            .build());
        } catch (DynamoDbException e) {
            if (e.statusCode() == 400 && e.awsErrorDetails() != null) {
                throw new BadRequest("the engine refused the statement: "
                        + e.awsErrorDetails().errorMessage());
            }
            throw e;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("items", response.items().stream().map(DynamoJson::item).toList());
        out.put("count", response.items().size());
        out.put("consumed", ExpressionBuilder.units(response.consumedCapacity()));
        out.put("nextToken", response.nextToken());
        out.put("snippets", snippets(statement));
        return out;
    }

    static Map<String, String> snippets(Statement statement) {
        return StatementSnippets.all(statement.text(), statement.limit(), statement.nextToken(), statement.engine());
    }
}
