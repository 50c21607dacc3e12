package dev.oneread.tests.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.functions.createworkspace.CreateWorkspaceFunction;
import dev.oneread.functions.deleteproject.DeleteProjectFunction;
import dev.oneread.functions.updateproject.UpdateProjectFunction;
import dev.oneread.functions.updateworkspace.UpdateWorkspaceFunction;
import dev.oneread.json.Json;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.EngineDeviations;
import dev.oneread.tests.support.ItemSizes;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Partitions;
import dev.oneread.tests.support.TestEngine;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * A refused conditional write, as DynamoDB answers it and as dynalite does. DynamoDB returns the current item
 * with the ConditionalCheckFailedException when asked (ReturnValuesOnConditionCheckFailure ALL_OLD), so 404 and
 * 412 take one call; dynalite drops the field, so there one consistent read more tells them apart. Either way
 * DynamoDB bills the refused write by the size of the item that refused it (at least 1 WCU) and reports none of
 * it: X-Dynamo-Capacity must still count it.
 */
class ConditionCheckFailureTest {
    private final Api api = new Api();
    private final TestEngine engine = TestEngine.get();
    /** The engine as DynamoDB answers, for the functions of the one-call tests. */
    private final DynamoDbReturnValuesOnConditionCheckFailure dynamoDb =
            new DynamoDbReturnValuesOnConditionCheckFailure(engine.client);

    private final DynamoDbClient asDynamoDb = DynamoDbClients.local(engine.endpoint, List.of(dynamoDb));

    /**
     * Emulates DynamoDB's documented behaviour, which dynalite lacks: a conditional write sent with
     * ReturnValuesOnConditionCheckFailure ALL_OLD fails with the item as it stands in the error response, and
     * with no item when there is none. It reads that item with a raw GetItem (on a client without a tally, so
     * uncounted) and writes it, in DynamoDB's JSON wire format, into the ConditionalCheckFailedException response
     * before the SDK unmarshals it.
     */
    static final class DynamoDbReturnValuesOnConditionCheckFailure implements ExecutionInterceptor {
        final AtomicInteger itemsReturned = new AtomicInteger();
        private final DynamoDbClient raw;

        DynamoDbReturnValuesOnConditionCheckFailure(DynamoDbClient raw) {
            this.raw = raw;
        }

        @Override
        public Optional<InputStream> modifyHttpResponseContent(
                Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
            Optional<Map<String, AttributeValue>> key = keyAskingForTheItem(context.request());
            if (context.httpResponse().statusCode() != 400
                    || key.isEmpty()
                    || context.responseBody().isEmpty()) {
                return context.responseBody();
            }
            Map<String, Object> error =
                    Json.readObject(read(context.responseBody().get()));
            if (String.valueOf(error.get("__type")).endsWith("#ConditionalCheckFailedException")) {
                String table = context.request()
                        .getValueForField("TableName", String.class)
                        .orElseThrow();
                GetItemResponse current =
                        raw.getItem(b -> b.tableName(table).key(key.get()).consistentRead(true));
                if (current.hasItem() && !current.item().isEmpty()) {
                    error.put("Item", wire(current.item()));
                    itemsReturned.incrementAndGet();
                }
            }
            return Optional.of(new ByteArrayInputStream(Json.write(error).getBytes(StandardCharsets.UTF_8)));
        }

        private static Optional<Map<String, AttributeValue>> keyAskingForTheItem(SdkRequest request) {
            ReturnValuesOnConditionCheckFailure all = ReturnValuesOnConditionCheckFailure.ALL_OLD;
            if (request instanceof UpdateItemRequest u && u.returnValuesOnConditionCheckFailure() == all) {
                return Optional.of(u.key());
            } else if (request instanceof DeleteItemRequest d && d.returnValuesOnConditionCheckFailure() == all) {
                return Optional.of(d.key());
            } else if (request instanceof PutItemRequest p && p.returnValuesOnConditionCheckFailure() == all) {
                return Optional.of(Map.of(
                        "EntityRef",
                        p.item().get("EntityRef"),
                        "Detail",
                        p.item().get("Detail")));
            }
            return Optional.empty();
        }

        private static Map<String, Object> wire(Map<String, AttributeValue> item) {
            Map<String, Object> out = new LinkedHashMap<>();
            item.forEach((name, value) -> out.put(name, wire(value)));
            return out;
        }

        private static Map<String, Object> wire(AttributeValue value) {
            return switch (value.type()) {
                case S -> Map.of("S", value.s());
                case N -> Map.of("N", value.n());
                case BOOL -> Map.of("BOOL", value.bool());
                case NUL -> Map.of("NULL", true);
                case M -> Map.of("M", wire(value.m()));
                case L -> {
                    List<Object> list = new ArrayList<>();
                    value.l().forEach(v -> list.add(wire(v)));
                    yield Map.of("L", list);
                }
                default -> throw new IllegalArgumentException("not emulated: " + value.type());
            };
        }

        private static String read(InputStream in) {
            try (in) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Test
    void stalePatch_shouldBe412InOneCall_whenTheEngineReturnsTheItemAsDynamoDbDoes() {
        // GIVEN a project at version 1, and functions on a client whose engine answers as DynamoDB does
        String ws = workspace();
        String project =
                (String) api.createProject(ws, "{\"name\":\"Site\"}").json().get("id");
        UpdateProjectFunction patch = new UpdateProjectFunction(asDynamoDb, Api.config("UpdateProject"));
        // WHEN a PATCH names a version that is not the current one
        Lambda.Response response =
                Lambda.invoke(patch, projectEvent("PATCH", ws, project, "\"5\"", "{\"name\":\"x\"}"));
        // THEN 412 from the refusal alone: no read to tell it from a 404, and the refused write counted at 1 WCU
        assertThat(response.status()).isEqualTo(412);
        assertThat(dynamoDb.itemsReturned.get()).isEqualTo(1);
        assertThat(response.dynamoCalls()).isEqualTo(1);
        assertThat(response.dynamoCapacity()).isEqualByComparingTo("1");
    }

    @Test
    void stalePatch_shouldBe412_countingTheRefusedWrite_inTheCallsTheEngineNeeds() {
        String ws = workspace();
        String project =
                (String) api.createProject(ws, "{\"name\":\"Site\"}").json().get("id");

        Lambda.Response response = api.patchProject(ws, project, "\"5\"", "{\"name\":\"x\"}");

        // The refused UpdateItem (1 WCU, counted by the item-size rule), and on dynalite the consistent GetItem
        // (1 RCU) that stands in for the item DynamoDB returns with the refusal.
        assertThat(response.status()).isEqualTo(412);
        assertThat(response.dynamoCalls()).isEqualTo(EngineDeviations.refusedWriteCalls());
        assertThat(response.dynamoCapacity())
                .isEqualByComparingTo(BigDecimal.ONE.add(EngineDeviations.refusedWriteReadUnits()));
    }

    @Test
    void patchOfAMissingProject_shouldBe404_readingOnce_evenAsDynamoDb() {
        // DynamoDB returns no item when there is none, which cannot be told from an engine that drops the field.
        String ws = workspace();
        UpdateProjectFunction patch = new UpdateProjectFunction(asDynamoDb, Api.config("UpdateProject"));

        Lambda.Response response = Lambda.invoke(
                patch, projectEvent("PATCH", ws, "01JDQ6V7K4N3M2P1R0S9T8V7W6", "\"1\"", "{\"name\":\"x\"}"));

        assertThat(response.status()).isEqualTo(404);
        assertThat(dynamoDb.itemsReturned.get()).isZero();
        assertThat(response.dynamoCalls()).isEqualTo(2);
        // 1 WCU for the refused write (no item: the minimum) and 1 RCU for the consistent read of nothing
        assertThat(response.dynamoCapacity()).isGreaterThanOrEqualTo(BigDecimal.ONE);
    }

    @Test
    void staleDelete_shouldBe412InOneCall_whenTheEngineReturnsTheItemAsDynamoDbDoes_andDeleteNothing() {
        String ws = workspace();
        String project =
                (String) api.createProject(ws, "{\"name\":\"Site\"}").json().get("id");
        DeleteProjectFunction delete = new DeleteProjectFunction(asDynamoDb, Api.config("DeleteProject"));

        Lambda.Response response = Lambda.invoke(delete, projectEvent("DELETE", ws, project, "\"2\"", null));

        assertThat(response.status()).isEqualTo(412);
        assertThat(response.dynamoCalls()).isEqualTo(1);
        assertThat(response.dynamoCapacity()).isEqualByComparingTo("1");
        assertThat(api.getProject(ws, project).status()).isEqualTo(200);
    }

    @Test
    void ifMatchStar_shouldPatchAnyVersion_andBe404InOneCall_whenThereIsNothing() {
        // GIVEN a project at version 2
        String ws = workspace();
        String project =
                (String) api.createProject(ws, "{\"name\":\"Site\"}").json().get("id");
        api.patchProject(ws, project, "\"1\"", "{\"name\":\"v2\"}");
        // WHEN it is patched at any version, and a missing one is patched and deleted at any version
        Lambda.Response patched = api.patchProject(ws, project, "*", "{\"name\":\"v3\"}");
        Lambda.Response missingPatch = api.patchProject(ws, "01JDQ6V7K4N3M2P1R0S9T8V7W6", "*", "{\"name\":\"x\"}");
        Lambda.Response missingDelete = api.deleteProject(ws, "01JDQ6V7K4N3M2P1R0S9T8V7W6", "*");
        // THEN the patch applies to whatever version is there; a refusal at any version can only mean "no item"
        assertThat(patched.status()).isEqualTo(200);
        assertThat(patched.json()).containsEntry("version", 3);
        assertThat(missingPatch.status()).isEqualTo(404);
        assertThat(missingPatch.dynamoCalls()).isEqualTo(1);
        assertThat(missingDelete.status()).isEqualTo(404);
        assertThat(missingDelete.dynamoCalls()).isEqualTo(1);
    }

    @Test
    void failedCreate_shouldCountTheRefusedWrite_atOneWriteUnitAtLeast() {
        // GIVEN a workspace id that is taken
        String ws = workspace();
        // WHEN it is created again
        Lambda.Response response = api.createWorkspace(ws, "Again");
        // THEN 409, and the one refused PutItem is counted: DynamoDB bills it though it reports nothing (an engine
        // that drops the item from the refusal costs a read more, to learn the item is not this request's own)
        assertThat(response.status()).isEqualTo(409);
        assertThat(response.dynamoCalls()).isEqualTo(EngineDeviations.refusedWriteCalls());
        assertThat(response.dynamoCapacity()).isGreaterThanOrEqualTo(BigDecimal.ONE);
    }

    @Test
    void failedCreate_shouldCountTheTakenItemsSize_whenTheEngineReturnsItAsDynamoDbDoes() {
        // GIVEN a workspace of about 3 KB, and CreateWorkspace on an engine that answers as DynamoDB does
        String ws = Api.freshWorkspaceId("big");
        assertThat(api.createWorkspace(bigWorkspace(ws)).status()).isEqualTo(201);
        CreateWorkspaceFunction create = new CreateWorkspaceFunction(asDynamoDb, Api.config("CreateWorkspace"));
        // WHEN it is created again
        Lambda.Response response = Lambda.invoke(
                create, ApiEvent.of("POST", ApiEvent.WORKSPACES).body(Json.write(Map.of("id", ws, "name", "Again"))));
        // THEN the refused put is billed by the size of the item that refused it, in 1 KB units
        assertThat(response.status()).isEqualTo(409);
        assertThat(response.dynamoCalls()).isEqualTo(1);
        assertThat(response.dynamoCapacity()).isEqualByComparingTo(BigDecimal.valueOf(writeUnitsOf("WS#" + ws)));
    }

    @Test
    void stalePatchOfALargeWorkspace_shouldCountItsSize_onTheEngineAsItAnswers() {
        // GIVEN a workspace of about 3 KB
        String ws = Api.freshWorkspaceId("big");
        assertThat(api.createWorkspace(bigWorkspace(ws)).status()).isEqualTo(201);
        long writeUnits = writeUnitsOf("WS#" + ws);
        // WHEN a PATCH with a stale If-Match is refused by the test engine as it answers (on dynalite, with no
        // item: the store reads it once more)
        Lambda.Response response = api.patchWorkspace(ws, "\"9\"", "{\"name\":\"x\"}");
        // THEN the refused write counts what DynamoDB bills for it (the item's size), plus any read that followed
        assertThat(writeUnits).isGreaterThanOrEqualTo(3);
        assertThat(response.status()).isEqualTo(412);
        assertThat(response.dynamoCalls()).isEqualTo(EngineDeviations.refusedWriteCalls());
        assertThat(response.dynamoCapacity())
                .isEqualByComparingTo(BigDecimal.valueOf(writeUnits).add(EngineDeviations.refusedWriteReadUnits()));
    }

    @Test
    void stalePatchOfALargeWorkspace_shouldCountItsSize_inOneCall_whenTheEngineReturnsItAsDynamoDbDoes() {
        String ws = Api.freshWorkspaceId("big");
        assertThat(api.createWorkspace(bigWorkspace(ws)).status()).isEqualTo(201);
        UpdateWorkspaceFunction patch = new UpdateWorkspaceFunction(asDynamoDb, Api.config("UpdateWorkspace"));
        Map<String, String> path = Map.of("workspaceId", ws);

        Lambda.Response response = Lambda.invoke(
                patch,
                ApiEvent.of("PATCH", ApiEvent.WORKSPACE)
                        .path(path)
                        .header("If-Match", "\"9\"")
                        .body("{\"name\":\"x\"}"));

        assertThat(response.status()).isEqualTo(412);
        assertThat(response.dynamoCalls()).isEqualTo(1);
        assertThat(response.dynamoCapacity()).isEqualByComparingTo(BigDecimal.valueOf(writeUnitsOf("WS#" + ws)));
    }

    private String workspace() {
        String ws = Api.freshWorkspaceId("refused");
        assertThat(api.createWorkspace(ws, "Refused").status()).isEqualTo(201);
        return ws;
    }

    /** A workspace whose settings make its item about 3 KB. */
    private static String bigWorkspace(String id) {
        return Json.write(Map.of(
                "id", id, "name", "Big", "settings", Map.of("notes", "n".repeat(1500), "terms", "t".repeat(1500))));
    }

    /** Write units for the workspace item, from the documented item size, computed independently of the store. */
    private long writeUnitsOf(String partition) {
        long bytes = ItemSizes.size(Partitions.items(engine.client, partition).get(0));
        return Math.max(1, (bytes + 1023) / 1024);
    }

    private static ApiEvent projectEvent(String method, String ws, String project, String ifMatch, String body) {
        ApiEvent event = ApiEvent.of(method, ApiEvent.PROJECT)
                .path(Map.of("workspaceId", ws, "projectId", project))
                .header("If-Match", ifMatch);
        return body == null ? event : event.body(body);
    }
}
