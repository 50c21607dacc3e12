package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.OtherClient;
import dev.oneread.tests.support.StartsProcesses;
import dev.oneread.tests.support.TestEngine;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The console's heat endpoint against the real guard, no page open: a key asked for far more than its partition's
 * limit reads above 100% offered (what was asked: accepted plus what the throttled writes would have consumed), with
 * less accepted; and its five minutes stay listed after the burst, when "most accessed" (one interval) is empty.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@StartsProcesses
class ConsoleHeatHistoryTest {
    private static final int REFUSED = 10;

    private final TestEngine engine = TestEngine.withLimits(OtherClient.HOT_KEY_SCALE);
    private final String table = "heat-history-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("heat-history");
    private LocalApi api;

    @BeforeAll
    void start() throws Exception {
        api = LocalApi.start(engine, table, Map.of());
    }

    @AfterAll
    void stop() {
        if (api != null) {
            api.close();
        }
    }

    @Test
    void throttledKey_readsAboveItsLimitOffered_andStaysInTheHistory_afterMostAccessedEmptied() throws Exception {
        // GIVEN no console open (nothing watches the event stream)
        // WHEN one partition key value takes 100 units, then is asked 10 x 390 units it cannot serve
        int throttled;
        try (DynamoDbClient client = OtherClient.at(engine.endpoint)) {
            throttled = OtherClient.hotKey(client, table, "WS#" + ws, REFUSED);
        }
        assertThat(throttled).isEqualTo(REFUSED);
        long burstEnded = System.currentTimeMillis();
        // AND the burst has ended: a reading after it no longer lists the tenant as most accessed
        Eventually.await(
                () -> {
                    Map<String, Object> heat = heat();
                    return heat.get("at") instanceof Number at
                            && at.longValue() > burstEnded
                            && group(heat.get("mostAccessed")) == null
                            && group(history(heat)) != null;
                },
                Eventually.FAILSAFE);
        // THEN the history still has it: its peak offered share is above 100% of the partition's limit, and above
        // the share accepted in that same second; its throttles are counted
        Map<String, Object> kept = group(history(heat()));
        assertThat(kept).as("the tenant's five minutes").isNotNull();
        double offered = ((Number) kept.get("peakOfferedPercent")).doubleValue();
        double accepted = ((Number) kept.get("acceptedPercentAtPeak")).doubleValue();
        assertThat(offered).isGreaterThan(100);
        assertThat(offered).isGreaterThan(accepted);
        assertThat(((Number) kept.get("throttled")).longValue()).isEqualTo(REFUSED);
        // AND its points: one a second, offered never below accepted, the burst's second among them
        List<?> offeredPoints = (List<?>) kept.get("offered");
        List<?> acceptedPoints = (List<?>) kept.get("accepted");
        assertThat(offeredPoints).hasSameSizeAs(acceptedPoints).isNotEmpty();
        for (int i = 0; i < offeredPoints.size(); i++) {
            assertThat(((Number) offeredPoints.get(i)).doubleValue())
                    .isGreaterThanOrEqualTo(((Number) acceptedPoints.get(i)).doubleValue());
        }
        assertThat(offeredPoints.stream()
                        .mapToDouble(p -> ((Number) p).doubleValue())
                        .max()
                        .orElseThrow())
                .isGreaterThan(0);
    }

    private Map<String, Object> heat() {
        try {
            HttpResponse<String> response = api.send("GET", "/_console/api/heat", null, List.of(), false);
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            return Json.readObject(response.body());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object history(Map<String, Object> heat) {
        return heat.get("history") instanceof Map<?, ?> h ? h.get("groups") : null;
    }

    /** The tenant's entry in a list of groups, or null. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> group(Object groups) {
        if (!(groups instanceof List<?> list)) {
            return null;
        }
        return list.stream()
                .map(g -> (Map<String, Object>) g)
                .filter(g -> "tenant".equals(g.get("kind")) && Objects.equals(ws, g.get("name")))
                .findFirst()
                .orElse(null);
    }
}
