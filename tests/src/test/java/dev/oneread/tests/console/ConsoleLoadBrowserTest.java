package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.ConsoleLoad;
import dev.oneread.tests.support.OffersLoad;
import dev.oneread.tests.support.TestEngine;
import dev.oneread.tests.support.UsesBrowser;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The console kept open on a large collection while a bulk load writes to it (issue 25, "It froze"): a 2,000-item
 * collection, then 2,000 creates from 4 clients through start-api. What froze the page was work that grows with the
 * collection on every write: fetching it again, or rendering its rows again. So the page is held to the work it
 * does, counted in the page, which no machine's speed changes: the collection fetched once at most, never more rows
 * in the DOM than the window (those on screen and a margin), no row rendered again unless a write changed it; and
 * the last row created is shown. How long it took is printed, for the record; the time budgets are
 * bench/console-load.sh's (a test decides by work, never by the clock: CI machines run at load 10+).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@UsesBrowser
@OffersLoad
class ConsoleLoadBrowserTest {
    private ConsoleLoad console;

    @BeforeAll
    void start() throws Exception {
        console = ConsoleLoad.start(TestEngine.get());
    }

    @AfterAll
    void stop() {
        if (console != null) {
            console.close();
        }
    }

    @Test
    void bulkLoadIntoTheOpenCollection_shouldApplyEachWriteInPlace_andShowTheLastRow() throws Exception {
        // GIVEN the 2,001-item collection open (its workspace and 2,000 projects), every row in the page's model
        // WHEN 4 clients create 2,000 projects in it, all at once
        List<ConsoleLoad.Created> created = console.load();
        ConsoleLoad.Created last = created.stream()
                .max(Comparator.comparingLong(ConsoleLoad.Created::atNanos))
                .orElseThrow();
        // THEN the row count says how many there are now: every write is in the page's model
        console.awaitAllCounted();
        long countedAt = System.nanoTime();
        ConsoleLoad.Figures work = console.figures();
        // AND the last one created is found and shown
        long shownAt = console.findRow(last.id());
        System.out.printf(
                "console under load: %d creates from %d clients into a %d-item collection; all counted %.0f ms after"
                        + " the last response, the last row shown %.0f ms after it; %s%nthe longest frames: %s%n",
                ConsoleLoad.CREATES,
                ConsoleLoad.CLIENTS,
                1 + ConsoleLoad.EXISTING,
                (countedAt - last.atNanos()) / 1e6,
                (shownAt - last.atNanos()) / 1e6,
                work,
                console.longestFrames());
        assertThat(shownAt).as("the last row created, shown by the find box").isNotZero();
        // AND the collection was not fetched again per write (one fetch at most, should the stream have reconnected)
        assertThat(work.collectionFetches()).as("collection fetches").isLessThanOrEqualTo(1);
        // AND the DOM never held more rows than the window, however many the collection has
        assertThat(work.mostRows()).as("the most rows in the DOM at once").isLessThanOrEqualTo(work.windowRows());
        // AND no row was rendered again for a write to another: a <tr> is created only for a row a changed event
        // carried (or, after a reconnect, for the window fetched again)
        assertThat(work.rowsCreated())
                .as("rows rendered while %d came in changed events", work.sseRows())
                .isLessThanOrEqualTo(work.sseRows() + work.collectionFetches() * work.windowRows());
    }
}
