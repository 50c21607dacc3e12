package dev.oneread.tests.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.CreationToken;
import dev.oneread.model.NewProject;
import dev.oneread.model.ProjectStatus;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * The cross-workspace index's data: 1,000 projects over 40 workspaces (one a hot tenant of 10 shards) in a table of
 * their own, written once per JVM for the tests of the index and of its two routes (IndexListingTest,
 * ListProjectsByStatusTest, ListWorkspacesTest), with the requests they make and a brute-force Scan of the table to
 * compare with (the test may scan; the product never does).
 *
 * <p>Shared rather than written per class: 1,000 projects take seconds on a busy machine, and no test needs the data
 * as first written (the listing's random writes are compared with the brute force of the moment; the spread bound holds
 * with them).
 */
public final class IndexedProjects {
    public static final int WORKSPACES = 40;
    public static final int PROJECTS = 1_000;
    public static final int INDEX_SHARDS = 8;
    /** Fixed, so the ids (and with them the index shards) are the same every run: the spread is a figure, not luck. */
    private static final long SEED = 20261203L;

    private static IndexedProjects instance;

    public final TestEngine engine = TestEngine.get();
    public final String table = "index-" + UUID.randomUUID().toString().substring(0, 8);
    public final String hot = "hot-tenant";
    public final ShardPlan plan = ShardPlan.parse(hot + "=10", "");
    public final Api api = new Api(plan, table);
    private final Random random = new Random(SEED);
    private final List<String> workspaces = new ArrayList<>();
    /** Project id to its workspace, for the PATCHes and DELETEs. */
    private final Map<String, String> owner = new LinkedHashMap<>();

    private IndexedProjects() {}

    /** The data, written by the first test that asks for it, with the index caught up. */
    public static synchronized IndexedProjects get() {
        if (instance == null) {
            IndexedProjects loading = new IndexedProjects();
            loading.data();
            instance = loading;
        }
        return instance;
    }

    private void data() {
        for (int w = 0; w < WORKSPACES - 1; w++) {
            workspaces.add(String.format("ix-%02d", w)); // the table is this data's own, so the ids can be fixed
        }
        workspaces.add(hot);
        for (String ws : workspaces) {
            assertThat(api.createWorkspace(ws, "W " + ws).status()).isEqualTo(201);
        }
        // Projects through the store the functions use, with ids from a seeded generator (ULIDs: time, then random)
        ControlPlaneStore store = new ControlPlaneStore(engine.client, engine.pool, table, plan);
        long time = Instant.parse("2026-11-01T00:00:00Z").toEpochMilli();
        for (int i = 0; i < PROJECTS; i++) {
            String ws = workspaces.get(i % 5 == 0 ? WORKSPACES - 1 : random.nextInt(WORKSPACES - 1));
            ProjectId id = ProjectId.of(ulid(time + i * 1_000L));
            ProjectStatus status = ProjectStatus.values()[random.nextInt(3)];
            store.createProject(
                    WorkspaceId.of(ws),
                    id,
                    new NewProject("project " + i, null, status),
                    Instant.ofEpochMilli(time + i * 1_000L),
                    CreationToken.random(),
                    new CallTally());
            owner.put(id.value(), ws);
        }
        // The index trails the table, as DynamoDB's does: every test starts from the index caught up
        try {
            IndexTruth.awaitSettled(engine.client, table);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the index caught up", e);
        }
    }

    private String ulid(long millis) {
        String alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
        StringBuilder out = new StringBuilder();
        for (int i = 9; i >= 0; i--) {
            out.append(alphabet.charAt((int) ((millis >>> (5 * i)) & 31)));
        }
        for (int i = 0; i < 16; i++) {
            out.append(alphabet.charAt(random.nextInt(32)));
        }
        return out.toString();
    }

    /** The workspaces' ids, the hot tenant last. */
    public List<String> workspaces() {
        return List.copyOf(workspaces);
    }

    /** An operator's claims: both index routes are for operators. */
    public static Map<String, Object> operator() {
        return Map.of("sub", "operator-1", "workspaces", "", "scope", "openid oneread/api oneread/admin");
    }

    /** One page of GET /projects?status=... as an operator. */
    public Lambda.Response byStatus(ProjectStatus status, int limit, String cursor) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("status", status.name());
        query.put("limit", Integer.toString(limit));
        if (cursor != null) {
            query.put("cursor", cursor);
        }
        return api.call(
                "ListProjectsByStatus",
                ApiEvent.of("GET", ApiEvent.ALL_PROJECTS).query(query).claims(operator()));
    }

    /** One page of GET /workspaces as an operator. */
    public Lambda.Response workspacesPage(int limit, String cursor) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("limit", Integer.toString(limit));
        if (cursor != null) {
            query.put("cursor", cursor);
        }
        return api.call(
                "ListWorkspaces",
                ApiEvent.of("GET", ApiEvent.WORKSPACES).query(query).claims(operator()));
    }

    /** Every page of a status's listing: the ids in order. */
    public List<String> listAll(ProjectStatus status, int limit, Runnable betweenPages) {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        do {
            Lambda.Response page = byStatus(status, limit, cursor);
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            List<String> pageIds = page.ids("items");
            assertThat(pageIds.size()).isLessThanOrEqualTo(limit);
            cursor = page.nextCursor();
            if (cursor != null) {
                assertThat(pageIds)
                        .as("exact pages of limit, fewer only on the last")
                        .hasSize(limit);
            }
            ids.addAll(pageIds);
            betweenPages.run();
        } while (cursor != null);
        return ids;
    }

    /** The truth, by brute force: every project of the table with this status, newest first. */
    public List<String> bruteForce(ProjectStatus status) {
        return IndexTruth.projects(engine.client, table, status);
    }

    /** A random status change or delete of a random live project, through the API. */
    public void randomWrite() {
        List<String> ids = new ArrayList<>(owner.keySet());
        String id = ids.get(random.nextInt(ids.size()));
        String ws = owner.get(id);
        if (random.nextInt(4) == 0) {
            assertThat(api.deleteProject(ws, id, "*").status()).isEqualTo(204);
            owner.remove(id);
        } else {
            ProjectStatus status = ProjectStatus.values()[random.nextInt(3)];
            Lambda.Response patched = api.patchProject(ws, id, "*", "{\"status\":\"" + status + "\"}");
            assertThat(patched.status()).as(patched.body()).isEqualTo(200);
        }
    }
}
