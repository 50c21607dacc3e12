package dev.oneread.tests.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ExpectedVersion;
import dev.oneread.model.ProjectPatch;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.AuditedCall;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.exceptions.PreconditionFailedException;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.EngineDeviations;
import dev.oneread.tests.support.Partitions;
import dev.oneread.tests.support.TestEngine;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The audit's record of each call, against the real engine: what the store addressed (handed over with the
 * request, never parsed back out of it), the expressions, the items read and returned, and the capacity.
 */
class CallAuditTest {
    private static final AuditedCall.Expressions NO_EXPRESSIONS =
            new AuditedCall.Expressions(null, null, null, null, null, null, null);
    private final TestEngine engine = TestEngine.get();

    @Test
    void getProject_shouldRecordTheShardItAddressed_andTheItemItRead() {
        // GIVEN a hot workspace with one project, in one of its 4 shards
        String ws = Api.freshWorkspaceId("audited");
        ShardPlan plan = ShardPlan.parse(ws + "=4", "");
        Api api = new Api(plan);
        api.createWorkspace(ws, "Audited");
        String id = (String) api.createProject(ws, "{\"name\":\"p\"}").json().get("id");
        String shard = shardHolding(ws, id);
        CallTally tally = new CallTally();
        // WHEN
        new ControlPlaneStore(engine.client, null, TestEngine.TABLE, plan)
                .getProject(WorkspaceId.of(ws), ProjectId.of(id), tally);
        // THEN one GetItem of that shard, which read and returned one item for half a read unit
        assertThat(tally.auditedCalls())
                .containsExactly(new AuditedCall(
                        "GetItem",
                        TestEngine.TABLE,
                        null,
                        shard,
                        key(shard, "PROJ#" + id),
                        NO_EXPRESSIONS,
                        1,
                        1,
                        new BigDecimal("0.5"),
                        false,
                        null,
                        List.of()));
    }

    @Test
    void listProjects_shouldRecordTheQuerysKeyCondition_andItemsReadAndReturned() {
        String ws = Api.freshWorkspaceId("audited");
        Api api = new Api();
        api.createWorkspace(ws, "Audited");
        api.createProject(ws, "{\"name\":\"a\"}");
        api.createProject(ws, "{\"name\":\"b\"}");
        CallTally tally = new CallTally();

        new ControlPlaneStore(engine.client, TestEngine.TABLE)
                .listProjects(WorkspaceId.of(ws), 20, Optional.empty(), tally);

        AuditedCall.Expressions keyCondition = new AuditedCall.Expressions(
                "#er = :er AND begins_with(#d, :p)",
                null,
                null,
                null,
                null,
                Map.of("#er", "EntityRef", "#d", "Detail"),
                Map.of(":er", AttributeValue.fromS("WS#" + ws), ":p", AttributeValue.fromS("PROJ#")));
        assertThat(tally.auditedCalls())
                .containsExactly(new AuditedCall(
                        "Query",
                        TestEngine.TABLE,
                        null,
                        "WS#" + ws,
                        null,
                        keyCondition,
                        2,
                        2,
                        new BigDecimal("0.5"),
                        false,
                        null,
                        List.of()));
    }

    @Test
    void refusedUpdate_shouldRecordTheWriteUnitItIsBilled_thoughDynamoDbReportsNone() {
        // GIVEN a project at version 1
        String ws = Api.freshWorkspaceId("audited");
        Api api = new Api();
        api.createWorkspace(ws, "Audited");
        String id = (String) api.createProject(ws, "{\"name\":\"p\"}").json().get("id");
        CallTally tally = new CallTally();
        // WHEN an update expects version 5
        assertThatThrownBy(() -> new ControlPlaneStore(engine.client, TestEngine.TABLE)
                        .updateProject(
                                WorkspaceId.of(ws),
                                ProjectId.of(id),
                                new ProjectPatch("x", null, false, null),
                                ExpectedVersion.exactly(5),
                                Instant.now(),
                                tally))
                .isInstanceOf(PreconditionFailedException.class);
        // THEN the refused UpdateItem (guarded on the version attribute, which a migration tombstone lacks) is on
        // record with its expressions and 1 estimated WCU, then the consistent read
        AuditedCall refused = tally.auditedCalls().get(0);
        assertThat(refused.operation()).isEqualTo("UpdateItem");
        assertThat(refused.key()).isEqualTo(key("WS#" + ws, "PROJ#" + id));
        assertThat(refused.expressions().condition()).isEqualTo("attribute_exists(#v) AND #v = :v");
        assertThat(refused.expressions().update()).startsWith("SET ");
        assertThat(refused.expressions().values()).containsEntry(":v", AttributeValue.fromN("5"));
        assertThat(refused.error()).isEqualTo("ConditionalCheckFailedException");
        assertThat(refused.capacity()).isEqualByComparingTo("1");
        assertThat(refused.capacityEstimated()).isTrue();
        if (EngineDeviations.refusalCarriesCurrentItem()) {
            assertThat(tally.operations()).containsExactly("UpdateItem");
        } else {
            assertThat(tally.operations()).containsExactly("UpdateItem", "GetItem");
            assertThat(tally.auditedCalls().get(1).capacity()).isEqualByComparingTo("1");
        }
        assertThat(tally.capacity()).isEqualByComparingTo(BigDecimal.ONE.add(EngineDeviations.refusedWriteReadUnits()));
    }

    private String shardHolding(String ws, String projectId) {
        for (int shard = 1; shard <= 4; shard++) {
            String partition = "WS#" + ws + "#0" + shard;
            if (Partitions.items(engine.client, partition).stream()
                    .anyMatch(i -> i.get("Detail").s().equals("PROJ#" + projectId))) {
                return partition;
            }
        }
        throw new AssertionError("project " + projectId + " is in no shard");
    }

    private static Map<String, AttributeValue> key(String partition, String sort) {
        return Map.of("EntityRef", AttributeValue.fromS(partition), "Detail", AttributeValue.fromS(sort));
    }
}
