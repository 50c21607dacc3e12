package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.ACME;
import static dev.oneread.operations.RequestFixtures.CONTEXT;
import static dev.oneread.operations.RequestFixtures.PROJECT;
import static dev.oneread.operations.RequestFixtures.SHARDED;
import static dev.oneread.operations.RequestFixtures.key;
import static dev.oneread.operations.RequestFixtures.projectsQuery;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * {@link ListProjectsOperation}'s requests, built in full by hand and compared whole (moved from
 * ControlPlaneRequestsTest).
 */
class ListProjectsOperationTest {
    @Test
    void listProjects_shouldSendADescendingBeginsWithQuery_withOneLookAheadItem() {
        QueryRequest expected = projectsQuery("WS#acme", false).limit(21).build();

        assertThat(ListProjectsOperation.generateRequest(CONTEXT, ACME, 20, Optional.empty()))
                .isEqualTo(expected);
    }

    @Test
    void listProjects_shouldResumeAfterTheCursorProject_inTheSameWorkspace() {
        QueryRequest expected = projectsQuery("WS#acme", false)
                .limit(6)
                .exclusiveStartKey(key("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                .build();

        assertThat(ListProjectsOperation.generateRequest(CONTEXT, ACME, 5, Optional.of(PROJECT)))
                .isEqualTo(expected);
    }

    @Test
    void listProjectsIn_shouldQueryOneShard_resumingInThatShard() {
        QueryRequest expected = projectsQuery("WS#acme#07", false)
                .limit(11)
                .exclusiveStartKey(key("WS#acme#07", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                .build();

        assertThat(ListProjectsOperation.generateRequestIn(
                        SHARDED, "WS#acme#07", 10, Optional.of("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")))
                .isEqualTo(expected);
    }
}
