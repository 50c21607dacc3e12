package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.oneread.local.ProjectRoot;
import dev.oneread.local.template.SamTemplate;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * template.yaml writes its per-function log groups and alarms once, in {@code Fn::ForEach} loops
 * ({@code AWS::LanguageExtensions}); the local template reader expands them as CloudFormation does, so the runner,
 * the IAM checks and the alarm tests read every resource the stack will have. The expansion must equal the
 * resources as they were written out one by one before the loops (the snapshot {@link ExpandedResources#SNAPSHOT}):
 * the same logical ids, each with the same declaration.
 */
class ExpandedTemplateTest {
    /** A cap parameter's default when there is no cap (WriteReservedConcurrency, TableMaxReadRequestUnits, ...). */
    private static final Object NO_CAP = -1;

    private static final String CFN_LINT = "cfn-lint";
    private static final Map<String, Object> IGNORE_E3034 = Map.of("ignore_checks", List.of("E3034"));

    private final Path root = ProjectRoot.find();

    @Test
    void expandedResources_shouldEqualTheResourcesWrittenOutBeforeTheLoops() throws IOException {
        SamTemplate template = SamTemplate.load(root.resolve("template.yaml"));
        Map<String, Object> expanded = ExpandedResources.parsed(ExpandedResources.of(template));
        Map<String, Object> snapshot = ExpandedResources.parsed(
                Files.readString(root.resolve(ExpandedResources.SNAPSHOT), StandardCharsets.UTF_8));

        assertThat(expanded.keySet()).as("logical ids").containsExactlyInAnyOrderElementsOf(snapshot.keySet());
        snapshot.forEach(
                (id, declaration) -> assertThat(expanded.get(id)).as(id).isEqualTo(declaration));
    }

    @Test
    void template_shouldDeclareEachFunctionsAlarmsOnce_inLoops() throws IOException {
        String text = Files.readString(root.resolve("template.yaml"), StandardCharsets.UTF_8);
        // GIVEN the transform that expands the loops, before SAM's
        assertThat(text).contains("Transform: [AWS::LanguageExtensions, AWS::Serverless-2016-10-31]");
        // THEN no route's or job's alarm is written out by hand: each comes from its loop's one fragment
        assertThat(text)
                .contains("Fn::ForEach::RouteFunctionAlarms:", "Fn::ForEach::JobFunctionAlarms:")
                .doesNotContain("  CreateWorkspaceErrorsAlarm:", "  RunJobDurationAlarm:");
        // AND the reader sees each of them
        assertThat(SamTemplate.load(root.resolve("template.yaml")).resources())
                .containsKeys("CreateWorkspaceErrorsAlarm", "GetWorkspaceCollectionOverBudgetAlarm", "RunJobLogGroup");
    }

    /**
     * cfn-lint 1.51, with AWS::LanguageExtensions, puts each parameter's default in place of its Ref in Resources
     * before SAM's transform, so a "no cap" default of -1 stands as a literal in the Fn::If branch its condition never
     * takes, and E3034 (out of range) reports it. Only those resources turn E3034 off, each for itself: anywhere else
     * the check still runs.
     */
    @Test
    void cfnLintE3034_shouldBeOff_onlyOnTheResourcesWhereANoCapDefaultStandsInAnFnIfBranch() {
        SamTemplate template = SamTemplate.load(root.resolve("template.yaml"));
        // GIVEN the parameters whose default, -1, means "no cap"
        Set<String> noCap = new TreeSet<>();
        template.parameters().forEach((name, parameter) -> {
            if (NO_CAP.equals(parameter.get("Default"))) {
                noCap.add(name);
            }
        });
        assertThat(noCap).as("no-cap parameters").isNotEmpty();
        // THEN the template turns no cfn-lint check off for itself
        assertThat(SamTemplate.map(template.document().get("Metadata")))
                .as("template Metadata")
                .doesNotContainKey(CFN_LINT);
        // AND E3034, alone, is off exactly on the resources with an Fn::If branch that Refs such a parameter
        Set<String> off = new TreeSet<>();
        Set<String> withNoCapBranch = new TreeSet<>();
        template.resources().forEach((id, resource) -> {
            Map<String, Object> lint =
                    SamTemplate.map(SamTemplate.map(resource.get("Metadata")).get(CFN_LINT));
            if (!lint.isEmpty()) {
                assertThat(lint).as(id + " cfn-lint Metadata").isEqualTo(Map.of("config", IGNORE_E3034));
                off.add(id);
            }
            if (refsInFnIf(resource.get("Properties")).stream().anyMatch(noCap::contains)) {
                withNoCapBranch.add(id);
            }
        });
        assertThat(off).as("resources that turn E3034 off").isNotEmpty().isEqualTo(withNoCapBranch);
    }

    /** The names each Fn::If branch under value Refs directly. */
    private static Set<String> refsInFnIf(Object value) {
        Set<String> out = new TreeSet<>();
        if (value instanceof Map<?, ?> map) {
            if (map.size() == 1 && map.get("Fn::If") instanceof List<?> choice) {
                choice.stream()
                        .skip(1)
                        .map(branch -> SamTemplate.map(branch).get("Ref"))
                        .filter(String.class::isInstance)
                        .forEach(ref -> out.add((String) ref));
            }
            map.values().forEach(v -> out.addAll(refsInFnIf(v)));
        } else if (value instanceof List<?> list) {
            list.forEach(v -> out.addAll(refsInFnIf(v)));
        }
        return out;
    }

    @Test
    void reader_shouldExpandALoop_asCloudFormationDoes() {
        SamTemplate template = SamTemplate.parse(new StringReader("""
                Transform: [AWS::LanguageExtensions, AWS::Serverless-2016-10-31]
                Mappings:
                  Routes:
                    Get: {Path: /a, Periods: 3}
                    Put: {Path: /b-c, Periods: 1}
                Resources:
                  Fn::ForEach::Alarms:
                    - Name
                    - [Get, Put]
                    - ${Name}Alarm:
                        Type: AWS::CloudWatch::Alarm
                        Properties:
                          AlarmDescription: !Sub
                            - "${Name} (${Path}): ${!Literal} ${Name}"
                            - Path: !FindInMap [Routes, !Ref Name, Path]
                          Plain: ${Name} stays
                          Function: !Ref {Fn::Sub: "${Name}"}
                          Identifier: !Ref Name
                          Alias: !Sub "${${Name}}:live"
                          Version: !GetAtt [!Sub "${Name}", Version.Version]
                          EvaluationPeriods: !FindInMap [Routes, !Ref Name, Periods]
                          Unknown: !FindInMap [Routes, !Ref Name, Other, {DefaultValue: none}]
                          Cap: !If [Capped, !Ref Name, !Ref AWS::NoValue]
                      "&{Name}Sub":
                        Type: AWS::SNS::Topic
                """));

        Map<String, Map<String, Object>> resources = template.resources();
        assertThat(resources).containsOnlyKeys("GetAlarm", "GetSub", "PutAlarm", "PutSub");
        assertThat(SamTemplate.map(resources.get("PutAlarm").get("Properties")))
                .containsEntry("AlarmDescription", "Put (/b-c): ${Literal} Put")
                .containsEntry("Plain", "${Name} stays")
                .containsEntry("Function", Map.of("Ref", "Put"))
                .containsEntry("Identifier", "Put")
                .containsEntry("Alias", Map.of("Fn::Sub", "${Put}:live"))
                .containsEntry("Version", Map.of("Fn::GetAtt", List.of("Put", "Version.Version")))
                .containsEntry("EvaluationPeriods", 1)
                .containsEntry("Unknown", "none")
                .containsEntry("Cap", Map.of("Fn::If", List.of("Capped", "Put", Map.of("Ref", "AWS::NoValue"))));
    }

    @Test
    void reader_shouldExpandNestedLoops_overAMappedCollection_inConditionsAndResources() {
        SamTemplate template = SamTemplate.parse(new StringReader("""
                Transform: [AWS::LanguageExtensions, AWS::Serverless-2016-10-31]
                Mappings:
                  Loops:
                    Queues: {Names: [Jobs, Plans]}
                Conditions:
                  Fn::ForEach::Flags:
                    - Queue
                    - [Jobs]
                    - Has${Queue}: !Equals [!Ref Mode, enabled]
                Resources:
                  Fn::ForEach::Queues:
                    - Queue
                    - !FindInMap [Loops, Queues, Names]
                    - Fn::ForEach::Alarms:
                        - Kind
                        - [Age, Depth]
                        - ${Queue}${Kind}Alarm:
                            Type: AWS::CloudWatch::Alarm
                            Condition: CreateQueues
                            DependsOn: !Sub "${Queue}Queue"
                            Properties:
                              QueueName: !GetAtt [!Sub "${Queue}Queue", QueueName]
                """));

        assertThat(template.resources())
                .containsOnlyKeys("JobsAgeAlarm", "JobsDepthAlarm", "PlansAgeAlarm", "PlansDepthAlarm");
        assertThat(template.resources().get("PlansDepthAlarm"))
                .containsEntry("Condition", "CreateQueues")
                .containsEntry("DependsOn", "PlansQueue")
                .containsEntry(
                        "Properties", Map.of("QueueName", Map.of("Fn::GetAtt", List.of("PlansQueue", "QueueName"))));
        assertThat(SamTemplate.map(template.document().get("Conditions")))
                .containsOnlyKeys("HasJobs")
                .containsEntry("HasJobs", Map.of("Fn::Equals", List.of(Map.of("Ref", "Mode"), "enabled")));
    }

    @Test
    void reader_shouldRefuseALoop_thatMakesAResourceTwice() {
        String twice = """
                Transform: AWS::LanguageExtensions
                Resources:
                  Fn::ForEach::Topics:
                    - Name
                    - [A, A]
                    - ${Name}Topic:
                        Type: AWS::SNS::Topic
                """;
        assertThatThrownBy(() -> SamTemplate.parse(new StringReader(twice)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ATopic a second time");
    }
}
