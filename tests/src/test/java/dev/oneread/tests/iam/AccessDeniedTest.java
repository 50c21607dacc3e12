package dev.oneread.tests.iam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.oneread.local.iam.IamLedger;
import dev.oneread.local.iam.PolicyValues;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.IamDenials;
import dev.oneread.tests.support.Partitions;
import dev.oneread.tests.support.TestEngine;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Each way a function's call falls outside its role, sent by a client that signs as that function through the IAM
 * front to the real engine: refused as DynamoDB refuses it (400, AccessDeniedException, AWS's message naming the
 * role, the function, the action and the resource), before the engine sees it, so nothing is written.
 */
@IamDenials.DeniesOnPurpose
class AccessDeniedTest {
    private static final String ACCOUNT = PolicyValues.ACCOUNT;
    private final TestEngine engine = TestEngine.get();
    private final String table = PolicyValues.tableArn(TestEngine.TABLE);

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static Map<String, AttributeValue> item(String partition, String sort) {
        return Map.of("EntityRef", s(partition), "Detail", s(sort), "name", s("forged"));
    }

    /** The refusal a call met: AWS's error code, status and message, and the ledger's last denial, which is it. */
    private DynamoDbException refused(Supplier<?> call) {
        int before = IamLedger.process().denials().size();
        DynamoDbException refused = catchThrowableOfType(DynamoDbException.class, call::get);
        assertThat(refused).as("the call was refused").isNotNull();
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.awsErrorDetails().errorCode()).isEqualTo("AccessDeniedException");
        assertThat(IamLedger.process().denials()).hasSize(before + 1);
        return refused;
    }

    private static String denied(String function, String role, String action, String resource) {
        return "User: arn:aws:sts::" + ACCOUNT + ":assumed-role/" + role + "/" + function
                + " is not authorized to perform: " + action + " on resource: " + resource
                + " because no identity-based policy allows the " + action + " action";
    }

    @Test
    void wrongAction_shouldBeRefused_andWriteNothing() {
        // GIVEN GetProject, whose role allows GetItem alone, and a workspace collection
        String ws = Api.freshWorkspaceId("iam-action");
        DynamoDbClient getProject = engine.functionClient("GetProject");
        // WHEN it puts an item in that collection
        DynamoDbException refused = refused(() ->
                getProject.putItem(b -> b.tableName(TestEngine.TABLE).item(item("WS#" + ws, "PROJ#01FORGED"))));
        // THEN AWS's message, and the collection is still empty
        assertThat(refused.awsErrorDetails().errorMessage())
                .isEqualTo(denied("GetProject", "GetProjectRole", "dynamodb:PutItem", table));
        assertThat(Partitions.items(engine.client, "WS#" + ws)).isEmpty();
    }

    @Test
    void wrongKeyPrefix_shouldBeRefusedByLeadingKeys_andWriteNothing() {
        // GIVEN CreateProject, which may put items only under WS#* partition keys
        DynamoDbClient createProject = engine.functionClient("CreateProject");
        String partition = "REPORT#" + Api.freshWorkspaceId("iam-prefix");
        // WHEN it puts one under another prefix
        DynamoDbException refused = refused(
                () -> createProject.putItem(b -> b.tableName(TestEngine.TABLE).item(item(partition, "ENTRY"))));
        assertThat(refused.awsErrorDetails().errorMessage())
                .isEqualTo(denied("CreateProject", "CreateProjectRole", "dynamodb:PutItem", table));
        assertThat(Partitions.items(engine.client, partition)).isEmpty();
    }

    @Test
    void batchWithOneKeyOutsideThePrefix_shouldBeRefusedWhole_andWriteNothing() {
        // GIVEN RunJob, whose BatchWriteItem is allowed on WS#* and on REPORT#hot-tenants, each in its own statement
        String ws = Api.freshWorkspaceId("iam-batch");
        DynamoDbClient runJob = engine.functionClient("RunJob");
        // WHEN one batch names a WS# key and a WSREG# key: ForAllValues over every key of the batch
        DynamoDbException refused = refused(() -> runJob.batchWriteItem(b -> b.requestItems(Map.of(
                TestEngine.TABLE,
                List.of(
                        WriteRequest.builder()
                                .putRequest(PutRequest.builder()
                                        .item(item("WS#" + ws, "PROJ#01A"))
                                        .build())
                                .build(),
                        WriteRequest.builder()
                                .putRequest(PutRequest.builder()
                                        .item(item("WSREG#" + ws, "WS#" + ws))
                                        .build())
                                .build())))));
        assertThat(refused.awsErrorDetails().errorMessage())
                .isEqualTo(denied("RunJob", "RunJobRole", "dynamodb:BatchWriteItem", table));
        // THEN not even the allowed half was written
        assertThat(Partitions.items(engine.client, "WS#" + ws)).isEmpty();
        assertThat(Partitions.items(engine.client, "WSREG#" + ws)).isEmpty();
    }

    @Test
    void wrongIndex_shouldBeRefused_onTheIndexArn() {
        // GIVEN ListProjects, whose Query is allowed on the table, not on its index
        DynamoDbClient listProjects = engine.functionClient("ListProjects");
        // WHEN it queries GSI1
        DynamoDbException refused = refused(() -> listProjects.query(b -> b.tableName(TestEngine.TABLE)
                .indexName("GSI1")
                .keyConditionExpression("#pk = :pk")
                .expressionAttributeNames(Map.of("#pk", "GSI1PK"))
                .expressionAttributeValues(Map.of(":pk", s("STATUS#ACTIVE#00")))));
        assertThat(refused.awsErrorDetails().errorMessage())
                .isEqualTo(denied("ListProjects", "ListProjectsRole", "dynamodb:Query", table + "/index/GSI1"));
    }

    @Test
    void indexFunctionOnTheTable_shouldBeRefused_onTheTableArn() {
        // GIVEN ListProjectsByStatus, whose Query is allowed on the index alone
        DynamoDbClient byStatus = engine.functionClient("ListProjectsByStatus");
        DynamoDbException refused = refused(() -> byStatus.query(b -> b.tableName(TestEngine.TABLE)
                .keyConditionExpression("#pk = :pk")
                .expressionAttributeNames(Map.of("#pk", "EntityRef"))
                .expressionAttributeValues(Map.of(":pk", s("WS#acme")))));
        assertThat(refused.awsErrorDetails().errorMessage())
                .isEqualTo(denied("ListProjectsByStatus", "ListProjectsByStatusRole", "dynamodb:Query", table));
    }

    @Test
    void wrongTable_shouldBeRefused_onThatTablesArn_andWriteNothing() {
        // GIVEN a second table made from template.yaml, and CreateProject signing for the test's table
        String other = "oneread-iam-other";
        new Api(dev.oneread.keys.ShardPlan.none(), other);
        String ws = Api.freshWorkspaceId("iam-table");
        DynamoDbClient createProject = engine.functionClient("CreateProject");
        // WHEN it writes to the other table
        DynamoDbException refused =
                refused(() -> createProject.putItem(b -> b.tableName(other).item(item("WS#" + ws, "PROJ#01FORGED"))));
        assertThat(refused.awsErrorDetails().errorMessage())
                .isEqualTo(
                        denied("CreateProject", "CreateProjectRole", "dynamodb:PutItem", PolicyValues.tableArn(other)));
        assertThat(engine.client
                        .getItem(b -> b.tableName(other)
                                .key(Map.of("EntityRef", s("WS#" + ws), "Detail", s("PROJ#01FORGED"))))
                        .hasItem())
                .isFalse();
    }
}
