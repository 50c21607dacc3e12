package dev.oneread.jobs;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class TaskAdmissionTest {
    private static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");
    private static final WorkspaceId PLAIN = WorkspaceId.of("plain");
    private static final WorkspaceId HOT = WorkspaceId.of("hot");
    private static final WorkspaceId MOVING = WorkspaceId.of("moving");
    private final TaskAdmission admission = new TaskAdmission(ShardPlan.parse("hot=3,moving=2", "moving"));

    @Test
    void check_shouldAdmitEveryTaskThePlannerSends_andNoOtherShard() {
        String run = runAt(NOW);
        for (WorkspaceId ws : new WorkspaceId[] {PLAIN, HOT, MOVING}) {
            for (String job : new String[] {JobTask.STATS, JobTask.PURGE}) {
                for (JobTask sent : JobPlanner.tasksFor(admission.plan(), job, ws, run)) {
                    assertThatCode(() -> admission.check(sent, NOW)).doesNotThrowAnyException();
                }
            }
        }
        assertRefused(new JobTask(JobTask.STATS, PLAIN, 1, run), "not a shard");
        assertRefused(new JobTask(JobTask.STATS, HOT, 0, run), "not a shard");
        assertRefused(new JobTask(JobTask.STATS, HOT, 4, run), "not a shard");
        assertRefused(new JobTask(JobTask.STATS, MOVING, 1, run), "not a shard"); // moving: one task over all
        assertRefused(new JobTask(JobTask.PURGE, HOT, 1, run), "not a shard");
    }

    @Test
    void check_shouldAllowAMinuteOfClockSkew_andRefuseARunFurtherAhead() {
        Duration skew = TaskAdmission.CLOCK_SKEW;
        for (String job : new String[] {JobTask.STATS, JobTask.PURGE}) {
            assertThatCode(() -> admission.check(new JobTask(job, PLAIN, runAt(NOW.plus(skew))), NOW))
                    .doesNotThrowAnyException();
            assertRefused(new JobTask(job, PLAIN, runAt(NOW.plus(skew).plusMillis(1))), "in the future");
        }
    }

    private void assertRefused(JobTask task, String reason) {
        assertThatThrownBy(() -> admission.check(task, NOW))
                .as(task.toString())
                .isInstanceOf(RefusedTaskException.class)
                .hasMessageContaining(reason);
    }

    private static String runAt(Instant time) {
        return Ulid.withClock(Clock.fixed(time, ZoneOffset.UTC)).next().value();
    }
}
