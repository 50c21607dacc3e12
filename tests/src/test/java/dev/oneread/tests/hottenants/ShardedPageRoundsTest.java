package dev.oneread.tests.hottenants;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.oneread.functions.getworkspacecollection.GetWorkspaceCollectionFunction;
import dev.oneread.functions.listprojects.ListProjectsFunction;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.CreationToken;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectStatus;
import dev.oneread.operations.CreateProjectOperation;
import dev.oneread.operations.OperationContext;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.store.calls.QueryPool;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.BulkLoad;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.ItemSizes;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Pages;
import dev.oneread.tests.support.TestEngine;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * A hot tenant's list page in rounds (FanOut): round 1 asks every shard for its share of the page and a margin, a
 * second round only the shards that can still reach the page, for what it lacks. Projects are placed in chosen
 * shards (ids drawn until CRC-32 puts them there, written as the store writes them), so each test knows which
 * items every Query reads and what it costs on DynamoDB (ItemSizes), and holds the pages to the unsharded order.
 */
class ShardedPageRoundsTest {
    /** A Query that returns nothing is billed DynamoDB's minimum read, 0.5 units (the engine's guard bills it too). */
    private static final BigDecimal EMPTY_QUERY = ItemSizes.eventuallyConsistentReadUnits(List.of());

    private static final int SHARDS = 10;
    private static final int PAGE = 25;
    /** What round 1 asks of each of 10 shards for a page of 25: 2.5 and 3 deviations of it (FanOut#firstTake). */
    private static final int ROUND_ONE_TAKE = 8;

    private final Instant now = Instant.parse("2026-12-06T12:00:00Z");

    /** Every Query one function sent, with what it answered, in the order they completed. */
    private static final class QueryLog implements ExecutionInterceptor {
        record Call(String partition, int limit, boolean resumed, List<Map<String, AttributeValue>> items) {}

        final List<Call> calls = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
            if (context.request() instanceof QueryRequest q && context.response() instanceof QueryResponse r) {
                calls.add(new Call(
                        q.expressionAttributeValues().get(":er").s(), q.limit(), q.hasExclusiveStartKey(), r.items()));
            }
        }

        List<Call> takeAll() {
            synchronized (calls) {
                List<Call> all = List.copyOf(calls);
                calls.clear();
                return all;
            }
        }
    }

    /** The read units DynamoDB bills these calls: each Query by the size of what it read, at least one read. */
    private static BigDecimal billed(List<QueryLog.Call> calls) {
        return calls.stream()
                .map(c -> ItemSizes.eventuallyConsistentReadUnits(c.items())) // an empty answer: the minimum, 0.5
                .reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    private static String shard(String ws, int shard) {
        return "WS#" + ws + "#" + (shard < 10 ? "0" : "") + shard;
    }

    /** A tenant whose projects lie where {@code shardsOldestFirst} says (1-based), loaded as the store writes them. */
    private record Tenant(
            String ws, ShardPlan plan, List<ProjectId> newestFirst, List<Map<String, AttributeValue>> items) {
        List<String> ids() {
            return newestFirst.stream().map(ProjectId::value).toList();
        }

        /** The items newest first, {@code from} to {@code to} (exclusive) in that order. */
        List<Map<String, AttributeValue>> newest(int from, int to) {
            List<Map<String, AttributeValue>> newestFirst = new ArrayList<>(items);
            Collections.reverse(newestFirst);
            return newestFirst.subList(from, to);
        }
    }

    private Tenant tenant(Api api, String ws, int shards, int[] shardsOldestFirst) {
        ShardPlan plan = ShardPlan.parse(ws + "=" + shards, "");
        assertThat(api.createWorkspace(ws, "Rounds").status()).isEqualTo(201);
        OperationContext requests = OperationContext.of(api.table, plan);
        Ulid ulids = Ulid.generator();
        List<ProjectId> ids = new ArrayList<>();
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int i = 0; i < shardsOldestFirst.length; i++) {
            ProjectId id;
            do {
                id = ulids.next();
            } while (plan.shardOf(WorkspaceId.of(ws), id) != shardsOldestFirst[i]);
            ids.add(id);
            Project project = new Project(id, WorkspaceId.of(ws), "p" + i, null, ProjectStatus.ACTIVE, now, now, 1);
            items.add(CreateProjectOperation.generateRequest(requests, project, CreationToken.random())
                    .item());
        }
        BulkLoad.putAll(api.engine.client, api.table, items);
        List<ProjectId> newestFirst = new ArrayList<>(ids);
        Collections.reverse(newestFirst);
        return new Tenant(ws, plan, newestFirst, items);
    }

    private static ListProjectsFunction listing(Api api, ShardPlan plan, ExecutionInterceptor interceptor) {
        return new ListProjectsFunction(
                DynamoDbClients.local(api.engine.endpoint, List.of(interceptor)),
                QueryPool.create(),
                Api.config("ListProjects", plan));
    }

    /** Every page of a list route of {@code ws} from {@code query} on, as a client follows them. */
    private static List<Lambda.Response> follow(
            RequestStreamHandler function, String route, String ws, Map<String, String> query) {
        return Pages.follow(
                query,
                q -> Lambda.invoke(
                        function,
                        ApiEvent.of("GET", route).path("workspaceId", ws).query(q)));
    }

    private static Lambda.Response page(ListProjectsFunction list, String ws, int limit, String cursor) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("limit", Integer.toString(limit));
        if (cursor != null) {
            query.put("cursor", cursor);
        }
        return Lambda.invoke(
                list,
                ApiEvent.of("GET", ApiEvent.PROJECTS).path("workspaceId", ws).query(query));
    }

    @Test
    void allProjectsInOneShard_shouldCostRoundOneAndOneQueryForWhatThePageLacks_thenOneQueryAPage() {
        // GIVEN 60 projects, every one in shard 4 of 10
        Api api = new Api();
        Tenant t = tenant(
                api,
                Api.freshWorkspaceId("skew"),
                SHARDS,
                IntStream.range(0, 60).map(i -> 4).toArray());
        QueryLog log = new QueryLog();
        ListProjectsFunction list = listing(api, t.plan(), log);
        // WHEN the first page of 25
        Lambda.Response first = page(list, t.ws(), PAGE, null);
        // THEN the 25 newest, from round 1 (10 shards asked for 8 and the look-ahead: 9 empty, shard 4 answers 9)
        // and round 2 (shard 4 alone, after its 9th, for the 16 the page lacks and the look-ahead: 17)
        List<QueryLog.Call> calls = log.takeAll();
        assertThat(first.ids("items")).isEqualTo(t.ids().subList(0, 25));
        assertThat(first.dynamoCalls()).isEqualTo(11);
        assertThat(calls.stream().filter(c -> !c.resumed()))
                .hasSize(10)
                .allSatisfy(c -> assertThat(c.limit()).isEqualTo(ROUND_ONE_TAKE + 1));
        assertThat(calls.stream().filter(QueryLog.Call::resumed))
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.partition()).isEqualTo(shard(t.ws(), 4));
                    assertThat(c.limit()).isEqualTo(25 - 9 + 1);
                });
        BigDecimal expected = ItemSizes.eventuallyConsistentReadUnits(t.newest(0, 9))
                .add(ItemSizes.eventuallyConsistentReadUnits(t.newest(9, 26)))
                .add(EMPTY_QUERY.multiply(BigDecimal.valueOf(9)));
        assertThat(first.dynamoCapacity()).isEqualByComparingTo(expected).isEqualByComparingTo(billed(calls));
        System.out.println("all in one shard, page 1 of 25: " + first.dynamoCalls() + " calls, "
                + first.dynamoCapacity() + " RCU (a full fan-out: 10 calls, "
                + ItemSizes.eventuallyConsistentReadUnits(t.newest(0, 26)) + " RCU read and 9 empty Queries)");

        // WHEN the next pages: the 9 empty shards are exhausted, so each is 1 Query of the whole page, as unsharded
        Lambda.Response second = page(list, t.ws(), PAGE, first.nextCursor());
        assertThat(second.ids("items")).isEqualTo(t.ids().subList(25, 50));
        assertThat(log.takeAll())
                .singleElement()
                .satisfies(c -> assertThat(c.limit()).isEqualTo(PAGE + 1));
        assertThat(second.dynamoCapacity())
                .isEqualByComparingTo(ItemSizes.eventuallyConsistentReadUnits(t.newest(25, 51)));
        Lambda.Response last = page(list, t.ws(), PAGE, second.nextCursor());
        assertThat(last.ids("items")).isEqualTo(t.ids().subList(50, 60));
        assertThat(last.nextCursor()).isNull();
        assertThat(last.dynamoCalls()).isEqualTo(1);
    }

    @Test
    void emptyShards_shouldEachCostOneMinimumRead_onlyOnTheirFirstPage() {
        Api api = new Api();
        // GIVEN a hot tenant with no project at all
        Tenant none = tenant(api, Api.freshWorkspaceId("empty"), SHARDS, new int[0]);
        QueryLog log = new QueryLog();
        Lambda.Response empty = page(listing(api, none.plan(), log), none.ws(), PAGE, null);
        // THEN one round: 10 Queries that read nothing, each billed the minimum read, and no cursor
        assertThat(empty.ids("items")).isEmpty();
        assertThat(empty.nextCursor()).isNull();
        assertThat(empty.dynamoCalls()).isEqualTo(SHARDS);
        assertThat(empty.dynamoCapacity()).isEqualByComparingTo(EMPTY_QUERY.multiply(BigDecimal.valueOf(SHARDS)));
        assertThat(log.takeAll()).hasSize(SHARDS);

        // GIVEN 30 projects in shards 2, 5 and 9 only, in turn (7 shards empty)
        int[] three = {2, 5, 9};
        Tenant sparse = tenant(
                api,
                Api.freshWorkspaceId("sparse"),
                SHARDS,
                IntStream.range(0, 30).map(i -> three[i % 3]).toArray());
        ListProjectsFunction list = listing(api, sparse.plan(), log);
        // WHEN the first page of 25
        Lambda.Response first = page(list, sparse.ws(), PAGE, null);
        // THEN one round suffices: each of the 3 answers 9 (8 and the look-ahead), the page is their 25 newest
        List<QueryLog.Call> calls = log.takeAll();
        assertThat(first.ids("items")).isEqualTo(sparse.ids().subList(0, 25));
        assertThat(first.dynamoCalls()).isEqualTo(SHARDS);
        assertThat(calls).allSatisfy(c -> assertThat(c.limit()).isEqualTo(ROUND_ONE_TAKE + 1));
        assertThat(calls.stream().filter(c -> !c.items().isEmpty())).hasSize(3);
        assertThat(first.dynamoCapacity()).isEqualByComparingTo(billed(calls));
        // WHEN the last page: the 7 empty shards are exhausted and not asked again
        Lambda.Response last = page(list, sparse.ws(), PAGE, first.nextCursor());
        assertThat(last.ids("items")).isEqualTo(sparse.ids().subList(25, 30));
        assertThat(last.nextCursor()).isNull();
        assertThat(log.takeAll())
                .extracting(QueryLog.Call::partition)
                .containsExactlyInAnyOrder(shard(sparse.ws(), 2), shard(sparse.ws(), 5), shard(sparse.ws(), 9));
    }

    @Test
    void aPageBoundaryInTheSecondRound_shouldBeExact_andTheCursorResumeRightAfterIt() {
        // GIVEN a page of 10 over 10 shards (round 1 asks each for 4 and the look-ahead): shard 1 holds the 12
        // newest, shard 2 the 3 oldest
        Api api = new Api();
        int[] shards = IntStream.range(0, 15).map(i -> i < 3 ? 2 : 1).toArray();
        Tenant t = tenant(api, Api.freshWorkspaceId("edge"), SHARDS, shards);
        QueryLog log = new QueryLog();
        ListProjectsFunction list = listing(api, t.plan(), log);
        // WHEN the first page of 10
        Lambda.Response first = page(list, t.ws(), 10, null);
        // THEN round 1 reads shard 1's 5 newest and shard 2's 3: 8, fewer than the page, so round 2 asks shard 1
        // (which holds more) for the 5 the page lacks: it answers 6, and the page's 6th to 10th come from them
        List<QueryLog.Call> calls = log.takeAll();
        assertThat(first.ids("items")).isEqualTo(t.ids().subList(0, 10));
        assertThat(first.dynamoCalls()).isEqualTo(11);
        assertThat(calls.stream().filter(QueryLog.Call::resumed))
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.partition()).isEqualTo(shard(t.ws(), 1));
                    assertThat(c.limit()).isEqualTo(5 + 1);
                    assertThat(c.items()).isEqualTo(t.newest(5, 11));
                });
        BigDecimal expected = ItemSizes.eventuallyConsistentReadUnits(t.newest(0, 5))
                .add(ItemSizes.eventuallyConsistentReadUnits(t.newest(12, 15)))
                .add(ItemSizes.eventuallyConsistentReadUnits(t.newest(5, 11)))
                .add(EMPTY_QUERY.multiply(BigDecimal.valueOf(8)));
        assertThat(first.dynamoCapacity()).isEqualByComparingTo(expected);
        // WHEN the next page: only shards 1 and 2 are left, each asked for the whole page
        Lambda.Response second = page(list, t.ws(), 10, first.nextCursor());
        // THEN it resumes right after the 10th: the 2 newest left of shard 1, then shard 2's 3
        assertThat(second.ids("items")).isEqualTo(t.ids().subList(10, 15));
        assertThat(second.nextCursor()).isNull();
        assertThat(log.takeAll())
                .hasSize(2)
                .allSatisfy(c -> assertThat(c.limit()).isEqualTo(10 + 1));
    }

    @Test
    void roundTwo_shouldAskOnlyTheShardsWhoseLastItemReadSortsBeforeThePagesCutOff() {
        // GIVEN a page of 10 (4 asked of each, and the look-ahead): shard 3 holds the 6 newest, shard 6 the next 6,
        // shard 8 the 8 oldest
        Api api = new Api();
        int[] shards =
                IntStream.range(0, 20).map(i -> i < 8 ? 8 : i < 14 ? 6 : 3).toArray();
        Tenant t = tenant(api, Api.freshWorkspaceId("cut"), SHARDS, shards);
        QueryLog log = new QueryLog();
        Lambda.Response first = page(listing(api, t.plan(), log), t.ws(), 10, null);
        // THEN round 1 reads 5 of each; the 10th newest read (the cut-off) is shard 6's 5th, its last read, so
        // shard 6 cannot add to the page, nor can shard 8 (all older). Round 2 asks shard 3 alone, which has 1 more.
        List<QueryLog.Call> calls = log.takeAll();
        assertThat(first.ids("items")).isEqualTo(t.ids().subList(0, 10));
        assertThat(first.dynamoCalls()).isEqualTo(11);
        assertThat(calls.stream().filter(QueryLog.Call::resumed))
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.partition()).isEqualTo(shard(t.ws(), 3));
                    assertThat(c.items()).isEqualTo(t.newest(5, 6));
                });
        assertThat(first.dynamoCapacity()).isEqualByComparingTo(billed(calls));
    }

    @Test
    void projectsCreatedWhileRoundTwoIsHeld_shouldNeitherRepeatNorSkipAnExistingProject() throws Exception {
        // GIVEN 40 projects all in shard 7, so that the first page of 25 needs a second round, held by a latch
        Api api = new Api();
        Tenant t = tenant(
                api,
                Api.freshWorkspaceId("overlap"),
                SHARDS,
                IntStream.range(0, 40).map(i -> 7).toArray());
        CountDownLatch roundTwoSent = new CountDownLatch(1);
        CountDownLatch createsDone = new CountDownLatch(1);
        ExecutionInterceptor holdRoundTwo = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                if (context.request() instanceof QueryRequest q
                        && q.hasExclusiveStartKey()
                        && roundTwoSent.getCount() > 0) {
                    roundTwoSent.countDown();
                    try {
                        assertThat(createsDone.await(5, TimeUnit.MINUTES)).isTrue();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }
            }
        };
        // The function's client waits as patiently as the test: the held query must not time out and be retried.
        ListProjectsFunction list = new ListProjectsFunction(
                DynamoDbClients.fromEnvironment(
                        Map.of(
                                DynamoDbClients.ENDPOINT_VARIABLE,
                                api.engine.endpoint.toString(),
                                "AWS_REGION",
                                "us-east-1",
                                "AWS_ACCESS_KEY_ID",
                                "local",
                                "AWS_SECRET_ACCESS_KEY",
                                "local"),
                        List.of(holdRoundTwo),
                        TestEngine.PATIENT),
                QueryPool.create(),
                Api.config("ListProjects", t.plan()));
        // An invocation with the test's own patience left: the held round must not run into the Lambda deadline.
        CompletableFuture<Lambda.Response> firstPage = CompletableFuture.supplyAsync(() -> Lambda.invoke(
                list,
                ApiEvent.of("GET", ApiEvent.PROJECTS)
                        .path("workspaceId", t.ws())
                        .query(Map.of("limit", Integer.toString(PAGE))),
                (int) Eventually.FAILSAFE.toMillis()));
        assertThat(roundTwoSent.await(5, TimeUnit.MINUTES)).isTrue();
        // WHEN 30 projects are created (in every shard, 7 among them) between round 1 and round 2
        Api creator = new Api(t.plan());
        List<String> late = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            late.add((String) creator.createProject(t.ws(), "{\"name\":\"late " + i + "\"}")
                    .json()
                    .get("id"));
        }
        createsDone.countDown();
        Lambda.Response first = firstPage.get(5, TimeUnit.MINUTES);
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        // THEN the first page is the 25 newest of those that existed when it began, and the rest follow exactly:
        // the late ones sort before the first page's start and appear in none of its pages
        assertThat(first.ids("items")).isEqualTo(t.ids().subList(0, 25));
        List<Lambda.Response> rest = follow(
                list, ApiEvent.PROJECTS, t.ws(), Map.of("limit", Integer.toString(PAGE), "cursor", first.nextCursor()));
        List<String> listed = new ArrayList<>(first.ids("items"));
        listed.addAll(Pages.ids(rest, "items"));
        assertThat(listed).isEqualTo(t.ids()).doesNotContainAnyElementsOf(late);
    }

    /**
     * Random tenants (seeded): half of them 200 to 300 projects spread evenly over 10 shards, pages of 10 to 30; the
     * others 2 to 10 shards, 0 to 80 projects skewed to one shard, over two, or by random weights, pages of 1 to 30. The same projects are loaded into an unsharded workspace too; every sharded page must equal the
     * unsharded page, newest first (ListProjects) and oldest first (GetWorkspaceCollection), each at no more than
     * two rounds' calls. Where the projects spread evenly over 10 shards, the pages must read at most 60% of the
     * items a full fan-out (every shard asked for the page and the look-ahead) reads.
     */
    @Test
    void randomTenants_shouldPageExactlyAsUnsharded_andEvenSpreadsReadAtMost60PercentOfAFullFanOut() {
        Random random = new Random(38);
        Api api = new Api();
        long read = 0;
        long fullFanOut = 0;
        for (int c = 0; c < 16; c++) {
            boolean even = c % 2 == 0;
            int shards = even ? SHARDS : 2 + random.nextInt(SHARDS - 1);
            // an even spread of enough projects that shards hold more than round 1 asks of them
            int count = even ? 200 + random.nextInt(101) : random.nextInt(81);
            int limit = even ? 10 + random.nextInt(21) : 1 + random.nextInt(30);
            int[] placement = placement(random, even ? 0 : 1 + random.nextInt(3), shards, count);
            Tenant hot = tenant(api, Api.freshWorkspaceId("prop"), shards, placement);
            String plain = Api.freshWorkspaceId("plain");
            assertThat(api.createWorkspace(plain, "Unsharded").status()).isEqualTo(201);
            OperationContext unsharded = OperationContext.of(api.table);
            List<Map<String, AttributeValue>> copies = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ProjectId id = hot.newestFirst().get(count - 1 - i);
                copies.add(CreateProjectOperation.generateRequest(
                                unsharded,
                                new Project(
                                        id, WorkspaceId.of(plain), "p" + i, null, ProjectStatus.ACTIVE, now, now, 1),
                                CreationToken.random())
                        .item());
            }
            BulkLoad.putAll(api.engine.client, api.table, copies);
            String why = "case " + c + ": " + count + " projects over " + shards + " shards, pages of " + limit;

            QueryLog log = new QueryLog();
            ListProjectsFunction list = listing(api, hot.plan(), log);
            List<Lambda.Response> pages =
                    follow(list, ApiEvent.PROJECTS, hot.ws(), Map.of("limit", Integer.toString(limit)));
            List<Lambda.Response> plainPages =
                    Pages.follow(Map.of("limit", Integer.toString(limit)), query -> api.listProjects(plain, query));
            assertThat(pages).as(why).hasSameSizeAs(plainPages);
            List<String> after = new ArrayList<>();
            for (int p = 0; p < pages.size(); p++) {
                assertThat(pages.get(p).ids("items"))
                        .as(why + ", page " + p)
                        .isEqualTo(plainPages.get(p).ids("items"));
                assertThat(pages.get(p).dynamoCalls()).as(why).isBetween(1, 2 * shards);
                if (even) {
                    fullFanOut += fullFanOutReads(hot, placement, after, limit);
                }
                after = pages.get(p).ids("items");
            }
            assertThat(new HashSet<>(Pages.ids(pages, "items"))).as(why).hasSize(count);
            if (even) {
                read += log.takeAll().stream().mapToLong(q -> q.items().size()).sum();
            }

            GetWorkspaceCollectionFunction collection = new GetWorkspaceCollectionFunction(
                    api.engine.client, api.engine.pool, Api.config("GetWorkspaceCollection", hot.plan()));
            List<Lambda.Response> oldest =
                    follow(collection, ApiEvent.COLLECTION, hot.ws(), Map.of("limit", Integer.toString(limit)));
            List<Lambda.Response> plainOldest =
                    Pages.follow(Map.of("limit", Integer.toString(limit)), query -> api.collection(plain, query));
            assertThat(Pages.ids(oldest, "projects")).as(why).isEqualTo(Pages.ids(plainOldest, "projects"));
            assertThat(oldest).as(why).hasSameSizeAs(plainOldest);
            for (int p = 0; p < oldest.size(); p++) {
                assertThat(oldest.get(p).ids("projects"))
                        .as(why + ", collection page " + p)
                        .isEqualTo(plainOldest.get(p).ids("projects"));
                assertThat(oldest.get(p).dynamoCalls()).as(why).isBetween(1, 2 * (shards + 1));
            }
        }
        System.out.println("even spreads over 10 shards: read " + read + " items, a full fan-out " + fullFanOut
                + String.format(" (%.2f)", (double) read / fullFanOut));
        assertThat((double) read).isLessThanOrEqualTo(0.6 * fullFanOut);
    }

    /**
     * The shard of each project, oldest first: {@code skew} 0 spreads evenly, 1 puts about 9 in 10 in one shard, 2
     * uses two shards only, 3 gives each shard a random weight (some none).
     */
    private static int[] placement(Random random, int skew, int shards, int count) {
        double[] weights = new double[shards];
        for (int s = 0; s < shards; s++) {
            weights[s] = switch (skew) {
                case 0 -> 1;
                case 1 -> s == 0 ? 9 * (shards - 1) : 1;
                case 2 -> s < 2 ? 1 : 0;
                default -> random.nextInt(3) == 0 ? 0 : random.nextDouble();
            };
        }
        double total = java.util.Arrays.stream(weights).sum();
        if (total == 0) {
            weights[0] = total = 1;
        }
        int[] placement = new int[count];
        for (int i = 0; i < count; i++) {
            double r = random.nextDouble() * total;
            int s = 0;
            while (s < shards - 1 && (r -= weights[s]) >= 0) {
                s++;
            }
            placement[i] = s + 1;
        }
        return placement;
    }

    /**
     * The items a full fan-out reads for a page after {@code previous} (the ids of the page before, empty for the
     * first): from every shard, its items older than the previous page's last, up to the page and the look-ahead.
     */
    private static long fullFanOutReads(Tenant hot, int[] placement, List<String> previous, int limit) {
        int count = placement.length;
        int start = previous.isEmpty() ? 0 : hot.ids().indexOf(previous.get(previous.size() - 1)) + 1;
        Map<Integer, Integer> remaining = new LinkedHashMap<>();
        for (int rank = start; rank < count; rank++) {
            remaining.merge(placement[count - 1 - rank], 1, Integer::sum);
        }
        return remaining.values().stream()
                .mapToLong(n -> Math.min(n, limit + 1))
                .sum();
    }
}
