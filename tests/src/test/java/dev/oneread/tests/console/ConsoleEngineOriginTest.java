package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.keys.KeyCodec;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ConsolePage;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.OtherClient;
import dev.oneread.tests.support.TestEngine;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Writes that reach the engine from another client (an SDK, the aws CLI: not through start-api's functions) are in
 * the request log as the engine's own entries, once each, with the call, the key and the diff; a write through the
 * API is its request's entry only, never an engine entry as well.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleEngineOriginTest {
    private final TestEngine engine = TestEngine.get();
    private final String table = "engine-origin-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("origin");
    private LocalApi api;

    @BeforeAll
    void start() throws Exception {
        api = LocalApi.start(engine, table, Map.of());
        ConsolePage.createWorkspace(api, ws);
    }

    @AfterAll
    void stop() {
        if (api != null) {
            api.close();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void sdkWrite_isLoggedOnceAsEngineOrigin_andAnApiWriteOnceAsItsRequest() throws Exception {
        // GIVEN an SDK client of the developer's, straight at the engine
        String partition = "WS#" + ws;
        try (DynamoDbClient sdk = OtherClient.at(engine.endpoint)) {
            // WHEN it puts an item into the console's table
            sdk.putItem(b -> b.tableName(table)
                    .item(Map.of(
                            KeyCodec.PARTITION_KEY,
                            AttributeValue.fromS(partition),
                            KeyCodec.SORT_KEY,
                            AttributeValue.fromS("NOTE#sdk"),
                            "text",
                            AttributeValue.fromS("from the SDK"))));
            // AND a batch of two puts
            sdk.batchWriteItem(b -> b.requestItems(
                    Map.of(table, List.of(batchPut(partition, "NOTE#b1"), batchPut(partition, "NOTE#b2")))));
        }
        // AND then a project is created through the API (its entry is logged once the feed is read up to it: the
        // SDK's write, which came first, has been read by then)
        HttpResponse<String> created =
                api.send("POST", "/workspaces/" + ws + "/projects", "{\"name\":\"via api\"}", List.of(ws), false);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String project = "PROJ#" + Json.readObject(created.body()).get("id");
        List<Map<String, Object>> log = (List<Map<String, Object>>)
                Json.readObject(api.send("GET", "/_console/api/requests", null, List.of(), false)
                                .body())
                        .get("requests");
        // THEN the SDK's write is in the log once, as an engine-origin entry with its call, key and diff
        List<Map<String, Object>> sdkEntries =
                log.stream().filter(e -> writesKey(e, partition, "NOTE#sdk")).toList();
        assertThat(sdkEntries).hasSize(1);
        Map<String, Object> sdkEntry = sdkEntries.get(0);
        assertThat(sdkEntry)
                .containsEntry("source", "engine")
                .containsEntry("origin", "engine")
                .containsEntry("method", "PutItem")
                .containsEntry("workspace", ws)
                .containsEntry("signer", "local");
        List<Map<String, Object>> calls = (List<Map<String, Object>>) sdkEntry.get("calls");
        assertThat(calls).hasSize(1);
        assertThat(calls.get(0)).containsEntry("operation", "PutItem").containsEntry("capacity", "1");
        Map<String, Object> write = ((List<Map<String, Object>>) sdkEntry.get("writes")).get(0);
        assertThat(write.get("before")).isNull();
        assertThat((Map<String, Object>) write.get("after")).containsEntry("text", Map.of("S", "from the SDK"));
        // AND the batch is one engine entry, one call, with both items' writes
        List<Map<String, Object>> batchEntries = log.stream()
                .filter(e -> writesKey(e, partition, "NOTE#b1") || writesKey(e, partition, "NOTE#b2"))
                .toList();
        assertThat(batchEntries).hasSize(1);
        assertThat(batchEntries.get(0))
                .containsEntry("source", "engine")
                .containsEntry("method", "BatchWriteItem")
                .containsEntry("totals", Map.of("calls", 1, "capacity", "2"));
        assertThat((List<?>) batchEntries.get(0).get("writes")).hasSize(2);
        // AND the API's write is in the log once, as its request's entry, and not as the engine's
        List<Map<String, Object>> projectEntries =
                log.stream().filter(e -> writesKey(e, partition, project)).toList();
        assertThat(projectEntries).hasSize(1);
        assertThat(projectEntries.get(0)).containsEntry("route", "POST /workspaces/{workspaceId}/projects");
        assertThat(projectEntries.get(0).get("source")).isNull();
    }

    private static WriteRequest batchPut(String partition, String sort) {
        return WriteRequest.builder()
                .putRequest(PutRequest.builder()
                        .item(Map.of(
                                KeyCodec.PARTITION_KEY, AttributeValue.fromS(partition),
                                KeyCodec.SORT_KEY, AttributeValue.fromS(sort)))
                        .build())
                .build();
    }

    /** Whether a log entry wrote the item at partition and sort. */
    @SuppressWarnings("unchecked")
    private static boolean writesKey(Map<String, Object> entry, String partition, String sort) {
        return entry.get("writes") instanceof List<?> writes
                && writes.stream()
                        .map(w -> (Map<String, Object>) w)
                        .anyMatch(w -> partition.equals(w.get("partition")) && sort.equals(w.get("sort")));
    }
}
