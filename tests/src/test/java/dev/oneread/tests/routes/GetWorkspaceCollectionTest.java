package dev.oneread.tests.routes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ItemSizes;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Pages;
import dev.oneread.tests.support.Partitions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * GET /workspaces/{workspaceId}/collection (GetWorkspaceCollection): the workspace then its projects, one Query a
 * page, and no idempotency record among them.
 */
class GetWorkspaceCollectionTest {
    private final Api api = new Api();

    @Test
    @SuppressWarnings("unchecked")
    void collection_shouldReturnWorkspaceThenProjects_atOneQueryPerPage() {
        // GIVEN a workspace with 23 projects
        String ws = Api.freshWorkspaceId("coll");
        api.createWorkspace(ws, "Acme");
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 23; i++) {
            created.add((String)
                    api.createProject(ws, "{\"name\":\"p" + i + "\"}").json().get("id"));
        }
        List<Map<String, AttributeValue>> stored = Partitions.items(api.engine.client, "WS#" + ws);
        Map<String, Map<String, AttributeValue>> bySortKey = new HashMap<>();
        stored.forEach(i -> bySortKey.put(i.get("Detail").s(), i));
        List<String> order = stored.stream().map(i -> i.get("Detail").s()).toList(); // META, then PROJ# ascending
        // WHEN it is read 10 items a page
        List<Lambda.Response> pages = Pages.follow(Map.of("limit", "10"), query -> api.collection(ws, query));
        // THEN one Query per page, priced by the items it read (the page plus the look-ahead item)
        List<Object> workspaces = new ArrayList<>();
        for (int number = 1; number <= pages.size(); number++) {
            Lambda.Response page = pages.get(number - 1);
            if (page.json().get("workspace") != null) {
                workspaces.add(page.json().get("workspace"));
            }
            List<Map<String, AttributeValue>> read = new ArrayList<>();
            int start = (number - 1) * 10;
            order.subList(start, Math.min(order.size(), start + 11)).forEach(k -> read.add(bySortKey.get(k)));
            assertThat(page.dynamoCalls()).isEqualTo(1);
            assertThat(page.dynamoCapacity()).isEqualByComparingTo(ItemSizes.eventuallyConsistentReadUnits(read));
        }
        // THEN the workspace came once, on the first page, and every project once, oldest first
        assertThat(pages).hasSize(3);
        assertThat(workspaces).hasSize(1);
        assertThat(((Map<String, Object>) workspaces.get(0)).get("id")).isEqualTo(ws);
        assertThat(Pages.ids(pages, "projects")).isEqualTo(created);
    }

    @Test
    void collection_shouldReturn404AfterOneCall_whenTheWorkspaceIsMissing() {
        Lambda.Response response = api.collection(Api.freshWorkspaceId("none"), Map.of());

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.dynamoCalls()).isEqualTo(1);
        // The Query found nothing: DynamoDB bills its minimum read, 0.5 eventually consistent.
        assertThat(response.dynamoCapacity()).isEqualByComparingTo(ItemSizes.eventuallyConsistentReadUnits(List.of()));
    }

    @Test
    void idempotencyRecords_shouldNeverShowInReads() {
        String ws = api.newWorkspace();
        api.createProject(ws, "{\"name\":\"p\"}", "key-3");

        Lambda.Response collection = api.collection(ws, Map.of());

        @SuppressWarnings("unchecked")
        List<Object> projects = (List<Object>) collection.json().get("projects");
        assertThat(projects).hasSize(1);
        assertThat(collection.json().get("workspace")).isNotNull();
        assertThat(Partitions.items(api.engine.client, "WS#" + ws)).hasSize(3); // META, PROJ#, IDEM#
    }
}
