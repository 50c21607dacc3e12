package dev.oneread.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.model.HotPartitionThreshold;
import dev.oneread.model.ProjectQuota;
import dev.oneread.store.calls.JobPace;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FunctionConfigTest {

    @Test
    void from_shouldReadEverySettingFromTheMapItWasGiven_notFromTheProcess() {
        // GIVEN an environment map that sets every setting read after construction
        Map<String, String> environment = Map.of(
                "TABLE_NAME", "oneread",
                "PROJECT_QUOTA", "7",
                "PURGE_FENCE_SECONDS", "3",
                "JOB_PARTITION_SHARE", "0.5",
                "HOT_TENANT_PROJECTS_THRESHOLD", "11",
                "HOT_TENANT_BYTES_THRESHOLD", "13",
                "AWS_SECRET_ACCESS_KEY", "not-for-logs");

        // WHEN
        FunctionConfig config = FunctionConfig.from(environment, "CreateProject");

        // THEN each comes from the map (the process sets none of them)
        assertThat(config.projectQuota()).isEqualTo(new ProjectQuota(7));
        assertThat(config.purgeFence()).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.jobPartitionShare()).isEqualTo(JobPace.Share.of(0.5));
        assertThat(config.hotPartitionThreshold()).isEqualTo(new HotPartitionThreshold(11, 13));
        // and the map, which may hold credentials, stays out of the log
        assertThat(config.toString()).doesNotContain("not-for-logs");
    }

    @Test
    void projectQuota_shouldBeTheTemplatesDefault_whenBuiltWithoutAnEnvironment() {
        FunctionConfig config = new FunctionConfig("GetProject", "oneread", false, (byte[]) null);

        assertThat(config.projectQuota()).isEqualTo(new ProjectQuota(FunctionConfig.DEFAULT_PROJECT_QUOTA));
    }
}
