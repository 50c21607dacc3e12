package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.ProjectRoot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The deploy commands the docs give work with samconfig.toml: they name its environment, keep its parameter list, and
 * a first deploy that fails can be recovered by following docs/deploy.md.
 */
class DeployDocsTest {
    /** A {@code sam deploy} command: a line of a code block, or inline code with arguments (not the tool's name). */
    private static final Pattern SAM_DEPLOY = Pattern.compile("(?m)^\\s*sam deploy\\b.*$|`sam deploy [^`]+`");

    private static final Pattern SET_ME = Pattern.compile("\"(\\w+)=SET-ME[^\"]*\"");

    private final Path root = ProjectRoot.find();

    // Guards issue 37: docs/deploy.md had no recovery steps for a failed first deploy.
    @Test
    void deployGuide_shouldRecoverAFailedFirstDeploy_andListWhatProdNeeds() throws IOException {
        String guide = read("docs/deploy.md");
        String failed = section(guide, "## A failed first deploy");
        assertThat(failed)
                .contains("ROLLBACK_COMPLETE")
                .contains("aws cloudformation delete-stack")
                .contains("DeletionProtection")
                .contains("sam deploy --config-env");
        // AND every value prod leaves to its operator is named where prod's needs are listed
        String prod = section(guide, "## What prod needs");
        Matcher prompt = SET_ME.matcher(read("samconfig.toml"));
        int prompts = 0;
        while (prompt.find()) {
            assertThat(prod).as("What prod needs").contains("`" + prompt.group(1) + "`");
            prompts++;
        }
        assertThat(prompts).isPositive();
    }

    // Guards issue 37: the external-issuer command had no --config-env, passed the Cognito client secret ($SECRET)
    // as the cursor key secret, and replaced samconfig.toml's whole parameter list.
    @Test
    void everySamDeployOfTheDocs_shouldNameItsEnvironment_andKeepSamconfigsList() throws IOException {
        int commands = 0;
        for (String page : List.of("docs/identity.md", "docs/hot-tenants.md", "docs/deploy.md", "README.md")) {
            Matcher command = SAM_DEPLOY.matcher(read(page));
            while (command.find()) {
                String line = command.group();
                assertThat(line).as(page + ": " + line).contains("--config-env");
                assertThat(line).as(page + ": " + line).doesNotContain("--parameter-overrides");
                commands++;
            }
        }
        assertThat(commands).isPositive();
        String external = section(read("docs/identity.md"), "## Mode 2: an external issuer");
        assertThat(external).contains("JwtIssuer=").contains("JwtAudience=").doesNotContain("$SECRET");
        // AND the hot-tenant steps say how deployments really go: the template has a DeploymentPreference
        assertThat(read("docs/hot-tenants.md")).doesNotContain("has no `DeploymentPreference`");
    }

    private String read(String page) throws IOException {
        return Files.readString(root.resolve(page), StandardCharsets.UTF_8);
    }

    /** The text of a section, from its heading to the next heading of its level or above. */
    private static String section(String page, String heading) {
        int start = page.indexOf("\n" + heading + "\n");
        assertThat(start).as(heading).isNotNegative();
        String level = heading.substring(0, heading.indexOf(' ') + 1);
        Matcher next = Pattern.compile("\n#{1," + (level.length() - 1) + "} ").matcher(page);
        int end = next.find(start + heading.length() + 1) ? next.start() : page.length();
        return page.substring(start, end);
    }
}
