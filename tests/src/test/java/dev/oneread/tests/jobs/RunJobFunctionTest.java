package dev.oneread.tests.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.functions.runjob.RunJobFunction;
import dev.oneread.keys.ShardPlan;
import dev.oneread.model.HotPartitionThreshold;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.store.calls.JobPace;
import dev.oneread.tests.support.Api;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * The worker's dependencies, one record instead of telescoping constructors: {@code of} takes what the function's
 * configuration says, and each {@code with*} replaces its one part and keeps the rest.
 */
class RunJobFunctionTest {
    private final FunctionConfig config = Api.config("RunJob", ShardPlan.none(), "run-job-dependencies");

    @Test
    void of_shouldTakeTheFenceTheThresholdAndTheShareFromTheConfiguration() {
        // WHEN
        RunJobFunction.Dependencies dependencies = RunJobFunction.Dependencies.of(null, () -> null, null, config);

        // THEN
        assertThat(dependencies.config()).isSameAs(config);
        assertThat(dependencies.purgeFence()).isEqualTo(config.purgeFence());
        assertThat(dependencies.hot()).isEqualTo(config.hotPartitionThreshold());
        assertThat(dependencies.share()).isEqualTo(config.jobPartitionShare());
        assertThat(dependencies.clock()).isEqualTo(Clock.systemUTC());
    }

    @Test
    void with_shouldReplaceItsOnePart_andKeepTheRest() {
        // GIVEN
        RunJobFunction.Dependencies of = RunJobFunction.Dependencies.of(null, () -> null, "queue", config);
        Clock clock = Clock.fixed(Instant.parse("2026-12-07T00:00:00Z"), ZoneOffset.UTC);
        HotPartitionThreshold hot = new HotPartitionThreshold(7, 7);
        JobPace.Share share = JobPace.Share.of(0.5);

        // WHEN
        RunJobFunction.Dependencies changed =
                of.withPurgeFence(Duration.ZERO).withHot(hot).withShare(share).withClock(clock);

        // THEN
        assertThat(changed)
                .isEqualTo(new RunJobFunction.Dependencies(
                        of.client(), of.sqs(), "queue", config, Duration.ZERO, hot, share, clock));
        assertThat(of.withClock(clock))
                .isEqualTo(new RunJobFunction.Dependencies(
                        of.client(), of.sqs(), "queue", config, of.purgeFence(), of.hot(), of.share(), clock));
    }
}
