package dev.oneread.tests.routes;

import static dev.oneread.tests.support.IndexedProjects.INDEX_SHARDS;
import static dev.oneread.tests.support.IndexedProjects.operator;
import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.functions.listprojectsbystatus.ListProjectsByStatusFunction;
import dev.oneread.json.Json;
import dev.oneread.model.ProjectStatus;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.store.calls.QueryPool;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.EngineProxy;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.IndexedProjects;
import dev.oneread.tests.support.Lambda;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * GET /projects?status= (ListProjectsByStatus) on the cross-workspace index's data (IndexedProjects): every page
 * while random writes land between pages, equal to a brute-force Scan once settled; a page's Queries, one per index
 * shard, all in flight at once; the status required. What both index routes share is IndexListingTest's.
 */
class ListProjectsByStatusTest {
    private final IndexedProjects index = IndexedProjects.get();

    @Test
    void listingByStatus_withWritesBetweenPages_shouldEqualTheBruteForceOnceSettled() throws InterruptedException {
        for (ProjectStatus status : ProjectStatus.values()) {
            // WHEN the status is listed in pages of 37 while 3 random writes land between pages
            List<String> during = index.listAll(status, 37, () -> {
                for (int i = 0; i < 3; i++) {
                    index.randomWrite();
                }
            });
            // THEN no project appears twice, even while it moves
            assertThat(new HashSet<>(during)).hasSameSizeAs(during);
        }
        for (ProjectStatus status : ProjectStatus.values()) {
            // AND once the index has caught up with the writes (it trails the table, as DynamoDB's does: the wait is
            // on the listing's own answer), each listing equals the brute force: none missing, duplicated or stale
            List<String> truth = index.bruteForce(status);
            Eventually.await(() -> index.listAll(status, 50, () -> {}).equals(truth), Eventually.FAILSAFE);
            List<String> settled = index.listAll(status, 50, () -> {});
            assertThat(settled).as(status.name()).isEqualTo(truth);
            System.out.println("index listing " + status + ": " + settled.size() + " projects = brute force");
        }
    }

    @Test
    void aPage_shouldCostOneQueryPerIndexShard_allInFlightAtOnce() throws Exception {
        // GIVEN 150 ms between function and engine, so that queries overlap visibly (as in ShardingTest)
        try (EngineProxy network = EngineProxy.withLatency(index.engine.endpoint, Duration.ofMillis(150))) {
            ListProjectsByStatusFunction function = new ListProjectsByStatusFunction(
                    DynamoDbClients.local(network.endpoint(), List.of()),
                    QueryPool.create(),
                    Api.config("ListProjectsByStatus", index.plan, index.table));
            ApiEvent event = ApiEvent.of("GET", ApiEvent.ALL_PROJECTS)
                    .query(Map.of("status", "ACTIVE", "limit", "25"))
                    .claims(operator());
            Lambda.invoke(function, event); // warm: connections and class loading
            Lambda.Response page = Lambda.invoke(function, event);
            Map<String, Object> log = Json.readObject(page.logLines().get(0));
            assertThat(page.status()).isEqualTo(200);
            // Round 1 asks every shard for its share and a margin, all at once; a second round (rarely) asks again
            // only the shards that can still reach the page.
            assertThat(page.dynamoCalls()).isBetween(INDEX_SHARDS, 2 * INDEX_SHARDS);
            assertThat(log.get("calls")).isEqualTo(page.dynamoCalls());
            assertThat(log.get("maxInFlight")).isEqualTo(INDEX_SHARDS);
            assertThat(page.ids("items")).hasSize(25);
            System.out.println("GET /projects page of 25: " + page.dynamoCalls() + " calls, " + log.get("maxInFlight")
                    + " in flight, " + page.dynamoCapacity() + " RCU");
        }
    }

    @Test
    void status_shouldBeRequiredAndKnown() {
        for (Map<String, String> query :
                List.<Map<String, String>>of(Map.of(), Map.of("status", "active"), Map.of("status", "DONE"))) {
            Lambda.Response response = index.api.call(
                    "ListProjectsByStatus",
                    ApiEvent.of("GET", ApiEvent.ALL_PROJECTS).query(query).claims(operator()));
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.dynamoCalls()).isZero();
        }
    }
}
