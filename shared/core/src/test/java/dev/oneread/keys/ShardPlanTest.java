package dev.oneread.keys;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Where a project is looked for, and which partitions a list reads, before, during and after a move. */
class ShardPlanTest {
    private static final WorkspaceId ACME = WorkspaceId.of("acme");
    /** CRC-32 of this id puts it in shard 3 of 4. */
    private static final ProjectId PROJECT = ProjectId.of("01JDQ6V7K4N3M2P1R0S9T8V7W6");

    private static final PrimaryKey UNSHARDED = new PrimaryKey("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6");
    private static final PrimaryKey SHARD_3 = new PrimaryKey("WS#acme#03", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6");

    @Test
    void locate_shouldGiveOneKey_outsideAMove() {
        assertThat(ShardPlan.none().locate(ACME, PROJECT)).isEqualTo(ProjectLocation.at(UNSHARDED));
        assertThat(ShardPlan.parse("acme=4", "").locate(ACME, PROJECT)).isEqualTo(ProjectLocation.at(SHARD_3));
    }

    @Test
    void locate_shouldTryTheUnshardedKeyFirst_thenTheShardConsistently_duringAMove() {
        ProjectLocation location = ShardPlan.parse("acme=4", "acme").locate(ACME, PROJECT);

        assertThat(location.keys()).containsExactly(UNSHARDED, SHARD_3);
        assertThat(location.home()).isEqualTo(SHARD_3);
        assertThat(location.readConsistently(UNSHARDED)).isFalse();
        assertThat(location.readConsistently(SHARD_3)).isTrue();
        assertThat(location.after(UNSHARDED)).containsExactly(SHARD_3);
        assertThat(location.after(SHARD_3)).isEmpty();
    }

    @Test
    void projectPartitions_shouldListTheSourceFirst_onlyDuringAMove() {
        List<String> shards = List.of("WS#acme#01", "WS#acme#02", "WS#acme#03", "WS#acme#04");

        assertThat(ShardPlan.none().projectPartitions(ACME)).isEqualTo(new ListPartitions(List.of("WS#acme"), false));
        assertThat(ShardPlan.parse("acme=4", "").projectPartitions(ACME)).isEqualTo(new ListPartitions(shards, false));
        assertThat(ShardPlan.parse("acme=4", "acme").projectPartitions(ACME))
                .isEqualTo(new ListPartitions(
                        List.of("WS#acme", "WS#acme#01", "WS#acme#02", "WS#acme#03", "WS#acme#04"), true));
    }

    @Test
    void collectionPartitions_shouldAlwaysStartWithTheWorkspacesOwn() {
        assertThat(ShardPlan.none().collectionPartitions(ACME))
                .isEqualTo(new ListPartitions(List.of("WS#acme"), false));
        assertThat(ShardPlan.parse("acme=2", "").collectionPartitions(ACME))
                .isEqualTo(new ListPartitions(List.of("WS#acme", "WS#acme#01", "WS#acme#02"), false));
        assertThat(ShardPlan.parse("acme=2", "acme").collectionPartitions(ACME))
                .isEqualTo(new ListPartitions(List.of("WS#acme", "WS#acme#01", "WS#acme#02"), true));
    }
}
