package dev.oneread.tests.index;

import static dev.oneread.tests.support.IndexedProjects.INDEX_SHARDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.KeyCodec;
import dev.oneread.model.ProjectStatus;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.IndexedProjects;
import dev.oneread.tests.support.Lambda;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/**
 * The cross-workspace index itself, on its data (IndexedProjects): its entries spread over the index shards, and what
 * its two routes share (a tenant's token refused, a cursor bound to its status and route). Each route's own tests are
 * in routes/: ListProjectsByStatusTest and ListWorkspacesTest.
 */
class IndexListingTest {
    private final IndexedProjects index = IndexedProjects.get();

    @Test
    void indexShards_shouldEachHoldAtMostOneAndAHalfTimesTheirFairShare() {
        // GIVEN the index partition key of every item (the dump of the index's partitions)
        Map<String, Map<String, Integer>> perStatus = new TreeMap<>();
        Map<String, AttributeValue> start = null;
        do {
            var page = index.engine.client.scan(ScanRequest.builder()
                    .tableName(index.table)
                    .indexName(KeyCodec.INDEX_NAME)
                    .exclusiveStartKey(start)
                    .build());
            for (Map<String, AttributeValue> entry : page.items()) {
                String partition = entry.get(KeyCodec.INDEX_PARTITION_KEY).s();
                String key = partition.substring(0, partition.lastIndexOf('#'));
                perStatus.computeIfAbsent(key, k -> new TreeMap<>()).merge(partition, 1, Integer::sum);
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        // THEN every key is spread over all 8 shards, none above 1.5x its fair share
        assertThat(perStatus.keySet()).containsExactly("STATUS#ACTIVE", "STATUS#ARCHIVED", "STATUS#PAUSED", "WSREG");
        perStatus.forEach((key, shards) -> {
            int total = shards.values().stream().mapToInt(Integer::intValue).sum();
            double fair = total / (double) INDEX_SHARDS;
            int max = shards.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
            System.out.printf(
                    "index spread %-16s %4d entries, per shard %s, max %.2fx fair share%n",
                    key, total, shards.values(), max / fair);
            if (!key.equals("WSREG")) { // 40 workspaces over 8 shards is too few for a ratio to mean much
                assertThat(shards).hasSize(INDEX_SHARDS);
                assertThat(max / fair).as(key).isLessThanOrEqualTo(1.5);
            }
        });
    }

    @Test
    void aTenantToken_shouldGet403WithNoCall_onBothRoutes() {
        Map<String, Object> tenant = Map.of("sub", "user-1", "workspaces", index.hot, "scope", "openid oneread/api");
        for (Lambda.Response response : List.of(
                index.api.call(
                        "ListProjectsByStatus",
                        ApiEvent.of("GET", ApiEvent.ALL_PROJECTS)
                                .query(Map.of("status", "ACTIVE"))
                                .claims(tenant)),
                index.api.call(
                        "ListWorkspaces",
                        ApiEvent.of("GET", ApiEvent.WORKSPACES).claims(tenant)))) {
            assertThat(response.status()).isEqualTo(403);
            assertThat(response.dynamoCalls()).isZero();
        }
    }

    @Test
    void aCursor_shouldBeRefusedOnAnotherStatusOrRoute() {
        String active = index.byStatus(ProjectStatus.ACTIVE, 5, null).nextCursor();
        String registry = index.workspacesPage(5, null).nextCursor();
        Lambda.Response otherStatus = index.byStatus(ProjectStatus.PAUSED, 5, active);
        Lambda.Response otherRoute = index.workspacesPage(5, active);
        Lambda.Response backwards = index.byStatus(ProjectStatus.ACTIVE, 5, registry);
        for (Lambda.Response refused : List.of(otherStatus, otherRoute, backwards)) {
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.dynamoCalls()).isZero();
        }
        assertThat(index.byStatus(ProjectStatus.ACTIVE, 5, active).status()).isEqualTo(200);
    }
}
