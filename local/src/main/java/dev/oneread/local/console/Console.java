package dev.oneread.local.console;

import dev.oneread.http.HttpResponse;
import dev.oneread.http.Problems;
import dev.oneread.json.Json;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.runner.ApiServer;
import dev.oneread.local.runner.RunningConfiguration;
import dev.oneread.local.runner.ServedRequest;
import dev.oneread.operations.Operations;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.exceptions.StoreException;
import dev.oneread.store.stats.HotTenantReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The local console at {@code /_console}, served by start-api alone (never deployed): the engine's item
 * collections decoded by the key codec, the request log with every DynamoDB call and its budget, the expression
 * builder, fixture export and import, and the partitions' heat (units and throttles per second, by tenant). Its pages
 * are static files from the runner jar; its data comes from the JSON endpoints under {@code /_console/api/} (the
 * key names and the access patterns included), and live changes arrive as server-sent events.
 *
 * <pre>{@code Console console =
 *     Console.attach(server, stack.client(), table, stack::configuration, stack.endpoint(), dataDir, log);}</pre>
 */
public final class Console extends Handler.Abstract implements AutoCloseable {
    private static final String API = ApiServer.CONSOLE_PATH + "/api/";
    /**
     * The static files of the page, by their names' ending: the page, its style, its icon (its own file, not a data:
     * URI, so the policy below keeps img-src 'self') and its JavaScript modules, one per view (console.js imports the
     * rest). A name is lower-case letters and one of these endings, so no path and no other file is ever served.
     */
    private static final Map<String, String> STATIC = Map.of(
            ".html", "text/html; charset=utf-8",
            ".js", "text/javascript; charset=utf-8",
            ".css", "text/css; charset=utf-8",
            ".svg", "image/svg+xml");

    private static final Pattern STATIC_NAME = Pattern.compile("[a-z]+(\\.[a-z]+)");
    /** A fixture file can be large; anything larger than this is refused before it is read. */
    private static final int MAX_BODY_BYTES = 32 * 1024 * 1024;

    private static final int MAX_PAGE = 2_000;
    /** How long Rescan waits for the count before it answers that it is counting. */
    private static final long RESCAN_WAIT_MS = 2_000;
    /**
     * Only the console's own files and endpoints: no inline script, no other origin, no framing. The page
     * renders data as text, and this keeps it so even if a bug slipped in.
     */
    private static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private final TableMirror mirror;
    private final CollectionPages pages;
    private final CollectionPositions positions;
    private final CollectionCursors cursors = new CollectionCursors();
    /**
     * The running start-api's configuration, read at each use: its HotTenantShards (a tenant's shard count is the
     * plan's, not what holds data) and its project quota are what the last {@code deploy} set, not start-up's.
     */
    private final Supplier<RunningConfiguration> configuration;

    private final RequestLog log;
    private final ConsoleEvents events;
    private final ExpressionBuilder builder;
    private final TableReads reads;
    private final StatementReads statements;
    private final SavedQueries queries;
    private final HeatPoller heat;
    private final EngineChanges changes;
    private final PrintStream out;

    private Console(
            TableMirror mirror,
            Supplier<RunningConfiguration> configuration,
            URI engine,
            Path dataDir,
            PrintStream out) {
        this.mirror = mirror;
        this.pages = new CollectionPages(mirror.client(), mirror.table());
        this.positions = new CollectionPositions(pages, mirror.stats());
        this.configuration = configuration;
        Supplier<ShardPlan> plan = () -> configuration.get().plan();
        this.events = new ConsoleEvents();
        this.heat = new HeatPoller(
                engine, mirror.table(), new HotTenantReport(mirror.client(), mirror.table()), events, out);
        // Records the engine dropped before they were read: the table copy may be wrong, so it is read again.
        this.changes = new EngineChanges(engine, mirror.table(), events, this::recountSoon, out);
        this.changes.listen(mirror::apply);
        mirror.followFeed(changes::available);
        this.log = new RequestLog(mirror, plan, events, changes);
        // Writes of other clients (the aws CLI, an SDK) are logged as the engine's; start-api's log themselves.
        this.changes.listen(log::engineWrites);
        this.builder = new ExpressionBuilder(mirror, plan, engine);
        this.reads = new TableReads(mirror, engine);
        this.statements = new StatementReads(mirror, engine);
        this.queries = SavedQueries.in(dataDir);
        this.out = out;
    }

    /**
     * Mounts the console on {@code server} and has it watch every request: the table is counted in the
     * background, so start-api is ready at once. {@code engine} is where the engine serves its heat; the console's
     * recent and saved queries are kept in {@code dataDir}, the engine's data directory (null for an engine in
     * memory).
     */
    public static Console attach(
            ApiServer server,
            DynamoDbClient client,
            String table,
            Supplier<RunningConfiguration> configuration,
            URI engine,
            Path dataDir,
            PrintStream out) {
        Console console = new Console(new TableMirror(client, table), configuration, engine, dataDir, out);
        // Its place in the engine's feed before any request and before the table is read: no write is missed.
        console.changes.start();
        server.observe(console.log);
        server.mountConsole(console);
        console.heat.start();
        console.mirror.startCounting(console.out, (items, ms) -> {
            Map<String, Object> done = new LinkedHashMap<>();
            done.put("items", items);
            done.put("ms", ms);
            console.events.publish("reloaded", done);
        });
        return console;
    }

    /** Has the table counted again in the background; its "reloaded" event tells the consoles when it is done. */
    private void recountSoon() {
        try {
            mirror.recount(0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Rescan: the table is counted again in the background, and a "reloaded" event says when it is done. A small
     * table is counted within {@link #RESCAN_WAIT_MS}, and then the answer is the count's, after the event; a large
     * one answers at once that it is counting.
     */
    private Map<String, Object> rescan() {
        long started = System.nanoTime();
        boolean done;
        try {
            done = mirror.recount(RESCAN_WAIT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            done = false;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("counting", !done);
        if (done) {
            out.put("items", mirror.stats().items());
            out.put("ms", (System.nanoTime() - started) / 1_000_000);
        }
        return out;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws IOException {
        String path = request.getHttpURI().getPath();
        response.getHeaders().put("Cache-Control", "no-store");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        response.getHeaders().put("X-Frame-Options", "DENY");
        response.getHeaders().put("Referrer-Policy", "no-referrer");
        try {
            if (path.equals(ApiServer.CONSOLE_PATH) || path.equals(ApiServer.CONSOLE_PATH + "/")) {
                return file(response, callback, "index.html", request.getMethod());
            }
            if (path.startsWith(ApiServer.CONSOLE_PATH + "/static/")) {
                return file(
                        response,
                        callback,
                        path.substring((ApiServer.CONSOLE_PATH + "/static/").length()),
                        request.getMethod());
            }
            if (path.startsWith(API)) {
                return api(request, response, callback, path.substring(API.length()));
            }
            throw new BadRequest(404, "no such console page");
        } catch (BadRequest e) {
            HttpResponse problem = Problems.problem(e.status(), e.getMessage());
            if (!e.members().isEmpty()) {
                Map<String, Object> body = new java.util.LinkedHashMap<>(Json.readObject(problem.body()));
                body.putAll(e.members());
                problem = new HttpResponse(problem.statusCode(), problem.headers(), Json.write(body));
            }
            send(response, callback, problem);
        } catch (StoreException e) {
            // A refusal by the store's own rules (a create past the quota): answered as the API answers it.
            send(response, callback, Problems.fromException(e));
        } catch (RuntimeException e) {
            // Never a stack trace or an engine message: the runner's terminal gets the detail.
            out.println("console: " + e);
            send(response, callback, Problems.problem(503, "the console could not read the local engine"));
        }
        return true;
    }

    /**
     * The table's key attribute names, from the key codec, as the page's keys.js takes them: the page writes none
     * of them itself, so a renamed attribute is renamed on the page too.
     */
    static final Map<String, String> KEYS = Map.of(
            "partition", KeyCodec.PARTITION_KEY,
            "sort", KeyCodec.SORT_KEY,
            "index", KeyCodec.INDEX_NAME,
            "indexPartition", KeyCodec.INDEX_PARTITION_KEY,
            "indexSort", KeyCodec.INDEX_SORT_KEY);

    /** Each console endpoint and the methods it takes, in the order a 405 names them. */
    private static final Map<String, List<String>> ENDPOINTS = Map.ofEntries(
            Map.entry("events", List.of("GET")),
            Map.entry("partitions", List.of("GET")),
            Map.entry("collection", List.of("GET")),
            Map.entry("requests", List.of("GET", "POST", "DELETE")),
            Map.entry("requests.jsonl", List.of("GET")),
            Map.entry("heat", List.of("GET")),
            Map.entry("keys", List.of("GET")),
            Map.entry("patterns", List.of("GET")),
            Map.entry("budgets", List.of("GET")),
            Map.entry("expr", List.of("POST")),
            Map.entry("expr/run", List.of("POST")),
            Map.entry("fixtures", List.of("GET", "POST")),
            Map.entry("item", List.of("GET")),
            Map.entry("item/edit", List.of("POST")),
            Map.entry("item/duplicate", List.of("POST")),
            Map.entry("item/delete", List.of("POST")),
            Map.entry("read", List.of("POST")),
            Map.entry("read/snippets", List.of("POST")),
            Map.entry("statement", List.of("POST")),
            Map.entry("statement/snippets", List.of("POST")),
            Map.entry("queries", List.of("GET", "POST", "DELETE")),
            Map.entry("rescan", List.of("POST")));

    private boolean api(Request request, Response response, Callback callback, String endpoint) throws IOException {
        String method = request.getMethod();
        Fields query = Request.extractQueryParameters(request);
        List<String> methods = ENDPOINTS.get(endpoint);
        if (methods == null) {
            throw new BadRequest(404, "no such console endpoint");
        }
        allow(method, methods.toArray(String[]::new));
        switch (endpoint) {
            case "events" -> streamEvents(response, callback);
            case "requests.jsonl" -> downloadRequests(response, callback);
            default -> json(response, callback, 200, answer(request, response, query, endpoint));
        }
        return true;
    }

    /** What an endpoint that answers in JSON answers; its method is one it takes. */
    private Object answer(Request request, Response response, Fields query, String endpoint) throws IOException {
        String method = request.getMethod();
        return switch (endpoint) {
            case "partitions" -> partitions(text(query, "filter", ""));
            case "collection" -> collection(query);
            case "requests" -> requests(request, method);
            case "heat" -> heat.view(number(query, "top", HeatPoller.TOP, 1, HeatPoller.TOP));
            case "budgets" -> budgets();
            case "keys" -> KEYS;
            case "patterns" -> ExpressionBuilder.patterns();
            case "expr" -> {
                ExpressionBuilder.Built built = builder.build(body(request));
                yield ExpressionBuilder.printed(built.request(), built.engine());
            }
            case "expr/run" -> builder.run(builder.build(body(request)));
            case "fixtures" -> {
                if (method.equals("GET")) {
                    response.getHeaders().put("Content-Disposition", "attachment; filename=\"oneread-fixtures.json\"");
                    yield new Fixtures(mirror, configuration.get().plan()).export();
                }
                yield importFixtures(request, query);
            }
            case "item" -> item(text(query, "partition", ""), text(query, "sort", ""));
            case "item/edit", "item/duplicate", "item/delete" -> itemAction(request, endpoint, body(request));
            case "read" -> read(body(request));
            // The snippets of a read without reading: the page asks again when the deployed-table box changes.
            case "read/snippets" -> TableReads.snippets(reads.build(body(request)));
            case "statement" -> statements.run(statements.build(body(request)));
            case "statement/snippets" -> StatementReads.snippets(statements.build(body(request)));
            case "queries" -> queries(method, query, request);
            case "rescan" -> {
                // The feed's records up to now first: none of them arrives after the rescan to show its write again.
                changes.catchUp();
                yield rescan();
            }
            default -> throw new IllegalStateException("no answer for console endpoint " + endpoint);
        };
    }

    /**
     * Edits, duplicates or deletes one item, and logs the action with its calls (a refused one too, with its
     * reason): the request log shows what the console did to the table as it shows what the API did.
     */
    private Map<String, Object> itemAction(Request request, String endpoint, Map<String, Object> form) {
        String name = endpoint.substring("item/".length());
        java.time.Instant at = java.time.Instant.now();
        long started = System.nanoTime();
        CallTally tally = new CallTally();
        int status = 200;
        Optional<Map<String, Object>> problem = Optional.empty();
        try {
            // The shard plan and quota of this moment: a deploy since start-up has moved projects, or the limit.
            ItemEdits edits = new ItemEdits(mirror, configuration.get());
            return switch (name) {
                case "edit" -> edits.edit(form, tally);
                case "duplicate" -> edits.duplicate(form, tally);
                default -> edits.delete(form, tally);
            };
        } catch (BadRequest e) {
            status = e.status();
            // Its title and detail as the page gets them in the problem+json.
            problem =
                    RequestLog.problem(Problems.problem(status, e.getMessage()).body());
            throw e;
        } catch (StoreException e) {
            HttpResponse refused = Problems.fromException(e);
            status = refused.statusCode();
            problem = RequestLog.problem(refused.body());
            throw e;
        } finally {
            List<Map<String, Object>> calls = new ArrayList<>();
            tally.auditedCalls().forEach(call -> calls.add(call.toJson()));
            log.console(
                    new RequestLog.ConsoleAction(
                            name,
                            request.getMethod(),
                            API + endpoint,
                            ItemEdits.workspaceOf(form),
                            status,
                            at,
                            (System.nanoTime() - started) / 1e6),
                    calls,
                    problem);
        }
    }

    /** One item as it is now (a consistent GetItem), in DynamoDB JSON: what the item editor starts from. */
    private Map<String, Object> item(String partition, String sort) {
        Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item =
                mirror.refresh(ItemEdits.key(Map.of("partition", partition, "sort", sort)));
        if (item == null) {
            throw new BadRequest(404, "no item has this key");
        }
        return Map.of("item", dev.oneread.store.items.DynamoJson.item(item));
    }

    /** Runs a Scan or Query form, and remembers it among the recent ones. */
    private Map<String, Object> read(Map<String, Object> form) {
        Map<String, Object> page = reads.run(reads.build(form));
        queries.ran(form);
        return page;
    }

    /** The recent and saved reads (GET), a read saved by name (POST), or one deleted (DELETE ?name=). */
    private Map<String, Object> queries(String method, Fields query, Request request) throws IOException {
        return switch (method) {
            case "POST" -> {
                Map<String, Object> form = body(request);
                Map<String, Object> read = Forms.object(form, "query");
                reads.build(read); // only a read that runs is saved
                yield queries.save(Forms.text(form, "name", ""), read);
            }
            case "DELETE" -> queries.delete(text(query, "name", ""));
            default -> queries.list();
        };
    }

    /** The console's live events, as server-sent events, until the browser goes. */
    private void streamEvents(Response response, Callback callback) {
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream; charset=utf-8");
        events.stream(response, callback);
    }

    /**
     * The request log, newest first (GET), or an empty one (DELETE); or what another command of this checkout did on
     * this engine (POST, from tools only: a request {@code invoke} ran, or the items {@code seed} wrote).
     */
    private Map<String, Object> requests(Request request, String method) throws IOException {
        if (method.equals("DELETE")) {
            log.clear();
            return Map.of("cleared", true);
        }
        if (method.equals("POST")) {
            if (request.getHeaders().get(HttpHeader.ORIGIN) != null) {
                throw new BadRequest(403, "only the runner's commands add to the log");
            }
            Map<String, Object> posted = body(request);
            if ("seed".equals(posted.get("source")) && posted.get("items") instanceof Number) {
                int items = (int) Forms.number(posted, "items", 0, 0, Integer.MAX_VALUE);
                log.wrote("seed", items, String.valueOf(posted.getOrDefault("detail", "sample data")));
            } else {
                try {
                    log.served(ServedRequest.fromJson(posted), "invoke");
                } catch (IllegalArgumentException e) {
                    throw new BadRequest(e.getMessage());
                }
            }
            return Map.of("logged", true);
        }
        return Map.of("requests", log.newestFirst());
    }

    /** The request log as a download, one JSON object a line. */
    private void downloadRequests(Response response, Callback callback) {
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/x-ndjson; charset=utf-8");
        response.getHeaders().put("Content-Disposition", "attachment; filename=\"oneread-requests.jsonl\"");
        response.write(true, ByteBuffer.wrap(log.jsonLines().getBytes(StandardCharsets.UTF_8)), callback);
    }

    /** Each function's cost budget, as its operation declares it. */
    private static Map<String, Object> budgets() {
        List<Map<String, Object>> budgets = new ArrayList<>();
        Operations.all().stream()
                .map(operation -> operation.descriptor())
                .forEach(d -> budgets.add(
                        Map.of("function", d.function(), "budget", d.budget().description())));
        return Map.of("budgets", budgets);
    }

    /**
     * Imports the posted fixture file and logs it; its items reach every open console through the engine's change
     * feed (from an engine without one, every console reloads). The import's report.
     */
    private Map<String, Object> importFixtures(Request request, Fields query) throws IOException {
        String bookkeeping = text(query, "bookkeeping", "exclude");
        if (!bookkeeping.equals("include") && !bookkeeping.equals("exclude")) {
            throw new BadRequest("bookkeeping is include or exclude");
        }
        Map<String, Object> report = new Fixtures(mirror, configuration.get().plan())
                .importFile(body(request), bookkeeping.equals("include"));
        log.wrote("import", ((Number) report.get("imported")).intValue(), "fixture file");
        if (!changes.catchUp()) {
            // No change feed to show the items one by one: the consoles read everything again.
            events.publish("reloaded", Map.of("imported", report.get("imported")));
        }
        return report;
    }

    /**
     * Every item collection, grouped by tenant, a hot tenant's shards folded under it; from the partitions'
     * counts, never their items. While the table is being counted, {@code counting} says how far it has got.
     */
    private Map<String, Object> partitions(String filter) {
        if (filter.length() > 200) {
            throw new BadRequest("filter must be at most 200 characters");
        }
        ShardPlan plan = configuration.get().plan();
        boolean counting = mirror.isCounting();
        Map<String, Map<String, Object>> tenants = new java.util.TreeMap<>();
        mirror.stats().partitions().forEach((partition, counts) -> {
            ItemRows.Place place = ItemRows.place(partition);
            if (!place.tenant().contains(filter)) {
                return;
            }
            Map<String, Object> tenant = tenants.computeIfAbsent(place.tenant(), t -> {
                Map<String, Object> created = new LinkedHashMap<>();
                created.put("tenant", t);
                created.put("decoded", place.decoded());
                created.put("shards", place.decoded() ? plan.shardCount(WorkspaceId.of(t)) : 0);
                created.put("items", 0L);
                created.put("bytes", 0L);
                created.put("partitions", new ArrayList<Map<String, Object>>());
                return created;
            });
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("partition", partition);
            one.put("shard", place.shard());
            one.put("items", counts.items());
            one.put("bytes", counts.bytes());
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> list = (List<Map<String, Object>>) tenant.get("partitions");
            list.add(one);
            tenant.put("items", (Long) tenant.get("items") + counts.items());
            tenant.put("bytes", (Long) tenant.get("bytes") + counts.bytes());
        });
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("table", mirror.table());
        out.put("tenants", new ArrayList<>(tenants.values()));
        out.put("index", indexGroups(filter));
        out.put("counting", counting ? Map.of("items", mirror.stats().items()) : null);
        out.put("countedInMs", mirror.lastCountMillis() < 0 ? null : mirror.lastCountMillis());
        return out;
    }

    /**
     * The keys of the cross-workspace index (GSI1) in their own group, each once (a status, the workspace registry),
     * its shards folded under it with their entry counts, from the partitions' counts. Under a filter, the entries
     * of the workspaces the filter names (each table partition's counts say which index partitions its items
     * project to), and every entry of a key the filter names ({@code archived}).
     */
    private List<Map<String, Object>> indexGroups(String filter) {
        Map<String, java.util.TreeMap<String, Long>> all = new java.util.TreeMap<>();
        mirror.stats()
                .indexPartitions()
                .forEach(
                        (partition, count) -> all.computeIfAbsent(indexKeyOf(partition), k -> new java.util.TreeMap<>())
                                .put(partition, count));
        Map<String, java.util.TreeMap<String, Long>> keys = new java.util.TreeMap<>();
        if (filter.isEmpty()) {
            keys.putAll(all);
        } else {
            mirror.stats().partitions().forEach((partition, counts) -> {
                if (ItemRows.place(partition).tenant().contains(filter)) {
                    counts.index()
                            .forEach((p, n) -> keys.computeIfAbsent(indexKeyOf(p), k -> new java.util.TreeMap<>())
                                    .merge(p, n, Long::sum));
                }
            });
            String upper = filter.toUpperCase(java.util.Locale.ROOT);
            all.forEach((key, shards) -> {
                if (key.contains(upper)) {
                    keys.put(key, shards);
                }
            });
        }
        List<Map<String, Object>> out = new ArrayList<>();
        keys.forEach((key, shards) -> {
            List<Map<String, Object>> partitions = new ArrayList<>();
            shards.forEach((partition, count) -> partitions.add(Map.of("partition", partition, "items", count)));
            Map<String, Object> group = new LinkedHashMap<>();
            group.put("key", key);
            group.put(
                    "items", shards.values().stream().mapToLong(Long::longValue).sum());
            group.put("partitions", partitions);
            out.add(group);
        });
        return out;
    }

    /**
     * One page of a collection, in its order: a tenant's items (every partition of it, merged) or one partition's,
     * by sort key, META first, then the projects, bookkeeping last; or an index key's entries over all its shards
     * ({@code index=STATUS#ARCHIVED}), by index sort key. At most {@link #MAX_PAGE} rows, one Query per partition,
     * from the first item, or from one of: {@code after} (the previous page's {@code next}), {@code find} (seek: the
     * first item at or after a project id or sort key, or the start of one), {@code at} (the item at a position, by
     * the partitions' marks: see {@link CollectionPositions}) or {@code end=newest} (the newest projects: the last
     * page of the readable part, read backwards). {@code total} is from the partitions' counts; {@code position} is
     * the first row's (null after a cursor: the page before it says); {@code read} is what the page cost.
     */
    private Map<String, Object> collection(Fields query) {
        String tenant = text(query, "tenant", "");
        String only = text(query, "partition", "");
        String indexKey = text(query, "index", "");
        int limit = number(query, "limit", 1_000, 1, MAX_PAGE);
        if ((tenant.isEmpty() ? 0 : 1) + (only.isEmpty() ? 0 : 1) + (indexKey.isEmpty() ? 0 : 1) != 1) {
            throw new BadRequest("give one of tenant or partition or index");
        }
        if (query.getValue("offset") != null) {
            // An offset would read every item before it on each page: a million-item tenant pages by cursor.
            throw new BadRequest(
                    "offset paging is not offered: pass after=<the previous page's next>, or at=<position>");
        }
        List<String> starts = java.util.stream.Stream.of("after", "find", "at", "end")
                .filter(name -> query.getValue(name) != null)
                .toList();
        if (starts.size() > 1) {
            throw new BadRequest("give at most one of after, find, at and end");
        }
        CollectionPages.Source source =
                indexKey.isEmpty() ? CollectionPages.Source.TABLE : CollectionPages.Source.INDEX;
        java.util.function.Predicate<String> belongs;
        java.util.Set<String> partitions = new java.util.TreeSet<>();
        if (!indexKey.isEmpty()) {
            try {
                partitions.addAll(KeyCodec.indexKeyPartitions(
                        indexKey, configuration.get().plan().index().shards()));
            } catch (IllegalArgumentException e) {
                throw new BadRequest("index is an index key, as the partition list names them: STATUS#ACTIVE, WSREG");
            }
            belongs = partitions::contains;
        } else if (!only.isEmpty()) {
            partitions.add(only);
            belongs = only::equals;
        } else {
            belongs = p -> ItemRows.place(p).tenant().equals(tenant);
            if (isWorkspaceId(tenant)) {
                partitions.addAll(configuration
                        .get()
                        .plan()
                        .collectionPartitions(WorkspaceId.of(tenant))
                        .partitions());
            }
            mirror.stats().partitions().keySet().stream().filter(belongs).forEach(partitions::add);
        }
        List<String> list = new ArrayList<>(partitions);
        long total = indexKey.isEmpty()
                ? list.stream().mapToLong(p -> countsOf(p).items()).sum()
                : mirror.stats().indexPartitions().entrySet().stream()
                        .filter(e -> partitions.contains(e.getKey()))
                        .mapToLong(Map.Entry::getValue)
                        .sum();
        String view =
                !indexKey.isEmpty() ? "index=" + indexKey : only.isEmpty() ? "tenant=" + tenant : "partition=" + only;
        CollectionPages.Cost cost = new CollectionPages.Cost();
        Map<String, Object> out = new LinkedHashMap<>();
        CollectionPages.Page page;
        Long position = null;
        String start = starts.isEmpty() ? "" : starts.get(0);
        switch (start) {
            case "after" ->
                page = pages.read(
                        source,
                        list,
                        cursors.open(query.getValue("after"), view, source.segments(), belongs),
                        limit,
                        cost);
            case "find" -> {
                String sort = KeyCodec.seekSortKey(query.getValue("find"))
                        .orElseThrow(() -> new BadRequest(
                                "find takes a project id, or an item's sort key, or the start of either"));
                page = pages.read(source, list, CollectionPages.Position.at(source.segmentOf(sort), sort), limit, cost);
                position = page.items().isEmpty()
                        ? total
                        : positions.rank(
                                source, list, source.sortOf(page.items().get(0)), total, cost);
                out.put("sought", sort);
                out.put(
                        "found",
                        !page.items().isEmpty()
                                && source.sortOf(page.items().get(0)).startsWith(sort));
            }
            case "at" -> {
                long at = longNumber(query, "at", 0, Long.MAX_VALUE);
                CollectionPositions.Start from = positions.start(source, list, Math.min(at, total), total, cost);
                // The skip is read and dropped: at most about one span of the marks (the whole way for an index).
                int skip = (int) Math.min(from.skip(), Integer.MAX_VALUE - MAX_PAGE);
                page = pages.read(
                        source, list, CollectionPages.Position.at(from.segment(), from.since()), skip + limit, cost);
                List<Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue>> items = page.items()
                        .subList(
                                Math.min(skip, page.items().size()),
                                page.items().size());
                page = new CollectionPages.Page(items, page.next());
                position = from.position() + skip;
            }
            case "end" -> {
                String end = query.getValue("end");
                if (end.equals("newest")) {
                    page = pages.last(source, list, limit, cost);
                    position = page.items().isEmpty()
                            ? 0
                            : positions.rank(
                                    source, list, source.sortOf(page.items().get(0)), total, cost);
                } else if (end.equals("oldest")) {
                    page = pages.read(source, list, CollectionPages.Position.FIRST, limit, cost);
                    position = 0L;
                } else {
                    throw new BadRequest("end is newest or oldest");
                }
            }
            default -> {
                page = pages.read(source, list, CollectionPages.Position.FIRST, limit, cost);
                position = 0L;
            }
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        page.items().forEach(item -> {
            Map<String, Object> row;
            if (source.index() == null) {
                mirror.remember(item);
                row = ItemRows.row(item);
            } else {
                // An index entry carries the projected attributes only: not one to remember as the item.
                row = ItemRows.row(item);
                String indexPartition = source.partitionOf(item);
                row.put("indexPartition", indexPartition);
                row.put("indexSort", source.sortOf(item));
                row.put(
                        "indexShard",
                        KeyCodec.decodeIndexPartition(indexPartition).shard());
            }
            rows.add(row);
        });
        out.put("partitions", list);
        out.put("total", total);
        out.put("position", position);
        out.put("rows", rows);
        out.put("next", page.next().map(p -> cursors.seal(p, view)).orElse(null));
        out.put("read", cost.toMap());
        return out;
    }

    /** The key an index partition spreads ({@code STATUS#ACTIVE}), or the partition itself when not the codec's. */
    private static String indexKeyOf(String partition) {
        try {
            return KeyCodec.decodeIndexPartition(partition).key();
        } catch (IllegalArgumentException e) {
            return partition;
        }
    }

    private PartitionStats.Counts countsOf(String partition) {
        PartitionStats.Counts counts = mirror.stats().partitions().get(partition);
        return counts == null ? PartitionStats.Counts.NONE : counts;
    }

    private static boolean isWorkspaceId(String tenant) {
        try {
            WorkspaceId.of(tenant);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static void allow(String method, String... allowed) {
        if (!Set.of(allowed).contains(method)) {
            throw new BadRequest(405, "this console endpoint takes " + String.join(" or ", allowed));
        }
    }

    private static String text(Fields query, String name, String otherwise) {
        String value = query.getValue(name);
        return value == null ? otherwise : value;
    }

    private static int number(Fields query, String name, int otherwise, int min, int max) {
        String value = query.getValue(name);
        if (value == null) {
            return otherwise;
        }
        try {
            int n = Integer.parseInt(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // falls through to the refusal
        }
        throw new BadRequest(name + " must be a whole number from " + min + " to " + max);
    }

    private static long longNumber(Fields query, String name, long min, long max) {
        try {
            long n = Long.parseLong(query.getValue(name));
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // falls through to the refusal
        }
        throw new BadRequest(name + " must be a whole number from " + min);
    }

    private static Map<String, Object> body(Request request) throws IOException {
        String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        if (type == null || !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
            throw new BadRequest(415, "send application/json");
        }
        byte[] bytes;
        try (InputStream in = Request.asInputStream(request)) {
            bytes = in.readNBytes(MAX_BODY_BYTES + 1);
        }
        if (bytes.length > MAX_BODY_BYTES) {
            throw new BadRequest(413, "the body is larger than " + MAX_BODY_BYTES / (1024 * 1024) + " MB");
        }
        try {
            return Json.readObject(new String(bytes, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            throw new BadRequest("the body is not a JSON object");
        }
    }

    private boolean file(Response response, Callback callback, String name, String method) throws IOException {
        allow(method, "GET");
        Matcher matcher = STATIC_NAME.matcher(name);
        String type = matcher.matches() ? STATIC.get(matcher.group(1)) : null;
        if (type == null) {
            throw new BadRequest(404, "no such console file");
        }
        byte[] bytes;
        try (InputStream in = Console.class.getResourceAsStream("/console/" + name)) {
            if (in == null) {
                throw new BadRequest(404, "no such console file");
            }
            bytes = in.readAllBytes();
        }
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.write(true, ByteBuffer.wrap(bytes), callback);
        return true;
    }

    private static void json(Response response, Callback callback, int status, Object body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
        response.write(true, ByteBuffer.wrap(Json.write(body).getBytes(StandardCharsets.UTF_8)), callback);
    }

    private static void send(Response response, Callback callback, HttpResponse problem) {
        response.setStatus(problem.statusCode());
        problem.headers().forEach((k, v) -> response.getHeaders().put(k, v));
        response.write(true, ByteBuffer.wrap(problem.body().getBytes(StandardCharsets.UTF_8)), callback);
    }

    @Override
    public void close() {
        changes.close();
        mirror.close();
        pages.close();
        heat.close();
        events.close();
    }
}
