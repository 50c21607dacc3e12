package dev.oneread.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.oneread.model.ListPosition;
import dev.oneread.runtime.CursorKeys;
import dev.oneread.store.exceptions.InvalidCursorException;
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

        assertThatThrownBy(() -> cursors.open(cursor, "globex", ROUTE)).isInstanceOf(InvalidCursorException.class);
        assertThatThrownBy(() -> cursors.open(cursor, "acme", "GET /workspaces/{workspaceId}/collection"))
                .isInstanceOf(InvalidCursorException.class);
    }

    private static CursorKeys.Key key(int id) {
        byte[] bytes = new byte[32];
        java.util.Arrays.fill(bytes, (byte) id);
        return new CursorKeys.Key(id, bytes);
    }

    /** A clock the test moves on, for the refresh intervals. */
    private static final class Moving extends Clock {
        java.time.Instant now = java.time.Instant.parse("2026-12-02T12:00:00Z");

        @Override
        public java.time.ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public java.time.Instant instant() {
            return now;
        }
    }

    @Test
    void rotation_shouldKeepThePreviousKeysCursorsOpen_whileTheNewKeySealsNewOnes() {
        // GIVEN the secret before a rotation (key 1), and after it (key 2 current, key 1 previous)
        Moving clock = new Moving();
        java.util.concurrent.atomic.AtomicReference<CursorKeys> secret =
                new java.util.concurrent.atomic.AtomicReference<>(new CursorKeys(key(1), List.of()));
        Cursors before = new Cursors(secret::get, clock);
        String old = before.seal(ListPosition.after("META"), "acme", ROUTE);
        secret.set(new CursorKeys(key(2), List.of(key(1))));
        Cursors after = new Cursors(secret::get, clock);
        // WHEN
        String fresh = after.seal(ListPosition.after("META"), "acme", ROUTE);
        // THEN the function that loaded the new secret opens both; the one still on the old secret loads it again
        // when it meets a cursor of the unknown key 2 (at most every 10 s), and opens it too
        assertThat(after.open(old, "acme", ROUTE)).isEqualTo(ListPosition.after("META"));
        assertThat(after.open(fresh, "acme", ROUTE)).isEqualTo(ListPosition.after("META"));
        clock.now = clock.now.plusSeconds(11);
        assertThat(before.open(fresh, "acme", ROUTE)).isEqualTo(ListPosition.after("META"));
        // AND once key 1 is dropped (after the cursor lifetime), a cursor of key 1 is a bad cursor
        secret.set(new CursorKeys(key(2), List.of()));
        clock.now = clock.now.plus(Cursors.REFRESH).plusSeconds(1);
        assertThatThrownBy(() -> after.open(old, "acme", ROUTE)).isInstanceOf(InvalidCursorException.class);
    }

    @Test
    void open_shouldRefuseACursorWhoseKeyIdWasChanged() {
        Cursors two = new Cursors(() -> new CursorKeys(key(2), List.of(key(1))), Clock.systemUTC());
        byte[] raw = java.util.Base64.getUrlDecoder().decode(two.seal(ListPosition.after("META"), "acme", ROUTE));
        raw[0] = 1; // names the other valid key: the associated data no longer matches

        String forged = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(raw);

        assertThatThrownBy(() -> two.open(forged, "acme", ROUTE)).isInstanceOf(InvalidCursorException.class);
    }

    @Test
    void parse_shouldReadTheSecretsJson_andRefuseAnythingElse() {
        String key = java.util.Base64.getEncoder().encodeToString(new byte[32]);
        CursorKeys keys = CursorKeys.parse(
                "{\"current\":{\"id\":7,\"key\":\"" + key + "\"},\"previous\":[{\"id\":6,\"key\":\"" + key + "\"}]}");

        assertThat(keys.current().id()).isEqualTo(7);
        assertThat(keys.byId(6)).isPresent();
        assertThatThrownBy(() -> CursorKeys.parse("{\"current\":{\"id\":7,\"key\":\"c2hvcnQ=\"}}"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageNotContaining("c2hvcnQ");
    }
}
