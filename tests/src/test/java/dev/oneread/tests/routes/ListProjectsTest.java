package dev.oneread.tests.routes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.http.Cursors;
import dev.oneread.model.ListPosition;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ItemSizes;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Pages;
import dev.oneread.tests.support.Partitions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * GET /workspaces/{workspaceId}/projects (ListProjects): 250 projects paged newest first at one Query a page, the
 * default limit, empty pages, and cursors from another list or with a position that does not fit it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ListProjectsTest {
    private static final int PROJECTS = 250;
    private final Api api = new Api();
    private final String ws = Api.freshWorkspaceId("list");
    private final List<String> created = new ArrayList<>();

    @BeforeAll
    void create250Projects() {
        assertThat(api.createWorkspace(ws, "Big").status()).isEqualTo(201);
        for (int i = 0; i < PROJECTS; i++) {
            Lambda.Response response = api.createProject(ws, "{\"name\":\"project " + i + "\"}");
            assertThat(response.status()).isEqualTo(201);
            created.add((String) response.json().get("id"));
        }
    }

    @ParameterizedTest(name = "limit {0}")
    @ValueSource(ints = {1, 7, 20, 100})
    void listProjects_shouldPageNewestFirstWithoutGapOrDuplicate_atOneQueryPerPage(int limit) {
        // GIVEN the items as stored, read independently, keyed by sort key, to price each page
        Map<String, Map<String, AttributeValue>> stored = new HashMap<>();
        Partitions.items(api.engine.client, "WS#" + ws)
                .forEach(i -> stored.put(i.get("Detail").s(), i));
        List<String> expected = new ArrayList<>(created);
        expected.sort(Comparator.reverseOrder());
        // WHEN every page is fetched
        List<Lambda.Response> pages =
                Pages.follow(Map.of("limit", Integer.toString(limit)), query -> api.listProjects(ws, query));
        // THEN each page is exactly one Query, priced by what it read: its items plus the look-ahead item
        List<String> listed = new ArrayList<>();
        for (int number = 1; number <= pages.size(); number++) {
            Lambda.Response page = pages.get(number - 1);
            List<String> ids = page.ids("items");
            int offset = listed.size();
            List<Map<String, AttributeValue>> read = new ArrayList<>();
            expected.subList(offset, Math.min(expected.size(), offset + limit + 1))
                    .forEach(id -> read.add(stored.get("PROJ#" + id)));
            assertThat(page.dynamoCalls()).as("calls on page %d", number).isEqualTo(1);
            assertThat(page.dynamoCapacity())
                    .as("capacity on page %d", number)
                    .isEqualByComparingTo(ItemSizes.eventuallyConsistentReadUnits(read));
            assertThat(ids).hasSize(page.nextCursor() == null ? expected.size() - offset : limit);
            listed.addAll(ids);
        }
        // THEN newest first, every project once, and no empty trailing page
        assertThat(listed).isEqualTo(expected);
        assertThat(new HashSet<>(listed)).hasSize(PROJECTS);
        assertThat(pages).hasSize((PROJECTS + limit - 1) / limit);
    }

    @Test
    void listProjects_shouldUseTheDefaultLimitOf20() {
        Lambda.Response page = api.listProjects(ws, Map.of());

        @SuppressWarnings("unchecked")
        List<Object> items = (List<Object>) page.json().get("items");
        assertThat(items).hasSize(20);
        assertThat(page.json().get("nextCursor")).isNotNull();
        assertThat(page.dynamoCalls()).isEqualTo(1);
    }

    @Test
    void listProjects_shouldReturnAnEmptyLastPage_forAWorkspaceWithoutProjects() {
        String empty = Api.freshWorkspaceId("empty");
        api.createWorkspace(empty, "Empty");

        Lambda.Response page = api.listProjects(empty, Map.of());

        assertThat(page.json()).containsEntry("items", List.of()).containsEntry("nextCursor", null);
        assertThat(page.dynamoCalls()).isEqualTo(1);
        // A Query that reads no item is billed DynamoDB's minimum read: 0.5, eventually consistent.
        assertThat(page.dynamoCapacity()).isEqualByComparingTo(ItemSizes.eventuallyConsistentReadUnits(List.of()));
    }

    /** As openapi.yaml says (issue 22): one Query, which does not read the workspace item, so no 404 here. */
    @Test
    void listProjects_shouldReturnAnEmptyPage_forAWorkspaceThatDoesNotExist() {
        // GIVEN a workspace id no one created, which the (operator) caller may use
        String unknown = Api.freshWorkspaceId("none");
        // WHEN
        Lambda.Response page = api.listProjects(unknown, Map.of());
        // THEN an empty last page from one Query
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.json()).containsEntry("items", List.of()).containsEntry("nextCursor", null);
        assertThat(page.dynamoCalls()).isEqualTo(1);
    }

    @Test
    void listProjects_shouldReject_aCursorFromAnotherList() {
        // A collection cursor can point at META, which is not a position in the project list.
        Lambda.Response first = api.collection(ws, Map.of("limit", "1"));
        String collectionCursor = first.nextCursor();

        Lambda.Response response = api.listProjects(ws, Map.of("cursor", collectionCursor));

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.dynamoCalls()).isZero();
    }

    // A cursor that authenticates but holds a position that does not fit the list (one only a leaked key could
    // make): the store checks the position again, and the caller gets a 400 without a call.
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
