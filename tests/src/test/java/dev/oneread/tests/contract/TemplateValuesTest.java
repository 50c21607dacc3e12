package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.oneread.local.ProjectRoot;
import dev.oneread.local.runner.FunctionSpec;
import dev.oneread.local.runner.LocalStack;
import dev.oneread.local.runner.TemplateFunctions;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.local.template.TemplateParameters;
import dev.oneread.runtime.FunctionConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * template.yaml's parameter constraints take exactly what the functions parse: for each parameter that reaches a
 * function's environment, valid and invalid samples go through both sides (the constraint as CloudFormation checks
 * it, TemplateParameters; every function's init-time reading of its environment, FunctionConfig.check), and the two
 * must agree. CloudFormation's Number takes 1.5 and 1e3 and takes no AllowedPattern, which is why the whole numbers
 * are Strings with a pattern. What no constraint can say (a migrating workspace that is not sharded) the local deploy
 * refuses with the functions' own reading.
 */
class TemplateValuesTest {
    private final Path root = ProjectRoot.find();
    private final SamTemplate template = SamTemplate.load(root.resolve("template.yaml"));

    /** Every parameter that reaches a function, with values on both sides of each rule (issue 38's 500s included). */
    private static final Map<String, List<String>> SAMPLES = Map.of(
            "ProjectQuota",
            List.of(
                    "1",
                    "10000",
                    "2147483647",
                    "1999999999",
                    "2147483639",
                    "0",
                    "-1",
                    "1.5",
                    "1e3",
                    "2147483648",
                    "9999999999",
                    "01",
                    "+5",
                    " 5",
                    "",
                    "ten"),
            "IndexShards",
            List.of("1", "8", "10", "99", "0", "100", "8.5", "1e1", "08", "-8", ""),
            "HotTenantShards",
            List.of(
                    "",
                    "acme=10",
                    "acme=10,globex=4",
                    "acme=2",
                    "acme=99",
                    "a-b=50,c=3",
                    "acme=0",
                    "acme=1",
                    "acme=100",
                    "acme=02",
                    "acme=4,acme=8",
                    "globex=2,acme=4,globex=3",
                    "acme=4,,globex=2",
                    " acme=4",
                    "acme=4,",
                    "Acme=4",
                    "acme",
                    "acme=x",
                    "-acme=4"),
            "HotTenantMigrating",
            List.of("", "acme", "acme,globex", "Acme", "acme,", ",acme", "acme globex", "-acme"),
            "HotTenantProjectsThreshold",
            List.of("1", "5000", "999999999999999999", "0", "1.5", "1e3", "1000000000000000000", "-1", "05", ""),
            "HotTenantBytesThreshold",
            List.of("1", "1073741824", "999999999999999999", "0", "1.5", "1e9", "9223372036854775808", ""),
            "JobPartitionShare",
            List.of("0.25", "1", "0.01", "0.5", "1e-1", "0", "0.001", "1.5", "0.25d", "NaN", "Infinity", "", "x"),
            "ReadAudit",
            List.of("true", "false", "TRUE", "yes", "", "maybe"));

    /**
     * Set with each sample of the key, so that a migrating sample meets the shards it may name: the template's
     * defaults would leave HotTenantMigrating nothing to name.
     */
    private static final Map<String, Map<String, String>> CONTEXT =
            Map.of("HotTenantMigrating", Map.of("HotTenantShards", "acme=4,globex=2"));

    /**
     * Parameters whose function-side check is an AWS call at init, not a parse: CursorKeySecret's ARN is read from
     * Secrets Manager (an ARN that names no secret fails the init there).
     */
    private static final Set<String> CHECKED_BY_AWS = Set.of("CursorKeySecret");

    /**
     * Where the template is stricter than the functions, on purpose (never a 500: CloudFormation refuses first). A job
     * takes any share above 0, since the local runner scales JOB_PARTITION_SHARE with its partition limits (a quarter
     * at --partition-limits=0.01 is 0.0025); a deployed share under a hundredth would make a job crawl.
     */
    private static final Set<String> TEMPLATE_STRICTER = Set.of("JobPartitionShare=0.001");

    @Test
    void samples_shouldCoverEveryParameterThatReachesAFunction() {
        // GIVEN every parameter, set one at a time to a value no default holds
        Set<String> reaching = new TreeSet<>();
        for (String name : template.parameters().keySet()) {
            String marker = "zq7marker";
            boolean reaches = functions(Map.of(name, marker)).values().stream()
                    .anyMatch(spec -> spec.environment().containsValue(marker));
            if (reaches) {
                reaching.add(name);
            }
        }

        // THEN each one that lands in an environment has samples (or is checked by AWS itself)
        assertThat(reaching).isNotEmpty();
        Set<String> covered = new TreeSet<>(SAMPLES.keySet());
        covered.addAll(CHECKED_BY_AWS);
        assertThat(covered).containsAll(reaching);
    }

    @Test
    void templateConstraints_shouldTakeExactlyWhatTheFunctionsParse() {
        // GIVEN each sample, as a deploy would set it
        List<String> disagreements = new ArrayList<>();
        List<String> table = new ArrayList<>();
        SAMPLES.forEach((name, values) -> values.forEach(value -> {
            Map<String, String> overrides = new LinkedHashMap<>(CONTEXT.getOrDefault(name, Map.of()));
            overrides.put(name, value);
            Map<String, String> parameters = LocalStack.parameters(template, overrides);

            // WHEN the template's constraint and the functions' init each judge it
            String byTemplate = TemplateParameters.refusal(template, name, value);
            String byFunctions = functionsRefusal(parameters);
            table.add(name + "=" + value + ": template " + (byTemplate == null ? "takes" : "refuses") + ", functions "
                    + (byFunctions == null ? "take" : "refuse (" + byFunctions + ")"));

            // THEN they agree, except where the functions see two parameters at once (see the next test)
            boolean stricter = TEMPLATE_STRICTER.contains(name + "=" + value);
            if (stricter ? byTemplate == null || byFunctions != null : (byTemplate == null) != (byFunctions == null)) {
                disagreements.add(name + "=\"" + value + "\": template " + (byTemplate == null ? "takes" : byTemplate)
                        + "; functions " + (byFunctions == null ? "take" : byFunctions));
            }
        }));

        assertThat(disagreements).as(String.join("\n", table)).isEmpty();
    }

    @Test
    void deploy_shouldRefuseWhatOnlyTheFunctionsCanSee_aMigratingWorkspaceThatIsNotSharded() {
        // GIVEN a HotTenantMigrating that each pattern takes, naming a workspace HotTenantShards does not list
        Map<String, String> parameters =
                LocalStack.parameters(template, Map.of("HotTenantShards", "acme=4", "HotTenantMigrating", "globex"));
        assertThat(TemplateParameters.refusal(template, "HotTenantMigrating", "globex"))
                .isNull();

        // WHEN the functions read it, and WHEN deploy checks it
        String byFunctions = functionsRefusal(parameters);

        // THEN the functions refuse it at init, and deploy refuses it first, with their words
        assertThat(byFunctions).contains("globex is migrating but has no entry in HotTenantShards");
        assertThatThrownBy(() -> LocalStack.checkParameters(template, parameters))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the functions would fail their init: HotTenantMigrating: globex is migrating but has no"
                        + " entry in HotTenantShards");
    }

    @Test
    void refusal_shouldCheckLengths_asCloudFormationDoes() {
        // GIVEN a parameter with MinLength and MaxLength (none of template.yaml's has them today)
        SamTemplate lengths = SamTemplate.parse(new java.io.StringReader(
                "Parameters:\n  Name:\n    Type: String\n    MinLength: 3\n    MaxLength: 5\n"));

        // THEN values outside them are refused in CloudFormation's words, and the lengths count characters
        assertThat(TemplateParameters.refusal(lengths, "Name", "ab")).isEqualTo("must contain at least 3 characters");
        assertThat(TemplateParameters.refusal(lengths, "Name", "abcdef"))
                .isEqualTo("must contain at most 5 characters");
        assertThat(TemplateParameters.refusal(lengths, "Name", "abc")).isNull();
        assertThat(TemplateParameters.refusal(lengths, "Name", "\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00"))
                .isNull();
    }

    private Map<String, FunctionSpec> functions(Map<String, String> parameters) {
        return new TemplateFunctions(template, root, parameters, Map.of("Table", "oneread")).functions();
    }

    /** The first function's init refusal of these parameters, or null when every function takes them. */
    private String functionsRefusal(Map<String, String> parameters) {
        for (Map.Entry<String, FunctionSpec> function : functions(parameters).entrySet()) {
            try {
                FunctionConfig.check(function.getValue().environment());
            } catch (IllegalStateException refused) {
                return function.getKey() + ": " + refused.getMessage();
            }
        }
        return null;
    }
}
