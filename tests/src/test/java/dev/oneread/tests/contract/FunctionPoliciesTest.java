package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.functions.migratehottenant.MigrateHotTenantFunction;
import dev.oneread.keys.ShardPlan;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.TestEngine;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A function's role is its template Policies: a DynamoDB operation the function makes but its policy does not
 * allow works locally (the engine checks no IAM) and fails on AWS with AccessDenied. So the operations a job
 * really makes, recorded on the wire, must each be allowed by its policy.
 */
class FunctionPoliciesTest {
    private final TestEngine engine = TestEngine.get();
    private final SamTemplate template = SamTemplate.load(engine.root.resolve("template.yaml"));

    // Guards issue 23: the migration's lease is a conditional UpdateItem, which MigrateHotTenant's policy lacked.
    @Test
    void migrateHotTenant_shouldBeAllowedEveryOperationItMakes() {
        // GIVEN a tenant with projects, declared hot and migrating into 4 shards
        String ws = Api.freshWorkspaceId("policy");
        Api before = new Api();
        before.createWorkspace(ws, "Policy");
        for (int i = 0; i < 5; i++) {
            assertThat(before.createProject(ws, "{\"name\":\"p\"}").status()).isEqualTo(201);
        }
        ShardPlan migrating = ShardPlan.parse(ws + "=4", ws);
        Operations operations = new Operations();
        DynamoDbClient recorded = engine.functionClient("MigrateHotTenant", TestEngine.TABLE, List.of(operations));
        // WHEN the migration runs to the end, on a client that records each operation it sends
        MigrateHotTenantFunction function =
                new MigrateHotTenantFunction(recorded, Api.config("MigrateHotTenant", migrating));
        Map<String, Object> run =
                Lambda.invokeJob(function, Map.of("workspaceId", ws)).output();
        assertThat(run).containsEntry("done", true);
        // THEN it made the lease's UpdateItem among others, and its policy allows every one of them
        assertThat(operations.names).contains("UpdateItem", "Query", "PutItem", "DeleteItem");
        assertThat(allowedActions("MigrateHotTenant")).containsAll(operations.actions());
    }

    // The job functions' statements moved from their Policies into their own roles (issue 37): what they make stays
    // allowed.
    @Test
    void jobConsumers_shouldKeepTheirDynamoDbActions_inTheirOwnRoles() {
        assertThat(allowedActions("RunJob"))
                .contains(
                        "dynamodb:GetItem",
                        "dynamodb:Query",
                        "dynamodb:UpdateItem",
                        "dynamodb:DeleteItem",
                        "dynamodb:BatchWriteItem",
                        "dynamodb:PutItem",
                        "sqs:SendMessage");
        assertThat(allowedActions("PlanJobs")).contains("dynamodb:Query", "sqs:SendMessage");
    }

    /**
     * The actions in a function's inline policy statements: its Policies, or, for a function that names its own role
     * ({@code Role: !GetAtt XRole.Arn}, which SAM then leaves alone), that role's policy documents.
     */
    private Set<String> allowedActions(String function) {
        Map<String, Object> properties =
                SamTemplate.map(template.resources().get(function).get("Properties"));
        List<Object> documents = SamTemplate.list(properties.get("Policies"));
        if (properties.get("Role") != null) {
            String role = String.valueOf(
                    SamTemplate.list(SamTemplate.map(properties.get("Role")).get("Fn::GetAtt"))
                            .get(0));
            documents =
                    SamTemplate.list(SamTemplate.map(
                                            template.resources().get(role).get("Properties"))
                                    .get("Policies"))
                            .stream()
                            .map(policy -> SamTemplate.map(policy).get("PolicyDocument"))
                            .toList();
        }
        Set<String> actions = new TreeSet<>();
        for (Object policy : documents) {
            Object statements = SamTemplate.map(policy).get("Statement");
            if (statements == null) {
                continue; // a SAM policy template (e.g. the cursor secret's), not DynamoDB's
            }
            for (Object statement : SamTemplate.list(statements)) {
                SamTemplate.list(SamTemplate.map(statement).get("Action")).forEach(a -> actions.add((String) a));
            }
        }
        return actions;
    }

    /** Records the operation name of every request the client sends. */
    private static final class Operations implements ExecutionInterceptor {
        final Set<String> names = new ConcurrentSkipListSet<>();

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            names.add(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
        }

        Set<String> actions() {
            return names.stream().map(name -> "dynamodb:" + name).collect(Collectors.toSet());
        }
    }
}
