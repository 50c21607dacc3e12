package dev.oneread.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.KeyCodec;
import dev.oneread.model.ListPosition;
import dev.oneread.store.items.Items;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The fan-out's merge of its partitions' answers into one page (pure: the answers are built here, as DynamoDB
 * returns them; the queries themselves run against the engine in ShardingTest, ListProjectsTest and
 * MigrationTest). Sort keys are single letters; newest first is descending.
 */
class FanOutTest {
    private static final Comparator<String> NEWEST_FIRST = Comparator.reverseOrder();
    private static final Comparator<String> OLDEST_FIRST = Comparator.naturalOrder();
    // merge() makes no call: the fan-out's calls are not needed to test it.
    private final FanOut fanOut = new FanOut(null);

    @Test
    void itemsOfSeveralPartitions_shouldBeMergedInOrder_upToTheLimit_andResumeAfterTheLastEmitted() {
        // GIVEN two partitions answering a page of 3 (each asked for 4: the look-ahead item), neither with more
        Map<Integer, QueryResponse> answers = answers(page("h", "e", "b"), page("g", "d"));
        // WHEN merged
        FanOut.Page page = fanOut.merge(read(answers, 3), 3, NEWEST_FIRST, Set.of(), 2, false);
        // THEN the 3 newest, and the next page starts after the last of them, no partition exhausted yet
        assertThat(sortKeys(page)).containsExactly("h", "g", "e");
        assertThat(page.next()).contains(new ListPosition("e", new TreeSet<>()));
    }

    @Test
    void aPartitionWithMore_shouldBoundThePage_soThatNoneOfItsUnreadItemsIsSkipped() {
        // GIVEN partition 0 answers its look-ahead item (it holds more than the page), partition 1 a few old ones
        Map<Integer, QueryResponse> answers = answers(page("z", "y", "x"), page("c", "b"));
        // WHEN merged with a limit of 2 (3 asked of each)
        FanOut.Page page = fanOut.merge(read(answers, 2), 2, NEWEST_FIRST, Set.of(), 2, false);
        // THEN the page stops at the limit, before partition 0's bound x
        assertThat(sortKeys(page)).containsExactly("z", "y");
        assertThat(page.next()).contains(new ListPosition("y", new TreeSet<>()));

        // WHEN partition 0 had been cut at 1 MB after y (a LastEvaluatedKey, no look-ahead item)
        QueryResponse cut = page("z", "y").toBuilder()
                .lastEvaluatedKey(Map.of(KeyCodec.SORT_KEY, AttributeValue.fromS("y")))
                .build();
        FanOut.Page bounded = fanOut.merge(read(answers(cut, page("x2", "c")), 5), 5, NEWEST_FIRST, Set.of(), 2, false);
        // THEN nothing past y is emitted: x2 of partition 1 waits for the next page, with partition 0's unread items
        assertThat(sortKeys(bounded)).containsExactly("z", "y");
        assertThat(bounded.next()).contains(new ListPosition("y", new TreeSet<>()));
    }

    @Test
    void aPartitionWhoseItemsWereAllEmitted_shouldBeExhausted_andTheLastPageHaveNoNext() {
        // GIVEN an oldest-first list whose partition 1 ends within this page
        Map<Integer, QueryResponse> answers = answers(page("a", "c", "e", "g"), page("b"));
        // WHEN merged with a limit of 3
        FanOut.Page page = fanOut.merge(read(answers, 3), 3, OLDEST_FIRST, Set.of(), 2, false);
        // THEN partition 1 is exhausted: later pages do not query it
        assertThat(sortKeys(page)).containsExactly("a", "b", "c");
        assertThat(page.next()).contains(new ListPosition("c", new TreeSet<>(List.of(1))));

        // WHEN the next page finds the rest of partition 0 (partition 1 not queried)
        FanOut.Page last = fanOut.merge(read(answers(page("e", "g")), 3), 3, OLDEST_FIRST, Set.of(1), 2, false);
        // THEN it is the last
        assertThat(sortKeys(last)).containsExactly("e", "g");
        assertThat(last.next()).isEmpty();
    }

    @Test
    void midMigration_theSameProjectInTwoPartitions_shouldBeEmittedOnce_asTheSourceHoldsIt() {
        // GIVEN the source partition (0) and a shard that both show project d, caught between copy and delete
        Map<String, AttributeValue> atSource = item("d", "source");
        Map<Integer, QueryResponse> answers = new LinkedHashMap<>();
        answers.put(0, QueryResponse.builder().items(List.of(atSource)).build());
        answers.put(
                1,
                QueryResponse.builder()
                        .items(List.of(item("d", "shard"), item("a", "shard")))
                        .build());
        // WHEN merged
        FanOut.Page page = fanOut.merge(read(answers, 5), 5, NEWEST_FIRST, Set.of(), 2, true);
        // THEN d once, the source's copy
        assertThat(page.items()).containsExactly(atSource, item("a", "shard"));
        assertThat(page.next()).isEmpty();
    }

    @Test
    void tombstonesUpToTheBound_shouldGiveAnEmptyPage_thatResumesAfterThem() {
        // GIVEN a shard mid-move whose look-ahead page is tombstones only (projects deleted during the move)
        Map<Integer, QueryResponse> answers = new LinkedHashMap<>();
        answers.put(0, QueryResponse.builder().items(List.of()).build());
        answers.put(
                1,
                QueryResponse.builder()
                        .items(List.of(tombstone("z"), tombstone("y"), tombstone("x")))
                        .build());
        // WHEN merged with a limit of 2
        FanOut.Page page = fanOut.merge(read(answers, 2), 2, NEWEST_FIRST, Set.of(), 2, true);
        // THEN no item, and the next page starts after the last tombstone read
        assertThat(page.items()).isEmpty();
        assertThat(page.next()).contains(new ListPosition("x", new TreeSet<>()));
    }

    @Test
    void firstTake_shouldBeTheShareOfThePageAndThreeDeviations_andTheWholePageForOnePartitionOrMidMigration() {
        // a page of 25 over 10 shards: 2.5 each, plus 3 x 1.58
        assertThat(FanOut.firstTake(25, 10, false)).isEqualTo(8);
        assertThat(FanOut.firstTake(100, 10, false)).isEqualTo(20);
        // never more than the page: a page of 1 over 10 would otherwise ask each for 2, a page of 3 over 2 for 5
        assertThat(FanOut.firstTake(1, 10, false)).isEqualTo(1);
        assertThat(FanOut.firstTake(3, 2, false)).isEqualTo(3);
        // one round of whole pages, as before rounds
        assertThat(FanOut.firstTake(25, 1, false)).isEqualTo(25);
        assertThat(FanOut.firstTake(25, 11, true)).isEqualTo(25);
    }

    @Test
    void nextRound_shouldAskOnlyThePartitionThatHoldsThePage_forWhatThePageLacks_whenOneHoldsEverything() {
        // GIVEN a page of 5 newest first; partition 0 answered its 2 and the look-ahead (it has more), 1 and 2 none
        Map<Integer, FanOut.Reading> readings = new LinkedHashMap<>();
        readings.put(0, FanOut.Reading.of(page("z", "y", "x"), 2));
        readings.put(1, FanOut.Reading.of(page(), 2));
        readings.put(2, FanOut.Reading.of(page(), 2));
        // WHEN THEN partition 0 alone is asked, for the 2 the page lacks (5 less the 3 read)
        assertThat(fanOut.nextRound(readings, 5, NEWEST_FIRST)).containsExactly(Map.entry(0, 2));

        // WHEN it answers those 2 and its look-ahead
        readings.put(0, readings.get(0).then(page("w", "v", "u"), 2));
        // THEN the page is exact: no third round, and the 5 newest with partition 0 still to resume
        assertThat(fanOut.nextRound(readings, 5, NEWEST_FIRST)).isEmpty();
        FanOut.Page page = fanOut.merge(readings, 5, NEWEST_FIRST, Set.of(), 3, false);
        assertThat(sortKeys(page)).containsExactly("z", "y", "x", "w", "v");
        assertThat(page.next()).contains(new ListPosition("v", new TreeSet<>(List.of(1, 2))));
    }

    @Test
    void nextRound_shouldSkipPartitionsWhoseLastItemReadIsPastTheCutOff() {
        // GIVEN a page of 4 oldest first: partition 0 reads a, b, (c) and has more; partition 1 reads d, e, (f)
        // and has more; partition 2 reads g alone and is done. The cut-off, the 4th item read, is d.
        Map<Integer, FanOut.Reading> readings = new LinkedHashMap<>();
        readings.put(0, FanOut.Reading.of(page("a", "b", "c"), 2));
        readings.put(1, FanOut.Reading.of(page("d", "e", "f"), 2));
        readings.put(2, FanOut.Reading.of(page("g"), 2));
        // WHEN THEN only partition 0 (last read c, before d) can still hold items of the page: asked for 1 more
        // (within its bound c are a, b, c: the page lacks 1)
        assertThat(fanOut.nextRound(readings, 4, OLDEST_FIRST)).containsExactly(Map.entry(0, 1));
    }

    @Test
    void nextRound_shouldBeEmpty_whenRoundOneFilledThePage_orNoPartitionHoldsMore() {
        Map<Integer, FanOut.Reading> full = new LinkedHashMap<>();
        full.put(0, FanOut.Reading.of(page("z", "x", "v"), 2));
        full.put(1, FanOut.Reading.of(page("y", "w", "u"), 2));
        assertThat(fanOut.nextRound(full, 4, NEWEST_FIRST)).isEmpty();

        Map<Integer, FanOut.Reading> allRead = new LinkedHashMap<>();
        allRead.put(0, FanOut.Reading.of(page("z"), 2));
        allRead.put(1, FanOut.Reading.of(page("y", "w"), 2));
        assertThat(fanOut.nextRound(allRead, 4, NEWEST_FIRST)).isEmpty();
    }

    private static Map<Integer, QueryResponse> answers(QueryResponse... responses) {
        Map<Integer, QueryResponse> answers = new LinkedHashMap<>();
        for (int i = 0; i < responses.length; i++) {
            answers.put(i, responses[i]);
        }
        return answers;
    }

    /** The answers as the round-1 readings of queries of {@code take} items each (the look-ahead one beyond). */
    private static Map<Integer, FanOut.Reading> read(Map<Integer, QueryResponse> answers, int take) {
        Map<Integer, FanOut.Reading> readings = new LinkedHashMap<>();
        answers.forEach((i, answer) -> readings.put(i, FanOut.Reading.of(answer, take)));
        return readings;
    }

    private static QueryResponse page(String... sortKeys) {
        return QueryResponse.builder()
                .items(Arrays.stream(sortKeys).map(k -> item(k, "p")).toList())
                .build();
    }

    private static Map<String, AttributeValue> item(String sortKey, String where) {
        return Map.of(KeyCodec.SORT_KEY, AttributeValue.fromS(sortKey), "where", AttributeValue.fromS(where));
    }

    private static Map<String, AttributeValue> tombstone(String sortKey) {
        return Map.of(
                KeyCodec.SORT_KEY,
                AttributeValue.fromS(sortKey),
                Items.DELETED_DURING_MOVE,
                AttributeValue.fromBool(true));
    }

    private static List<String> sortKeys(FanOut.Page page) {
        return page.items().stream().map(i -> i.get(KeyCodec.SORT_KEY).s()).toList();
    }
}
