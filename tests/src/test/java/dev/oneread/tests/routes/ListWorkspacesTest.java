package dev.oneread.tests.routes;

import static dev.oneread.tests.support.IndexedProjects.INDEX_SHARDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.IndexedProjects;
import dev.oneread.tests.support.Lambda;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * GET /workspaces (ListWorkspaces) on the cross-workspace index's data (IndexedProjects): every workspace, in id order,
 * across pages. What both index routes share is IndexListingTest's.
 */
class ListWorkspacesTest {
    private final IndexedProjects index = IndexedProjects.get();

    @Test
    void workspaces_shouldAllBeListedInIdOrder_acrossPagesOf7() {
        List<String> listed = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Lambda.Response page = index.workspacesPage(7, cursor);
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            // One Query per shard on the first page's first round; later pages skip the shards the list has
            // exhausted. A second round, when the first fell short, asks only shards that can still reach the page.
            if (pages == 0) {
                assertThat(page.dynamoCalls()).isBetween(INDEX_SHARDS, 2 * INDEX_SHARDS);
            } else {
                assertThat(page.dynamoCalls()).isBetween(1, 2 * INDEX_SHARDS);
            }
            listed.addAll(page.ids("items"));
            cursor = page.nextCursor();
            pages++;
        } while (cursor != null);
        assertThat(listed).isEqualTo(index.workspaces().stream().sorted().toList());
        assertThat(pages).isEqualTo(6); // 40 = 5 pages of 7 and one of 5
    }
}
