package dev.oneread.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KeyCodecTest {

    @Test
    void keys_shouldFollowTheSingleTableFormat() {
        WorkspaceId acme = WorkspaceId.of("acme");
        ProjectId project = ProjectId.of("01JDQ6V7K4N3M2P1R0S9T8V7W6");

        assertThat(KeyCodec.workspaceKey(acme)).isEqualTo(new PrimaryKey("WS#acme", "META"));
        assertThat(KeyCodec.projectKey(acme, project))
                .isEqualTo(new PrimaryKey("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"));
        assertThat(KeyCodec.projectSortKeyPrefix()).isEqualTo("PROJ#");
        assertThat(KeyCodec.shardPartition(acme, 1)).isEqualTo("WS#acme#01");
        assertThat(KeyCodec.shardPartition(acme, 10)).isEqualTo("WS#acme#10");
    }

    @Test
    void decode_shouldRoundTripPartitionsShardsAndSortKeys() {
        WorkspaceId acme = WorkspaceId.of("my-acme-2");
        ProjectId project = ProjectId.of("7ZZZZZZZZZZZZZZZZZZZZZZZZZ");

        assertThat(KeyCodec.decodePartition(KeyCodec.workspacePartition(acme)))
                .isEqualTo(new KeyCodec.PartitionRef(acme, 0));
        assertThat(KeyCodec.decodePartition(KeyCodec.shardPartition(acme, 7)))
                .isEqualTo(new KeyCodec.PartitionRef(acme, 7));
        assertThat(KeyCodec.decodeSortKey(KeyCodec.projectSortKey(project)))
                .isEqualTo(new SortKey.ProjectEntry(project));
        assertThat(KeyCodec.decodeSortKey(KeyCodec.workspaceSortKey())).isEqualTo(new SortKey.WorkspaceMeta());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"WS#", "WS#ACME", "WS#acme#1", "WS#acme#00", "WS#acme#01#02", "PROJ#x", "ws#acme", "WS#a#b"})
    void decodePartition_shouldRejectAnythingNotMadeByTheCodec(String partition) {
        assertThatThrownBy(() -> KeyCodec.decodePartition(partition)).isInstanceOf(KeyCodec.InvalidKeyException.class);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "META#",
                "meta",
                "PROJ#",
                "PROJ#01jdq6v7k4n3m2p1r0s9t8v7w6",
                "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6#"
            })
    void decodeSortKey_shouldRejectAnythingNotMadeByTheCodec(String sort) {
        assertThatThrownBy(() -> KeyCodec.decodeSortKey(sort)).isInstanceOf(KeyCodec.InvalidKeyException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"acme#01", "ACME", "", "%23", "-a", "a-", "a_b", "a b", "a.b"})
    void workspaceId_shouldRejectNonSlugs(String id) {
        assertThatThrownBy(() -> WorkspaceId.of(id))
                .isInstanceOf(InvalidIdException.class)
                .hasMessage("workspaceId must be 1-63 lower-case letters, digits or inner hyphens");
    }

    @Test
    void workspaceId_shouldAcceptUpTo63Characters() {
        assertThat(WorkspaceId.of("a".repeat(63)).value()).hasSize(63);
        assertThatThrownBy(() -> WorkspaceId.of("a".repeat(64))).isInstanceOf(InvalidIdException.class);
        assertThatThrownBy(() -> WorkspaceId.of(null)).isInstanceOf(InvalidIdException.class);
    }

    /** Seeded random strings over a wide alphabet: whatever is accepted can never carry a '#'. */
    @RepeatedTest(20)
    void noAcceptedIdCanPutAHashIntoAKey() {
        Random random = new Random(42);
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-#_%/ .é";
        for (int i = 0; i < 5_000; i++) {
            StringBuilder s = new StringBuilder();
            int length = random.nextInt(30);
            for (int j = 0; j < length; j++) {
                s.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String candidate = s.toString();
            try {
                WorkspaceId id = WorkspaceId.of(candidate);
                assertThat(KeyCodec.workspacePartition(id)
                                .chars()
                                .filter(c -> c == '#')
                                .count())
                        .isEqualTo(1);
                assertThat(KeyCodec.decodePartition(KeyCodec.workspacePartition(id))
                                .workspaceId())
                        .isEqualTo(id);
            } catch (InvalidIdException rejected) {
                assertThat(candidate).doesNotMatch("^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$");
            }
        }
    }

    @Test
    void ulid_shouldBeCanonicalFixedWidthAndStrictlyIncreasing_withinOneMillisecond() {
        Clock frozen = Clock.fixed(Instant.parse("2026-12-02T12:00:00Z"), ZoneOffset.UTC);
        Ulid generator = Ulid.withClock(frozen);
        ProjectId previous = generator.next();
        for (int i = 0; i < 10_000; i++) {
            ProjectId next = generator.next();
            assertThat(next.value()).hasSize(26).matches("[0-7][0-9A-HJKMNP-TV-Z]{25}");
            assertThat(next).isGreaterThan(previous);
            assertThat(next.timestampMillis()).isEqualTo(frozen.millis());
            previous = next;
        }
    }

    @Test
    void ulid_shouldEncodeTimeInTheFirstTenCharacters() {
        assertThat(Ulid.encode(0, 0, 0)).isEqualTo("00000000000000000000000000");
        assertThat(Ulid.encode((1L << 48) - 1, 0xFFFF, -1L)).isEqualTo("7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
        assertThat(Ulid.encode(1469918176385L, 0, 0)).startsWith("01ARYZ6S41");
        assertThat(ProjectId.of(Ulid.encode(1469918176385L, 0, 0)).timestampMillis())
                .isEqualTo(1469918176385L);
    }

    @Test
    void ulid_shouldCarryIntoTheHigh16Bits_whenTheLow64Overflow() {
        assertThat(Ulid.encode(0, 0, -1L)).isEqualTo("0000000000000FZZZZZZZZZZZZ");
        assertThat(Ulid.encode(0, 1, 0)).isEqualTo("0000000000000G000000000000");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "01jdq6v7k4n3m2p1r0s9t8v7w6",
                "1JDQ6V7K4N3M2P1R0S9T8V7W6",
                "01JDQ6V7K4N3M2P1R0S9T8V7W6X",
                "81JDQ6V7K4N3M2P1R0S9T8V7W6",
                "01JDQ6V7K4N3M2P1R0S9T8V7WU",
                "01JDQ6V7K4N3M2P1R0S9T8V7WL",
                ""
            })
    void projectId_shouldRejectNonCanonicalUlids(String id) {
        assertThatThrownBy(() -> ProjectId.of(id))
                .isInstanceOf(InvalidIdException.class)
                .hasMessage("projectId must be a 26-character upper-case ULID");
    }
}
