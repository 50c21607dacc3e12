package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.ProjectRoot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/jobs.md says what a workspace being purged still answers, as {@code PurgeTest} finds it. Issue 37: the docs
 * said every write into it is refused at once, while a project's PATCH answered 200 and its DELETE 204 until the
 * sweep. Refusing them would double every point write's calls, so the docs now say exactly what is allowed and why;
 * {@code PurgeTest.projectWrites_whileTheWorkspaceIsPurged_shouldBeAnsweredAsDocumented_andLeaveNothingAfterTheSweep}
 * holds the API to the same answers.
 */
class PurgeDocsTest {
    @Test
    void jobsGuide_shouldSayWhatAPurgedWorkspacesProjectsStillAnswer_andWhy() throws IOException {
        String guide = Files.readString(ProjectRoot.find().resolve("docs/jobs.md"), StandardCharsets.UTF_8)
                .replaceAll("\\s+", " ");
        // THEN it never claims that every write is refused at once
        assertThat(Pattern.compile("(?i)every (other )?write into it,? (is|are) refused at once")
                        .matcher(guide)
                        .find())
                .as("docs/jobs.md claims that every write into a workspace being purged is refused at once")
                .isFalse();
        // AND it names the answers PurgeTest asserts, until the sweep and after it, and the reason
        assertThat(guide)
                .contains("a project's PATCH (200) and DELETE (204)")
                .contains("until the purge deletes them")
                .contains("after it, 404")
                .contains("doubling their calls")
                .contains("a PATCH or DELETE never creates an item");
    }
}
