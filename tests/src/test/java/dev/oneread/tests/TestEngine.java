package dev.oneread.tests;

import dev.oneread.local.DynaliteEngine;
import dev.oneread.local.ProjectRoot;
import dev.oneread.local.SamTemplate;
import dev.oneread.local.TemplateTables;
import dev.oneread.store.DynamoDbClients;
import dev.oneread.store.QueryPool;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The real engine every integration test talks to over HTTP: dynalite started once per test JVM on a free
 * port (or the engine at DYNAMODB_ENDPOINT), with the table created from template.yaml.
 */
final class TestEngine {
    static final String TABLE = "oneread-test";
    /** Names the engine at DYNAMODB_ENDPOINT, for {@link EngineDeviations}: {@code dynalite}, or anything else. */
    static final String ENGINE_VARIABLE = "DYNAMODB_ENGINE";

    private static TestEngine instance;

    final Path root;
    final URI endpoint;
    final DynamoDbClient client;
    final QueryPool pool;
    private final DynaliteEngine engine;

    private TestEngine(Path root, DynaliteEngine engine, URI endpoint) {
        this.root = root;
        this.engine = engine;
        this.endpoint = endpoint;
        this.client = DynamoDbClients.local(endpoint);
        this.pool = QueryPool.create();
        TemplateTables.from(SamTemplate.load(root.resolve("template.yaml")))
                .createMissing(client, Map.of("Table", TABLE));
    }

    /**
     * True when the tests started dynalite, or when DYNAMODB_ENGINE says the engine at DYNAMODB_ENDPOINT is
     * dynalite; any other engine is expected to answer as DynamoDB does.
     */
    boolean isDynalite() {
        return engine != null || "dynalite".equalsIgnoreCase(System.getenv(ENGINE_VARIABLE));
    }

    static synchronized TestEngine get() {
        if (instance == null) {
            Path root = ProjectRoot.find();
            String external = System.getenv(DynamoDbClients.ENDPOINT_VARIABLE);
            if (external != null && !external.isBlank()) {
                instance = new TestEngine(root, null, URI.create(external));
            } else {
                DynaliteEngine engine = DynaliteEngine.start(root, null);
                instance = new TestEngine(root, engine, engine.endpoint());
                // One engine for the whole run; the engine registers its own shutdown hook as a backstop.
                Runtime.getRuntime().addShutdownHook(new Thread(engine::close));
            }
        }
        return instance;
    }
}
