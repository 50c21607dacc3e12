package dev.oneread.tests.listing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.http.Cursors;
import dev.oneread.model.ListPosition;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Lambda;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A cursor that authenticates but holds a position that does not fit the list (one only a leaked key could
 * make): the store checks the position again, and the caller gets a 400 without a call.
 */
class CursorPositionTest {
    private final Api api = new Api();

    @Test
    void list_shouldBe400_whenThePositionNamesAPartitionTheListDoesNotRead() {
        // GIVEN an unsharded workspace: its list reads one partition, index 0
        String ws = Api.freshWorkspaceId("position");
        api.createWorkspace(ws, "Position");
        String cursor = new Cursors(Api.CURSOR_KEY, Clock.systemUTC())
                .seal(
                        new ListPosition("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6", new TreeSet<>(Set.of(0, 5))),
                        ws,
                        "GET /workspaces/{workspaceId}/projects");
        // WHEN
        Lambda.Response response = api.listProjects(ws, Map.of("cursor", cursor));
        // THEN
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.contentType()).isEqualTo("application/problem+json");
        assertThat(response.dynamoCalls()).isZero();
    }
}
