package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.ProjectRoot;
import dev.oneread.local.template.SamTemplate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * .github/workflows/deploy.yml deploys one environment at a time, and only the commit that is main's head when its
 * turn comes: a run of an older commit that was slower through the tests must not deploy over a newer one.
 */
class DeployWorkflowTest {
    private static final String HEAD = "0123456789abcdef0123456789abcdef01234567";
    private static final String OLDER = "fedcba9876543210fedcba9876543210fedcba98";

    private final Path root = ProjectRoot.find();
    private final Map<String, Object> job = SamTemplate.map(
            SamTemplate.map(SamTemplate.map(SamTemplate.load(root.resolve(".github/workflows/deploy.yml"))
                                    .document())
                            .get("jobs"))
                    .get("deploy"));

    @TempDir
    Path temp;

    @Test
    void deploys_shouldQueuePerEnvironment_neverCancellingOneUnderWay() {
        Map<String, Object> concurrency = SamTemplate.map(job.get("concurrency"));
        assertThat(String.valueOf(concurrency.get("group"))).contains("${{ inputs.environment }}");
        assertThat(concurrency).containsEntry("cancel-in-progress", false);
    }

    // Guards issue 37: pushes to main were not serialized, so an older commit could deploy after a newer one.
    @Test
    void deploy_shouldRunOnlyWhenTheCommitIsStillTheHeadOfMain() throws Exception {
        List<Map<String, Object>> steps = SamTemplate.list(job.get("steps")).stream()
                .map(SamTemplate::map)
                .toList();
        int guard = indexOf(steps, "head");
        int deploy = steps.size() - 1;
        assertThat(guard).as("a step with id: head").isNotNegative();
        assertThat(String.valueOf(steps.get(deploy).get("run"))).startsWith("sam deploy");
        // THEN the check runs after the build (the slow part) and right before the deploy, inside the queue
        assertThat(guard).isEqualTo(deploy - 1);
        assertThat(steps.get(deploy)).containsEntry("if", "steps.head.outputs.current == 'true'");
        Map<String, Object> check = steps.get(guard);
        Map<String, Object> env = SamTemplate.map(check.get("env"));
        assertThat(env)
                .containsEntry("GH_TOKEN", "${{ github.token }}")
                .containsEntry("REPOSITORY", "${{ github.repository }}")
                .containsEntry("COMMIT", "${{ github.sha }}");
        String script = String.valueOf(check.get("run"));
        assertThat(script).contains("gh api \"repos/$REPOSITORY/commits/main\" --jq .sha");
        // AND the script says current=true for main's head, and current=false for an older commit
        assertThat(run(script, HEAD, HEAD)).isEqualTo("current=true");
        assertThat(run(script, HEAD, OLDER)).isEqualTo("current=false");
    }

    /** Runs the step's script as bash runs it in the job, with {@code gh} answering {@code head} as main's sha. */
    private String run(String script, String head, String commit) throws IOException, InterruptedException {
        Path bin = Files.createDirectories(temp.resolve("bin-" + commit));
        Path gh = bin.resolve("gh");
        Files.writeString(gh, "#!/bin/sh\necho " + head + "\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(gh, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path output = temp.resolve("output-" + commit);
        Files.writeString(output, "");
        ProcessBuilder builder = new ProcessBuilder("bash", "-e", "-c", script).redirectErrorStream(true);
        builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        builder.environment().put("GITHUB_OUTPUT", output.toString());
        builder.environment().put("REPOSITORY", "oneread/oneread");
        builder.environment().put("COMMIT", commit);
        Process process = builder.start();
        String log = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as(log).isZero();
        return Files.readString(output).strip();
    }

    private static int indexOf(List<Map<String, Object>> steps, String id) {
        for (int i = 0; i < steps.size(); i++) {
            if (id.equals(steps.get(i).get("id"))) {
                return i;
            }
        }
        return -1;
    }
}
