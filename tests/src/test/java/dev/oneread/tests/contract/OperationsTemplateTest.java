package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.ProjectRoot;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.local.template.TemplateTables;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.OnDemandThroughput;

/**
 * What template.yaml promises operators (docs/operations.md): every function logs to its own retained log group,
 * shifts its alias gradually with its own alarms as rollback triggers, and every alarm notifies the topic and has
 * its runbook entry, one to one.
 */
class OperationsTemplateTest {
    private static final Pattern RUNBOOK_ENTRY = Pattern.compile("^#{2,6}\\s+(\\w+Alarm)\\s*$");
    /** A row of a runbook section's table of alarms, one per function: its anchor, then the alarm's name. */
    private static final Pattern RUNBOOK_ROW =
            Pattern.compile("^\\|\\s*<a id=\"([a-z0-9]+)\"></a>`(\\w+Alarm)`\\s*\\|");

    private static final Pattern TIMEOUT_SHARE = Pattern.compile("/\\s*(\\d+)\\s*$");
    private static final List<String> ROLLBACK_ALARMS = List.of("ErrorsAlarm", "ThrottlesAlarm", "DurationAlarm");
    /** A route function's fourth rollback alarm: its 5xx answers, which Lambda's Errors metric does not count. */
    private static final String SERVER_ERRORS_ALARM = "ServerErrorsAlarm";

    private final Path root = ProjectRoot.find();
    private final SamTemplate template = SamTemplate.load(root.resolve("template.yaml"));
    private final Map<String, Object> globals =
            SamTemplate.map(SamTemplate.map(template.document().get("Globals")).get("Function"));

    @Test
    void everyFunction_shouldLogJsonToItsOwnLogGroup_withTheRetentionParameter() {
        assertThat(SamTemplate.map(globals.get("LoggingConfig")))
                .containsEntry("LogFormat", "JSON")
                .containsEntry("ApplicationLogLevel", Map.of("Ref", "ApplicationLogLevel"))
                .containsEntry("SystemLogLevel", Map.of("Ref", "SystemLogLevel"));
        Map<String, Map<String, Object>> logGroups = template.resourcesOfType("AWS::Logs::LogGroup");
        Set<Object> used = new TreeSet<>();
        functions().forEach((id, properties) -> {
            Object logGroup = SamTemplate.map(properties.get("LoggingConfig")).get("LogGroup");
            assertThat(logGroup).as(id + " LoggingConfig.LogGroup").isInstanceOf(Map.class);
            Object name = SamTemplate.map(logGroup).get("Ref");
            assertThat(logGroups).as(id + "'s log group").containsKey((String) name);
            assertThat(SamTemplate.map(logGroups.get(name).get("Properties")))
                    .as(id + "'s log group")
                    .containsEntry("RetentionInDays", Map.of("Ref", "LogRetentionDays"));
            assertThat(used.add(name)).as(id + " shares its log group").isTrue();
        });
    }

    @Test
    void everyFunction_shouldShiftItsAliasGradually_rolledBackByItsOwnAlarms() {
        Map<String, Map<String, Object>> alarms = template.resourcesOfType("AWS::CloudWatch::Alarm");
        assertThat(SamTemplate.map(globals.get("DeploymentPreference")))
                .containsEntry("Type", Map.of("Ref", "DeploymentType"));
        functions().forEach((id, properties) -> {
            assertThat(properties.getOrDefault("AutoPublishAlias", globals.get("AutoPublishAlias")))
                    .as(id + " AutoPublishAlias")
                    .isEqualTo("live");
            List<Object> rollback = new ArrayList<>(SamTemplate.list(
                    SamTemplate.map(properties.get("DeploymentPreference")).get("Alarms")));
            boolean route = hasHttpApiEvent(properties);
            List<String> expected = new ArrayList<>(ROLLBACK_ALARMS);
            if (route) {
                expected.add(SERVER_ERRORS_ALARM);
            }
            assertThat(rollback)
                    .as(id + " DeploymentPreference.Alarms")
                    .containsExactlyElementsOf(expected.stream()
                            .map(kind -> Map.of("Ref", id + kind))
                            .toList());
            if (route) {
                // A route's 5xx answer is a success to Lambda: its own metric, by the version that answered.
                String alarm = id + SERVER_ERRORS_ALARM;
                assertThat(alarms).as(id + "'s rollback alarm").containsKey(alarm);
                assertThat(SamTemplate.map(alarms.get(alarm).get("Properties")))
                        .as(alarm)
                        .containsEntry("Namespace", "oneread")
                        .containsEntry("MetricName", "serverError");
                assertThat(dimensions(alarms.get(alarm)))
                        .as(alarm + " watches the version " + id + "'s alias runs")
                        .containsExactly(
                                Map.of("Name", "function", "Value", Map.of("Ref", id)),
                                Map.of(
                                        "Name",
                                        "version",
                                        "Value",
                                        Map.of("Fn::GetAtt", List.of(id, "Version.Version"))));
                rollback.remove(Map.of("Ref", alarm));
            }
            for (Object ref : rollback) {
                String alarm = (String) SamTemplate.map(ref).get("Ref");
                assertThat(alarms).as(id + "'s rollback alarm").containsKey(alarm);
                List<Map<String, Object>> dimensions = dimensions(alarms.get(alarm));
                // The alias, as SAM's safe-deployments guide watches it: the traffic the deployment shifts.
                assertThat(dimensions)
                        .as(alarm + " watches " + id + "'s live alias")
                        .contains(
                                Map.of("Name", "FunctionName", "Value", Map.of("Ref", id)),
                                Map.of("Name", "Resource", "Value", Map.of("Fn::Sub", "${" + id + "}:live")));
                if (!alarm.endsWith("ThrottlesAlarm")) {
                    // ... and of it, the new version: the old one's figures must not hide it.
                    assertThat(dimensions)
                            .as(alarm + " watches the version " + id + "'s alias runs")
                            .contains(Map.of(
                                    "Name",
                                    "ExecutedVersion",
                                    "Value",
                                    Map.of("Fn::GetAtt", List.of(id, "Version.Version"))));
                }
            }
        });
    }

    @Test
    void durationAlarms_shouldDivideByTheirFunctionsOwnTimeout() {
        Map<String, Map<String, Object>> alarms = template.resourcesOfType("AWS::CloudWatch::Alarm");
        functions().forEach((id, properties) -> {
            int timeoutMs = 1000 * ((Number) properties.getOrDefault("Timeout", globals.get("Timeout"))).intValue();
            for (Object query : SamTemplate.list(
                    SamTemplate.map(alarms.get(id + "DurationAlarm").get("Properties"))
                            .get("Metrics"))) {
                Object expression = SamTemplate.map(query).get("Expression");
                if (expression != null) {
                    Matcher divisor = TIMEOUT_SHARE.matcher((String) expression);
                    assertThat(divisor.find())
                            .as(id + "DurationAlarm's expression")
                            .isTrue();
                    assertThat(Integer.parseInt(divisor.group(1)))
                            .as(id + "DurationAlarm's timeout, in ms")
                            .isEqualTo(timeoutMs);
                }
            }
        });
    }

    // The loops' FunctionAlarms mapping (template.yaml) writes each route once more: it must be the route that the
    // function's HttpApi event declares, in the alarms' descriptions and in the OverBudget alarm's route dimension.
    @Test
    void routeAlarms_shouldNameTheRouteTheirFunctionAnswers() {
        Map<String, Map<String, Object>> alarms = template.resourcesOfType("AWS::CloudWatch::Alarm");
        functions().forEach((id, properties) -> {
            if (!hasHttpApiEvent(properties)) {
                return;
            }
            Map<String, Object> event = SamTemplate.map(SamTemplate.map(properties.get("Events")).values().stream()
                    .filter(e -> "HttpApi".equals(SamTemplate.map(e).get("Type")))
                    .findFirst()
                    .map(e -> SamTemplate.map(e).get("Properties"))
                    .orElseThrow());
            String route = event.get("Method") + " " + event.get("Path");
            assertThat(dimensions(alarms.get(id + "OverBudgetAlarm")))
                    .as(id + "OverBudgetAlarm's route")
                    .contains(Map.of("Name", "route", "Value", route));
            for (String kind : List.of("ErrorsAlarm", "ThrottlesAlarm", "DurationAlarm", SERVER_ERRORS_ALARM)) {
                assertThat(String.valueOf(SamTemplate.map(alarms.get(id + kind).get("Properties"))
                                .get("AlarmDescription")))
                        .as(id + kind + "'s description")
                        .startsWith(id + " (" + route + "): ");
            }
        });
    }

    @Test
    void everyAlarm_shouldNotifyTheTopic_onAlarmAndOnOk() {
        assertThat(template.resources().get("AlarmTopic")).containsEntry("Type", "AWS::SNS::Topic");
        template.resourcesOfType("AWS::CloudWatch::Alarm").forEach((id, alarm) -> {
            Map<String, Object> properties = SamTemplate.map(alarm.get("Properties"));
            assertThat(SamTemplate.list(properties.get("AlarmActions")))
                    .as(id + " AlarmActions")
                    .contains(Map.of("Ref", "AlarmTopic"));
            assertThat(SamTemplate.list(properties.get("OKActions")))
                    .as(id + " OKActions")
                    .contains(Map.of("Ref", "AlarmTopic"));
        });
    }

    @Test
    void everyAlarm_shouldHaveItsRunbookEntry_andEveryEntryAnAlarm() throws IOException {
        Map<String, Map<String, Object>> alarms = template.resourcesOfType("AWS::CloudWatch::Alarm");
        Set<String> entries = runbookEntries(root.resolve("docs/operations.md"));

        assertThat(entries).as("runbook entries in docs/operations.md").isEqualTo(new TreeSet<>(alarms.keySet()));
        alarms.forEach((id, alarm) -> assertThat(
                        String.valueOf(SamTemplate.map(alarm.get("Properties")).get("AlarmDescription")))
                .as(id + "'s description links its runbook entry")
                .contains("docs/operations.md#" + id.toLowerCase(java.util.Locale.ROOT)));
    }

    @Test
    void table_shouldBeProtected_andCreatedLocallyWithTheRunsCaps() {
        Map<String, Object> table =
                SamTemplate.map(template.resources().get("Table").get("Properties"));
        assertThat(table).containsEntry("DeletionProtectionEnabled", true);

        // GIVEN the defaults (-1: no cap) THEN the local table has no cap
        assertThat(TemplateTables.from(template).createRequest("Table", "t").onDemandThroughput())
                .isNull();

        // GIVEN a write cap as the default WHEN the runner creates the table THEN the engine gets that cap
        SamTemplate capped = withDefault("TableMaxWriteRequestUnits", "40");
        CreateTableRequest request = TemplateTables.from(capped).createRequest("Table", "t");
        assertThat(request.onDemandThroughput())
                .isEqualTo(
                        OnDemandThroughput.builder().maxWriteRequestUnits(40L).build());

        // GIVEN caps as a run's --parameter-overrides (start-api passes its parameters) THEN the engine gets them
        CreateTableRequest overridden = TemplateTables.from(
                        template, Map.of("TableMaxReadRequestUnits", "4000", "TableMaxWriteRequestUnits", "1000"))
                .createRequest("Table", "t");
        assertThat(overridden.onDemandThroughput())
                .isEqualTo(OnDemandThroughput.builder()
                        .maxReadRequestUnits(4000L)
                        .maxWriteRequestUnits(1000L)
                        .build());
    }

    // Guards issue 37: the HTTP API's stage kept no access log, so a request refused with 401, 403 or 429 (by the
    // authorizer or the throttle, before any function runs) left no trace.
    @Test
    void api_shouldWriteAJsonAccessLog_toARetainedLogGroup() throws IOException {
        Map<String, Object> api =
                SamTemplate.map(template.resources().get("Api").get("Properties"));
        Map<String, Object> settings = SamTemplate.map(api.get("AccessLogSettings"));
        assertThat(settings)
                .as("Api AccessLogSettings")
                .containsEntry("DestinationArn", Map.of("Fn::GetAtt", List.of("ApiAccessLogGroup", "Arn")));
        // THEN each line is one JSON object naming the request, the caller, the route and why it was refused
        Map<String, Object> line = com.fasterxml.jackson.jr.ob.JSON.std.mapFrom(String.valueOf(settings.get("Format")));
        assertThat(line.values())
                .contains(
                        "$context.requestId",
                        "$context.identity.sourceIp",
                        "$context.requestTime",
                        "$context.httpMethod",
                        "$context.routeKey",
                        "$context.status",
                        "$context.protocol",
                        "$context.responseLength",
                        "$context.integrationErrorMessage",
                        "$context.authorizer.error");
        // AND the group keeps its lines as long as the functions' groups keep theirs
        Map<String, Object> group = template.resources().get("ApiAccessLogGroup");
        assertThat(group).as("ApiAccessLogGroup").isNotNull().containsEntry("Type", "AWS::Logs::LogGroup");
        assertThat(SamTemplate.map(group.get("Properties")))
                .containsEntry("RetentionInDays", Map.of("Ref", "LogRetentionDays"));
        // AND operators are told where to look
        assertThat(Files.readString(root.resolve("docs/operations.md"), StandardCharsets.UTF_8))
                .contains("## The access log")
                .contains("ApiAccessLogGroup");
    }

    // Guards issue 37: CloudWatch could use the alarm key on behalf of any account's alarm (a confused deputy).
    @Test
    void alarmKey_shouldLetCloudWatchUseIt_onlyForThisAccountsAlarms() {
        Map<String, Object> policy = SamTemplate.map(
                SamTemplate.map(template.resources().get("AlarmTopicKey").get("Properties"))
                        .get("KeyPolicy"));
        List<Map<String, Object>> cloudWatch = SamTemplate.list(policy.get("Statement")).stream()
                .map(SamTemplate::map)
                .filter(s -> "cloudwatch.amazonaws.com"
                        .equals(SamTemplate.map(s.get("Principal")).get("Service")))
                .toList();
        assertThat(cloudWatch).hasSize(1);
        Map<String, Object> condition = SamTemplate.map(cloudWatch.get(0).get("Condition"));
        assertThat(SamTemplate.map(condition.get("StringEquals")))
                .as("CloudWatch's key statement, StringEquals")
                .containsEntry("aws:SourceAccount", Map.of("Ref", "AWS::AccountId"));
        assertThat(SamTemplate.map(condition.get("ArnLike")))
                .as("CloudWatch's key statement, ArnLike")
                .containsEntry(
                        "aws:SourceArn",
                        Map.of("Fn::Sub", "arn:${AWS::Partition}:cloudwatch:${AWS::Region}:${AWS::AccountId}:alarm:*"));
    }

    private Map<String, Map<String, Object>> functions() {
        Map<String, Map<String, Object>> out = new java.util.LinkedHashMap<>();
        template.resourcesOfType("AWS::Serverless::Function")
                .forEach((id, resource) -> out.put(id, SamTemplate.map(resource.get("Properties"))));
        assertThat(out).isNotEmpty();
        return out;
    }

    private static boolean hasHttpApiEvent(Map<String, Object> properties) {
        return SamTemplate.map(properties.get("Events")).values().stream()
                .anyMatch(event -> "HttpApi".equals(SamTemplate.map(event).get("Type")));
    }

    /** An alarm's dimensions, whether it watches one metric or reads metrics into an expression. */
    private static List<Map<String, Object>> dimensions(Map<String, Object> alarm) {
        Map<String, Object> properties = SamTemplate.map(alarm.get("Properties"));
        List<Map<String, Object>> out = new ArrayList<>();
        SamTemplate.list(properties.get("Dimensions")).forEach(d -> out.add(SamTemplate.map(d)));
        for (Object query : SamTemplate.list(properties.get("Metrics"))) {
            Map<String, Object> metric = SamTemplate.map(
                    SamTemplate.map(SamTemplate.map(query).get("MetricStat")).get("Metric"));
            SamTemplate.list(metric.get("Dimensions")).forEach(d -> out.add(SamTemplate.map(d)));
        }
        return out;
    }

    /**
     * The runbook's entries, outside fenced code: each heading that names an alarm (its GitHub anchor is the name in
     * lower case), and each row of a section's table of alarms, whose anchor must be the name in lower case too.
     */
    private static Set<String> runbookEntries(Path page) throws IOException {
        Set<String> out = new TreeSet<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
            if (line.startsWith("```")) {
                fenced = !fenced;
            }
            Matcher entry = RUNBOOK_ENTRY.matcher(line);
            Matcher row = RUNBOOK_ROW.matcher(line);
            if (!fenced && entry.matches()) {
                assertThat(out.add(entry.group(1)))
                        .as(entry.group(1) + "'s runbook entry, twice")
                        .isTrue();
            } else if (!fenced && row.find()) {
                assertThat(row.group(1))
                        .as(row.group(2) + "'s anchor")
                        .isEqualTo(row.group(2).toLowerCase(java.util.Locale.ROOT));
                assertThat(out.add(row.group(2)))
                        .as(row.group(2) + "'s runbook entry, twice")
                        .isTrue();
            }
        }
        return out;
    }

    private SamTemplate withDefault(String parameter, String value) {
        try {
            String text = Files.readString(root.resolve("template.yaml"), StandardCharsets.UTF_8);
            Matcher block = Pattern.compile("(?m)^  " + parameter + ":\\n(?:    .*\\n)*?    Default: -1\\n")
                    .matcher(text);
            assertThat(block.find()).as(parameter + "'s Default").isTrue();
            String changed = block.group().replace("Default: -1", "Default: " + value);
            return SamTemplate.parse(new StringReader(text.replace(block.group(), changed)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
