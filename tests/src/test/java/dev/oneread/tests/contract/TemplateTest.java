package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.http.Caller;
import dev.oneread.keys.KeyCodec;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.local.template.TemplateTables;
import dev.oneread.tests.support.QueueAccess;
import dev.oneread.tests.support.TestEngine;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeyType;

/** template.yaml is the single source of the schema, the handlers and the artifacts: check they agree. */
class TemplateTest {
    private final TestEngine engine = TestEngine.get();
    private final SamTemplate template = SamTemplate.load(engine.root.resolve("template.yaml"));

    @Test
    void tableKeySchema_shouldBeTheCodecsAttributes() {
        CreateTableRequest table = TemplateTables.from(template).createRequest("Table", "t");

        assertThat(table.keySchema()).hasSize(2);
        assertThat(table.keySchema().get(0).attributeName()).isEqualTo(KeyCodec.PARTITION_KEY);
        assertThat(table.keySchema().get(0).keyType()).isEqualTo(KeyType.HASH);
        assertThat(table.keySchema().get(1).attributeName()).isEqualTo(KeyCodec.SORT_KEY);
        assertThat(table.keySchema().get(1).keyType()).isEqualTo(KeyType.RANGE);
    }

    @Test
    void everyFunction_shouldPointAtItsBuiltZipAndAnExistingHandlerClass() throws Exception {
        Map<String, Map<String, Object>> functions = template.resourcesOfType("AWS::Serverless::Function");
        assertThat(functions).hasSize(18); // 13 routes, 4 jobs, and the user pool's trigger (AddWorkspacesClaim)
        for (Map.Entry<String, Map<String, Object>> f : functions.entrySet()) {
            Map<String, Object> properties = SamTemplate.map(f.getValue().get("Properties"));
            String codeUri = (String) properties.get("CodeUri");
            String handler = (String) properties.get("Handler");
            String module = codeUri.split("/")[1];
            assertThat(codeUri).as(f.getKey()).isEqualTo("functions/" + module + "/target/" + module + ".zip");
            assertThat(Files.isRegularFile(engine.root.resolve(codeUri)))
                    .as(codeUri + " is built")
                    .isTrue();
            assertThat(handler).endsWith("." + f.getKey() + "Function::handleRequest");
            Class<?> type = Class.forName(handler.substring(0, handler.indexOf("::")));
            assertThat(com.amazonaws.services.lambda.runtime.RequestStreamHandler.class)
                    .isAssignableFrom(type);
        }
    }

    @Test
    void everyRoute_shouldRequireTheScopesTheFunctionsCheck() {
        // GIVEN every HttpApi route of every function
        int routes = 0;
        for (Map.Entry<String, Map<String, Object>> f :
                template.resourcesOfType("AWS::Serverless::Function").entrySet()) {
            Map<String, Object> events = SamTemplate.map(
                    SamTemplate.map(f.getValue().get("Properties")).get("Events"));
            for (Object event : events.values()) {
                Map<String, Object> properties =
                        SamTemplate.map(SamTemplate.map(event).get("Properties"));
                if (!"HttpApi".equals(SamTemplate.map(event).get("Type"))) {
                    continue;
                }
                routes++;
                List<Object> scopes =
                        SamTemplate.list(SamTemplate.map(properties.get("Auth")).get("AuthorizationScopes"));
                // THEN operators' routes take the operator scope alone; every other the access or operator scope,
                // the very names Caller checks, so API Gateway refuses an ID token (it has no scope) itself
                boolean operatorRoute = "/workspaces".equals(properties.get("Path"))
                        || "/projects".equals(properties.get("Path")) // creating workspaces, and the index listings
                        || "/reports/hot-tenants".equals(properties.get("Path")) // the hot-tenant report
                        || ("DELETE".equals(properties.get("Method")) // deleting one
                                && "/workspaces/{workspaceId}".equals(properties.get("Path")));
                assertThat(scopes)
                        .as(f.getKey())
                        .containsExactlyElementsOf(
                                operatorRoute
                                        ? List.of(Caller.OPERATOR_SCOPE)
                                        : List.of(Caller.ACCESS_SCOPE, Caller.OPERATOR_SCOPE));
            }
        }
        assertThat(routes).isEqualTo(13);
    }

    @Test
    void purgeFence_shouldOutlastEveryWriterThatMayCreateAfterSeeingTheWorkspaceLive() {
        // GIVEN the timeouts (their own, or the Globals') of every function that may create an item in a workspace's
        // collection, or its report entries, after it saw the workspace live: CreateProject (a get, then a put), the
        // keyed creates (an idempotency claim), DeleteProject (a tombstone while a migration lease is held) and RunJob
        // (a stats task's report entry). MigrateHotTenant is bounded by its lease, which the purge waits out on its
        // own; BackfillIndex and the updates only ever update items that exist.
        Map<String, Object> globals = SamTemplate.map(
                SamTemplate.map(template.document().get("Globals")).get("Function"));
        int longest = 0;
        for (String writer : List.of("CreateProject", "CreateWorkspace", "DeleteProject", "RunJob")) {
            Map<String, Object> properties =
                    SamTemplate.map(template.resources().get(writer).get("Properties"));
            int timeout = ((Number) properties.getOrDefault("Timeout", globals.get("Timeout"))).intValue();
            // A create may act on a read of the workspace reused for up to WORKSPACE_REUSE_MILLIS (RecentWorkspaces):
            // its bound is that age and its timeout.
            Object reuse = SamTemplate.map(SamTemplate.map(properties.getOrDefault("Environment", Map.of()))
                            .getOrDefault("Variables", Map.of()))
                    .get("WORKSPACE_REUSE_MILLIS");
            int reusedSeconds = reuse == null ? 0 : (int) Math.ceil(Long.parseLong(String.valueOf(reuse)) / 1000.0);
            longest = Math.max(longest, timeout + reusedSeconds);
        }
        // THEN the DELETE's delay and the worker's fence are that and a margin for a write in flight, so no writer
        // that saw the workspace live can write after the sweep
        for (String function : List.of("DeleteWorkspace", "RunJob")) {
            Map<String, Object> variables = SamTemplate.map(SamTemplate.map(
                            SamTemplate.map(template.resources().get(function).get("Properties"))
                                    .get("Environment"))
                    .get("Variables"));
            assertThat(Integer.parseInt(String.valueOf(variables.get("PURGE_FENCE_SECONDS"))))
                    .as(function)
                    .isGreaterThanOrEqualTo(longest + 2);
        }
    }

    @Test
    void cursorKeys_shouldComeFromTheOneSecret_readOnlyByTheFunctionsThatPage() {
        Map<String, Map<String, Object>> functions = template.resourcesOfType("AWS::Serverless::Function");
        functions.forEach((name, function) -> {
            Map<String, Object> properties = SamTemplate.map(function.get("Properties"));
            Map<String, Object> variables = SamTemplate.map(
                    SamTemplate.map(properties.get("Environment")).get("Variables"));
            boolean pages = name.equals("ListProjects")
                    || name.equals("GetWorkspaceCollection")
                    || name.equals("ListProjectsByStatus")
                    || name.equals("ListWorkspaces")
                    || name.equals("GetHotTenantReport");
            // THEN only the list functions name the secret, and may read it
            assertThat(variables.containsKey("CURSOR_KEY_SECRET")).as(name).isEqualTo(pages);
            assertThat(SamTemplate.list(properties.get("Policies")).stream()
                            .anyMatch(p -> SamTemplate.map(p).containsKey("AWSSecretsManagerGetSecretValuePolicy")))
                    .as(name)
                    .isEqualTo(pages);
        });
        // AND no key sits in any environment: no global cursor variable, no key parameter
        Map<String, Object> globals = SamTemplate.map(
                SamTemplate.map(template.document().get("Globals")).get("Function"));
        assertThat(SamTemplate.map(SamTemplate.map(globals.get("Environment")).get("Variables")))
                .doesNotContainKeys("CURSOR_KEY", "CURSOR_KEYS", "CURSOR_KEY_SECRET");
        assertThat(SamTemplate.map(template.document().get("Parameters"))).doesNotContainKey("CursorKey");
    }

    @Test
    void limits_shouldBeParametersWiredToTheStageAndTheWriteFunctions() {
        Map<String, Object> api =
                SamTemplate.map(template.resources().get("Api").get("Properties"));
        assertThat(SamTemplate.map(api.get("DefaultRouteSettings")))
                .containsEntry("ThrottlingRateLimit", Map.of("Ref", "ApiThrottlingRateLimit"))
                .containsEntry("ThrottlingBurstLimit", Map.of("Ref", "ApiThrottlingBurstLimit"));
        for (String write :
                List.of("CreateWorkspace", "UpdateWorkspace", "CreateProject", "UpdateProject", "DeleteProject")) {
            assertThat(SamTemplate.map(template.resources().get(write).get("Properties")))
                    .as(write)
                    .containsEntry(
                            "ReservedConcurrentExecutions",
                            Map.of(
                                    "Fn::If",
                                    List.of(
                                            "CapWrites",
                                            Map.of("Ref", "WriteReservedConcurrency"),
                                            Map.of("Ref", "AWS::NoValue"))));
        }
        for (String read : List.of("GetWorkspace", "GetProject", "ListProjects", "GetWorkspaceCollection")) {
            assertThat(SamTemplate.map(template.resources().get(read).get("Properties")))
                    .as(read)
                    .doesNotContainKey("ReservedConcurrentExecutions");
        }
    }

    @Test
    void readFunctions_shouldBeAllowedOnlyGetItemOrQuery() {
        for (String read : List.of("GetWorkspace", "GetProject", "ListProjects", "GetWorkspaceCollection")) {
            Map<String, Object> properties =
                    SamTemplate.map(template.resources().get(read).get("Properties"));
            List<Object> policies = SamTemplate.list(properties.get("Policies"));
            Map<String, Object> dynamoDb = SamTemplate.map(policies.get(policies.size() - 1));
            // Besides DynamoDB, a list function may read the cursor keys' one secret, and nothing else.
            assertThat(policies.subList(0, policies.size() - 1))
                    .allSatisfy(policy -> assertThat(policy)
                            .isEqualTo(Map.of(
                                    "AWSSecretsManagerGetSecretValuePolicy",
                                    Map.of("SecretArn", Map.of("Ref", "CursorKeySecret")))));
            for (Object statement : SamTemplate.list(dynamoDb.get("Statement"))) {
                assertThat(SamTemplate.list(SamTemplate.map(statement).get("Action")))
                        .allSatisfy(action -> assertThat(action).isIn("dynamodb:GetItem", "dynamodb:Query"));
            }
        }
    }

    // Guards issue 22: the queue policies' Deny statements blocked the documented DLQ redrive (docs/jobs.md), which
    // sends
    // the dead letters back into their source queues as the caller.
    @Test
    void deadLetterRedrive_shouldBeAllowedToTheRedriveRole_andTheQueuesClosedToStrangers() {
        QueueAccess access = new QueueAccess(template);
        // GIVEN the redrive of docs/jobs.md: a message move task started by the redrive role, which receives and
        // deletes each dead letter and sends it back to JobQueue or PlanQueue, whichever it came from
        String redrive = "JobRedriveRole";
        // THEN the role may make each of those calls, under the queue policies
        for (String action : List.of(
                "sqs:StartMessageMoveTask",
                "sqs:ListMessageMoveTasks",
                "sqs:CancelMessageMoveTask",
                "sqs:ReceiveMessage",
                "sqs:DeleteMessage",
                "sqs:GetQueueAttributes")) {
            assertThat(access.allows(redrive, action, "JobDeadLetterQueue"))
                    .as(action)
                    .isTrue();
        }
        for (String source : List.of("JobQueue", "PlanQueue")) {
            assertThat(access.allows(redrive, "sqs:SendMessage", source))
                    .as(source)
                    .isTrue();
            // AND no more: the redrive does not take the workers' part
            assertThat(access.allows(redrive, "sqs:ReceiveMessage", source))
                    .as(source)
                    .isFalse();
            assertThat(access.allows(redrive, "sqs:DeleteMessage", source))
                    .as(source)
                    .isFalse();
        }
        // AND a stranger in the account, whatever its own policies grant, can neither send nor receive
        for (String source : List.of("JobQueue", "PlanQueue")) {
            for (String action : List.of("sqs:SendMessage", "sqs:ReceiveMessage", "sqs:DeleteMessage")) {
                assertThat(access.deniedByQueuePolicy("SomeAdminRole", action, source))
                        .as(source + " " + action)
                        .isTrue();
            }
        }
        // AND the functions' roles (SAM makes them: their policies are the functions' Policies) keep their parts
        assertThat(access.deniedByQueuePolicy("PlanJobsRole", "sqs:SendMessage", "JobQueue"))
                .isFalse();
        assertThat(access.deniedByQueuePolicy("DeleteWorkspaceRole", "sqs:SendMessage", "JobQueue"))
                .isFalse();
        assertThat(access.deniedByQueuePolicy("RunJobRole", "sqs:ReceiveMessage", "JobQueue"))
                .isFalse();
        assertThat(access.deniedByQueuePolicy("PlanJobsRole", "sqs:ReceiveMessage", "PlanQueue"))
                .isFalse();
        assertThat(access.deniedByQueuePolicy("RunJobRole", "sqs:ReceiveMessage", "PlanQueue"))
                .isTrue();
    }

    // Guards issue 37: the dead-letter queue had no queue policy, and no queue refused plain HTTP.
    @Test
    void queues_shouldRefusePlainHttp_andTheDeadLetterQueueItsReadersButTheRedriveRole() {
        QueueAccess access = new QueueAccess(template);
        Map<String, Map<String, Object>> policies = template.resourcesOfType("AWS::SQS::QueuePolicy");
        assertThat(policies).containsKey("JobDeadLetterQueuePolicy");
        // THEN every queue's policy denies every action over plain HTTP, to every principal
        for (String queue : template.resourcesOfType("AWS::SQS::Queue").keySet()) {
            assertThat(policies.values().stream()
                            .map(policy -> SamTemplate.map(policy.get("Properties")))
                            .filter(p -> SamTemplate.list(p.get("Queues")).contains(Map.of("Ref", queue)))
                            .flatMap(p ->
                                    SamTemplate.list(SamTemplate.map(p.get("PolicyDocument"))
                                                    .get("Statement"))
                                            .stream())
                            .map(SamTemplate::map)
                            .anyMatch(st -> "Deny".equals(st.get("Effect"))
                                    && "*".equals(st.get("Principal"))
                                    && "sqs:*".equals(st.get("Action"))
                                    && Map.of("Fn::GetAtt", List.of(queue, "Arn"))
                                            .equals(st.get("Resource"))
                                    && Map.of("Bool", Map.of("aws:SecureTransport", "false"))
                                            .equals(st.get("Condition"))))
                    .as(queue + ": a Deny of sqs:* when aws:SecureTransport is false")
                    .isTrue();
        }
        // AND no one but the redrive role reads, deletes or moves the dead letters, whatever its own policies grant
        for (String action : List.of(
                "sqs:ReceiveMessage",
                "sqs:DeleteMessage",
                "sqs:ChangeMessageVisibility",
                "sqs:StartMessageMoveTask",
                "sqs:CancelMessageMoveTask")) {
            assertThat(access.deniedByQueuePolicy("SomeAdminRole", action, "JobDeadLetterQueue"))
                    .as(action)
                    .isTrue();
            assertThat(access.deniedByQueuePolicy("RunJobRole", action, "JobDeadLetterQueue"))
                    .as(action)
                    .isTrue();
            assertThat(access.deniedByQueuePolicy("JobRedriveRole", action, "JobDeadLetterQueue"))
                    .as(action)
                    .isFalse();
        }
    }

    // Guards issue 37: SAM's SQS event source attaches the managed AWSLambdaSQSQueueExecutionRole to the role it
    // generates, which allows receiving and deleting on every queue ("*"), besides SQSPollerPolicy's own queue.
    @Test
    void sqsConsumers_shouldRunAsTheirOwnRole_allowedSqsOnlyOnTheStacksQueues() {
        Map<String, Map<String, Object>> queues = template.resourcesOfType("AWS::SQS::Queue");
        QueueAccess access = new QueueAccess(template);
        Map<String, List<String>> consumers = new java.util.TreeMap<>();
        template.resourcesOfType("AWS::Serverless::Function").forEach((name, function) -> {
            Map<String, Object> properties = SamTemplate.map(function.get("Properties"));
            List<String> polled = SamTemplate.map(properties.get("Events")).values().stream()
                    .map(SamTemplate::map)
                    .filter(event -> "SQS".equals(event.get("Type")))
                    .map(event ->
                            logicalId(SamTemplate.map(event.get("Properties")).get("Queue")))
                    .toList();
            if (!polled.isEmpty()) {
                consumers.put(name, polled);
            }
        });
        assertThat(consumers).containsOnlyKeys("PlanJobs", "RunJob");
        consumers.forEach((name, polled) -> {
            Map<String, Object> properties =
                    SamTemplate.map(template.resources().get(name).get("Properties"));
            String roleId = name + "Role";
            // THEN SAM generates no role (and attaches no managed policy): the function names the template's own
            assertThat(properties.get("Role"))
                    .as(name + " Role")
                    .isEqualTo(Map.of("Fn::GetAtt", List.of(roleId, "Arn")));
            assertThat(properties).as(name).doesNotContainKey("Policies");
            Map<String, Object> role = template.resources().get(roleId);
            assertThat(role).as(roleId).isNotNull().containsEntry("Type", "AWS::IAM::Role");
            Map<String, Object> roleProperties = SamTemplate.map(role.get("Properties"));
            assertThat(roleProperties).as(roleId).doesNotContainKey("ManagedPolicyArns");
            // AND every statement names its resources, and every SQS one only queues of this stack
            for (Object policy : SamTemplate.list(roleProperties.get("Policies"))) {
                Map<String, Object> document =
                        SamTemplate.map(SamTemplate.map(policy).get("PolicyDocument"));
                for (Object s : SamTemplate.list(document.get("Statement"))) {
                    Map<String, Object> statement = SamTemplate.map(s);
                    List<Object> resources = values(statement.get("Resource"));
                    assertThat(resources)
                            .as(roleId + " " + statement)
                            .isNotEmpty()
                            .doesNotContain("*");
                    if (values(statement.get("Action")).stream()
                            .anyMatch(a -> String.valueOf(a).startsWith("sqs:"))) {
                        assertThat(resources.stream().map(TemplateTest::logicalId))
                                .as(roleId + " " + statement)
                                .allSatisfy(queue -> assertThat(queues).containsKey(queue));
                    }
                }
            }
            // AND the event source mapping can still poll its queue (the actions Lambda's SQS guide lists)
            for (String queue : polled) {
                for (String action : List.of(
                        "sqs:ReceiveMessage",
                        "sqs:DeleteMessage",
                        "sqs:ChangeMessageVisibility",
                        "sqs:GetQueueAttributes")) {
                    assertThat(access.allows(roleId, action, queue))
                            .as(roleId + " " + action + " " + queue)
                            .isTrue();
                }
            }
        });
    }

    /** {@code !GetAtt X.Arn} is X; anything else is null. */
    private static String logicalId(Object getAtt) {
        List<Object> parts = SamTemplate.list(SamTemplate.map(getAtt).get("Fn::GetAtt"));
        return parts.size() == 2 ? String.valueOf(parts.get(0)) : null;
    }

    /** A policy element that is one value or a list of them. */
    private static List<Object> values(Object element) {
        return element instanceof List<?> ? SamTemplate.list(element) : element == null ? List.of() : List.of(element);
    }

    // Guards issue 37: the redrive role trusted the whole account (arn:...:root), so any principal that its own
    // policy let call sts:AssumeRole could take it.
    @Test
    void redriveRole_shouldTrustOnlyTheNamedOperators() {
        Map<String, Object> operators = template.parameters().get("RedriveOperatorArns");
        assertThat(operators).as("RedriveOperatorArns").isNotNull().containsEntry("Type", "CommaDelimitedList");
        assertThat(operators).doesNotContainKey("Default");
        String pattern = String.valueOf(operators.get("AllowedPattern"));
        assertThat("arn:aws:iam::123456789012:role/oneread-operator").matches(pattern);
        assertThat("arn:aws:iam::123456789012:user/ana").matches(pattern);
        assertThat("arn:aws:iam::123456789012:root").doesNotMatch(pattern);
        assertThat("*").doesNotMatch(pattern);
        List<Object> statements = SamTemplate.list(SamTemplate.map(SamTemplate.map(
                                template.resources().get("JobRedriveRole").get("Properties"))
                        .get("AssumeRolePolicyDocument"))
                .get("Statement"));
        assertThat(statements).hasSize(1);
        assertThat(SamTemplate.map(statements.get(0)).get("Principal"))
                .isEqualTo(Map.of("AWS", Map.of("Ref", "RedriveOperatorArns")));
        // AND start-api, which has no operators, still runs the template
        assertThat(dev.oneread.local.runner.LocalStack.LOCAL_DEFAULTS.get("RedriveOperatorArns"))
                .isNotNull()
                .matches(pattern);
    }

    // Guards issue 37: CursorKeySecret's description named two readers, while five functions read it.
    @Test
    void cursorKeySecret_shouldNameEveryFunctionThatReadsIt() {
        String description =
                String.valueOf(template.parameters().get("CursorKeySecret").get("Description"));
        List<String> readers = template.resourcesOfType("AWS::Serverless::Function").entrySet().stream()
                .filter(f -> SamTemplate.map(
                                SamTemplate.map(SamTemplate.map(f.getValue().get("Properties"))
                                                .get("Environment"))
                                        .get("Variables"))
                        .containsKey("CURSOR_KEY_SECRET"))
                .map(Map.Entry::getKey)
                .toList();
        assertThat(readers).hasSize(5);
        for (String reader : readers) {
            assertThat(description).as("CursorKeySecret's description").containsPattern("\\b" + reader + "\\b");
        }
    }
}
