package dev.oneread.tests.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.functions.backfillindex.BackfillIndexFunction;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.CreationToken;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectStatus;
import dev.oneread.model.Workspace;
import dev.oneread.operations.CreateProjectOperation;
import dev.oneread.operations.CreateWorkspaceOperation;
import dev.oneread.operations.OperationContext;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.IndexTruth;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.TestEngine;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/**
 * BackfillIndex against the truth: 500 items written as before the index (no index keys), then the job, run in
 * short invocations that each stop on their deadline and resume, while status changes, deletes and creates keep
 * landing through the API. Afterwards the index lists exactly what a brute-force Scan of the table finds.
 */
class BackfillIndexTest {
    private static final int WORKSPACES = 20;
    private static final int PROJECTS = 480;

    private final TestEngine engine = TestEngine.get();
    private final String table = "backfill-" + UUID.randomUUID().toString().substring(0, 8);
    private final ShardPlan plan = ShardPlan.none();
    private final Api api = new Api(plan, table);
    private final Random random = new Random(7);

    @Test
    void backfill_whileWritesContinue_shouldLeaveTheIndexEqualToTheBruteForce() throws Exception {
        // GIVEN 20 workspaces and 480 projects as written before the index existed: no GSI1PK, no GSI1SK
        OperationContext requests = OperationContext.of(table, plan);
        Instant now = Instant.parse("2026-11-01T00:00:00Z");
        List<String> workspaces = new ArrayList<>();
        Map<String, String> owner = new LinkedHashMap<>();
        Ulid ids = Ulid.generator();
        for (int w = 0; w < WORKSPACES; w++) {
            String ws = String.format("old-%02d", w);
            workspaces.add(ws);
            putWithoutIndexKeys(CreateWorkspaceOperation.generateRequest(
                    requests,
                    new Workspace(WorkspaceId.of(ws), "Old " + w, Map.of(), now, now, 1),
                    CreationToken.random()));
        }
        for (int p = 0; p < PROJECTS; p++) {
            String ws = workspaces.get(p % WORKSPACES);
            ProjectId id = ids.next();
            ProjectStatus status = ProjectStatus.values()[p % 3];
            putWithoutIndexKeys(CreateProjectOperation.generateRequest(
                    requests,
                    new Project(id, WorkspaceId.of(ws), "old " + p, null, status, now, now, 1),
                    CreationToken.random()));
            owner.put(id.value(), ws);
        }
        assertThat(indexEntries()).isZero();
        // AND writes that go on through the API while the job runs
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger writes = new AtomicInteger();
        List<String> live = new ArrayList<>(owner.keySet());
        Thread writer = new Thread(() -> {
            while (!stop.get()) {
                String id = live.get(random.nextInt(live.size()));
                String ws = owner.get(id);
                int what = random.nextInt(10);
                if (what == 0) {
                    api.deleteProject(ws, id, "*");
                } else if (what == 1) {
                    api.createProject(ws, "{\"name\":\"new while backfilling\",\"status\":\"PAUSED\"}");
                } else if (what == 2) {
                    api.patchProject(ws, id, "*", "{\"name\":\"renamed while backfilling\"}");
                } else {
                    api.patchProject(ws, id, "*", "{\"status\":\"" + ProjectStatus.values()[what % 3] + "\"}");
                }
                writes.incrementAndGet();
            }
        });
        writer.start();
        // WHEN the job runs, invocation after invocation, each with 5.4 s left (it stops 5 s before its deadline)
        BackfillIndexFunction job = new BackfillIndexFunction(
                engine.functionClient("BackfillIndex", table), Api.config("BackfillIndex", plan, table));
        Map<String, Object> input = new LinkedHashMap<>();
        int invocations = 0;
        int calls = 0;
        BigDecimal capacity = BigDecimal.ZERO;
        int indexed = 0;
        int scanned = 0;
        Map<String, Object> output;
        do {
            output = Lambda.invokeJob(job, input, 5_400).output();
            invocations++;
            calls += ((Number) output.get("calls")).intValue();
            capacity = capacity.add(new BigDecimal(String.valueOf(output.get("capacity"))));
            indexed += ((Number) output.get("indexed")).intValue();
            scanned += ((Number) output.get("scanned")).intValue();
            input = new LinkedHashMap<>();
            input.put("resumeAfter", output.get("resumeAfter"));
        } while (!Boolean.TRUE.equals(output.get("done")));
        stop.set(true);
        writer.join();
        System.out.printf(
                "backfill: %d invocations, %d items scanned, %d indexed, %d writes meanwhile; %d calls, %s capacity"
                        + " units, %.0f units per 1,000 items scanned%n",
                invocations,
                scanned,
                indexed,
                writes.get(),
                calls,
                capacity.toPlainString(),
                capacity.doubleValue() * 1000 / scanned);
        // THEN it took more than one invocation, and the index lists what the table holds, status by status, once
        // it has caught up with the last writes (it trails the table, as DynamoDB's does)
        assertThat(invocations).isGreaterThan(1);
        assertThat(writes.get()).isPositive();
        IndexTruth.awaitSettled(engine.client, table);
        for (ProjectStatus status : ProjectStatus.values()) {
            assertThat(listed(status)).as(status.name()).isEqualTo(bruteForce(status));
        }
        assertThat(listedWorkspaces()).isEqualTo(workspaces);
        // AND a second run finds nothing left to do
        Map<String, Object> again = Lambda.invokeJob(job, Map.of()).output();
        assertThat(again).containsEntry("indexed", 0).containsEntry("done", true);
    }

    private void putWithoutIndexKeys(PutItemRequest request) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(request.item());
        item.remove(KeyCodec.INDEX_PARTITION_KEY);
        item.remove(KeyCodec.INDEX_SORT_KEY);
        engine.client.putItem(request.toBuilder().item(item).build());
    }

    private int indexEntries() {
        return engine.client
                .scan(ScanRequest.builder()
                        .tableName(table)
                        .indexName(KeyCodec.INDEX_NAME)
                        .build())
                .count();
    }

    private static Map<String, Object> operator() {
        return Map.of("sub", "operator-1", "workspaces", "", "scope", "openid oneread/admin");
    }

    private List<String> listed(ProjectStatus status) {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        do {
            Map<String, String> query = new LinkedHashMap<>(Map.of("status", status.name(), "limit", "100"));
            if (cursor != null) {
                query.put("cursor", cursor);
            }
            Lambda.Response page = api.call(
                    "ListProjectsByStatus",
                    ApiEvent.of("GET", ApiEvent.ALL_PROJECTS).query(query).claims(operator()));
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            ids.addAll(page.ids("items"));
            cursor = page.nextCursor();
        } while (cursor != null);
        return ids;
    }

    private List<String> listedWorkspaces() {
        Lambda.Response page = api.call(
                "ListWorkspaces",
                ApiEvent.of("GET", ApiEvent.WORKSPACES)
                        .query(Map.of("limit", "100"))
                        .claims(operator()));
        assertThat(page.status()).isEqualTo(200);
        return page.ids("items");
    }

    private List<String> bruteForce(ProjectStatus status) {
        return IndexTruth.projects(engine.client, table, status);
    }
}
