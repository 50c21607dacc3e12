package dev.oneread.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.oneread.model.ListPosition;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class CursorsTest {
    private static final String ROUTE = "GET /workspaces/{workspaceId}/projects";
    private final Cursors cursors =
            new Cursors("oneread-test-cursor-key-32-bytes".getBytes(StandardCharsets.UTF_8), Clock.systemUTC());

    @Test
    void open_shouldGiveBackTheSealedPosition_sortKeyAndExhaustedPartitions() {
        ListPosition position = new ListPosition("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6", new TreeSet<>(List.of(0, 3, 10)));

        String cursor = cursors.seal(position, "acme", ROUTE);

        assertThat(cursor).matches("^[A-Za-z0-9_-]+$").doesNotContain("PROJ");
        assertThat(cursors.open(cursor, "acme", ROUTE)).isEqualTo(position);
    }

    @Test
    void open_shouldRefuseACursor_whenSealedForAnotherWorkspaceOrRoute() {
        String cursor = cursors.seal(ListPosition.after("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"), "acme", ROUTE);

        assertThatThrownBy(() -> cursors.open(cursor, "globex", ROUTE)).isInstanceOf(Cursors.BadCursorException.class);
        assertThatThrownBy(() -> cursors.open(cursor, "acme", "GET /workspaces/{workspaceId}/collection"))
                .isInstanceOf(Cursors.BadCursorException.class);
    }
}
