package dev.oneread.tests.workspaces;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.CreationToken;
import dev.oneread.model.NewProject;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.RecentWorkspaces;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.exceptions.NotFoundException;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.TestEngine;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * CreateProject reuses a recent read of its workspace (RecentWorkspaces): the workspace item is one partition's,
 * and read by every create it capped a sharded tenant's creates below its shards' ceiling.
 */
class WorkspaceReuseTest {
    private final TestEngine engine = TestEngine.get();
    private final Ulid ids = Ulid.generator();
    /** The reuse's clock, moved by the test instead of waited for. */
    private final AtomicLong nanos = new AtomicLong();

    private ControlPlaneStore store(Duration maxAge) {
        return new ControlPlaneStore(engine.client, null, TestEngine.TABLE, ShardPlan.none())
                .withRecentWorkspaces(new RecentWorkspaces(maxAge, nanos::get));
    }

    private CallTally create(ControlPlaneStore store, String ws) {
        CallTally tally = new CallTally();
        ProjectId id = ids.next();
        store.createProject(
                WorkspaceId.of(ws), id, new NewProject("p", null, null), Instant.now(), CreationToken.random(), tally);
        return tally;
    }

    @Test
    void create_shouldReadItsWorkspaceOncePerMaxAge_andPutEveryTime() {
        // GIVEN a workspace and a store that reuses a read of it for a second
        String ws = Api.freshWorkspaceId("reuse");
        assertThat(new Api().createWorkspace(ws, "Reuse").status()).isEqualTo(201);
        ControlPlaneStore store = store(Duration.ofSeconds(1));

        // WHEN three projects are created within the second, and one more after it
        CallTally first = create(store, ws);
        nanos.addAndGet(Duration.ofMillis(400).toNanos());
        CallTally second = create(store, ws);
        nanos.addAndGet(Duration.ofMillis(599).toNanos());
        CallTally third = create(store, ws);
        nanos.addAndGet(Duration.ofMillis(1).toNanos());
        CallTally afterAge = create(store, ws);

        // THEN the first reads the workspace (an eventually consistent GetItem, 0.5 RCU) and puts (1 WCU, and 1 for the
        // project's GSI1 entry); the next two only put; once the read is a second old, it is read again
        assertThat(first.operations()).containsExactly("GetItem", "PutItem");
        assertThat(first.capacity()).isEqualByComparingTo(new BigDecimal("2.5"));
        assertThat(second.operations()).containsExactly("PutItem");
        assertThat(second.capacity()).isEqualByComparingTo(new BigDecimal("2"));
        assertThat(third.operations()).containsExactly("PutItem");
        assertThat(afterAge.operations()).containsExactly("GetItem", "PutItem");
    }

    @Test
    void create_shouldReadEveryTime_whenReuseIsOff_andNeverKeepAMissingWorkspace() {
        // GIVEN a store with reuse off, and one with reuse on
        String ws = Api.freshWorkspaceId("reuse");
        assertThat(new Api().createWorkspace(ws, "Reuse").status()).isEqualTo(201);
        ControlPlaneStore off = store(Duration.ZERO);
        ControlPlaneStore on = store(Duration.ofSeconds(1));
        String missing = Api.freshWorkspaceId("missing");

        // WHEN reuse is off, THEN every create reads the workspace
        assertThat(create(off, ws).operations()).containsExactly("GetItem", "PutItem");
        assertThat(create(off, ws).operations()).containsExactly("GetItem", "PutItem");
        // AND a missing workspace is refused every time, each time after reading it: a refusal is never reused
        for (int i = 0; i < 2; i++) {
            CallTally tally = new CallTally();
            assertThatThrownBy(() -> on.createProject(
                            WorkspaceId.of(missing),
                            ids.next(),
                            new NewProject("p", null, null),
                            Instant.now(),
                            CreationToken.random(),
                            tally))
                    .isInstanceOf(NotFoundException.class);
            assertThat(tally.operations()).containsExactly("GetItem");
        }
    }
}
