package dev.oneread.tests.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Follows {@code nextCursor} through a list route, as a client does: the first page with the given query, each
 * next one with the same query and the cursor, until a page has none.
 *
 * <pre>{@code
 * List<Lambda.Response> pages = Pages.follow(Map.of("limit", "100"), query -> api.listProjects(ws, query));
 * }</pre>
 */
public final class Pages {
    /** More pages than any test list has: a cursor that never ends fails instead of hanging. */
    private static final int MAX_PAGES = 10_000;

    private Pages() {}

    /** Every page, in order; each must be a 200. */
    public static List<Lambda.Response> follow(
            Map<String, String> query, Function<Map<String, String>, Lambda.Response> fetch) {
        List<Lambda.Response> pages = new ArrayList<>();
        Map<String, String> next = query;
        while (true) {
            Lambda.Response page = fetch.apply(next);
            assertThat(page.status())
                    .as("page %d: %s", pages.size() + 1, page.body())
                    .isEqualTo(200);
            pages.add(page);
            String cursor = page.nextCursor();
            if (cursor == null) {
                return pages;
            }
            assertThat(pages).as("pages before the cursor ran out").hasSizeLessThan(MAX_PAGES);
            next = new LinkedHashMap<>(query);
            next.put("cursor", cursor);
        }
    }

    /** The ids of every page's list field, in page order. */
    public static List<String> ids(List<Lambda.Response> pages, String listField) {
        return pages.stream().flatMap(page -> page.ids(listField).stream()).toList();
    }
}
