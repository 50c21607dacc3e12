package dev.oneread.local.runner;

import dev.oneread.local.DynaliteEngine;
import dev.oneread.local.SamTemplate;
import dev.oneread.local.TemplateTables;
import dev.oneread.local.auth.LocalJwt;
import dev.oneread.store.DynamoDbClients;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Everything a local run needs, from template.yaml: the engine (dynalite on a free port, or the one at
 * DYNAMODB_ENDPOINT), the tables (created when missing), and one warm {@link LocalFunction} per function.
 */
public final class LocalStack implements AutoCloseable {
    /** Local table name unless TABLE_NAME says otherwise. */
    public static final String DEFAULT_TABLE_NAME = "oneread";
    /**
     * Parameters the runner sets for a local run unless overridden: the audit headers on, and development
     * values (public on purpose, they guard only localhost) for the cursor key and the token issuer.
     */
    public static final Map<String, String> LOCAL_DEFAULTS = Map.of(
            "ReadAudit", "true",
            "CursorKey", "b25lcmVhZC1sb2NhbC1jdXJzb3Ita2V5LTMyYnl0ZXM=",
            "JwtIssuer", LocalJwt.DEFAULT_ISSUER,
            "JwtAudience", LocalJwt.DEFAULT_AUDIENCE);

    private final DynaliteEngine engine;
    private final URI endpoint;
    private final Map<String, LocalFunction> functions;
    private final Map<String, String> tableNames;
    private final LocalJwt authorizer;

    private LocalStack(DynaliteEngine engine, URI endpoint, Map<String, LocalFunction> functions,
                       Map<String, String> tableNames, LocalJwt authorizer) {
        this.engine = engine;
        this.endpoint = endpoint;
        this.functions = functions;
        this.tableNames = tableNames;
        this.authorizer = authorizer;
    }

    public static LocalStack start(Path root, Map<String, String> overrides, Path dataDir,
                                   Map<String, String> processEnvironment, PrintStream log) {
        SamTemplate template = SamTemplate.load(root.resolve("template.yaml"));
        String external = processEnvironment.get(DynamoDbClients.ENDPOINT_VARIABLE);
        DynaliteEngine engine = null;
        URI endpoint;
        if (external != null && !external.isBlank()) {
            endpoint = URI.create(external);
        } else {
            engine = DynaliteEngine.start(root, dataDir);
            endpoint = engine.endpoint();
            log.println("dynalite listening on " + endpoint + (dataDir == null ? " (in memory)" : " (data in " + dataDir + ")"));
        }
        try {
            TemplateTables tables = TemplateTables.from(template);
            String baseName = processEnvironment.getOrDefault("TABLE_NAME", DEFAULT_TABLE_NAME);
            Map<String, String> tableNames = new LinkedHashMap<>();
            for (String logicalId : tables.logicalIds()) {
                tableNames.put(logicalId, tableNames.isEmpty() ? baseName : baseName + "-" + logicalId);
            }
            try (DynamoDbClient client = DynamoDbClients.local(endpoint)) {
                tables.createMissing(client, tableNames);
            }
            Map<String, String> parameters = new LinkedHashMap<>();
            LOCAL_DEFAULTS.forEach((k, v) -> {
                if (template.parameters().containsKey(k)) {
                    parameters.put(k, v);
                }
            });
            parameters.putAll(overrides);
            Map<String, LocalFunction> functions = new LinkedHashMap<>();
            TemplateFunctions templateFunctions = new TemplateFunctions(template, root, parameters, tableNames);
            templateFunctions.functions().forEach((id, spec) -> {
                Map<String, String> environment = new LinkedHashMap<>(spec.environment());
                environment.put(DynamoDbClients.ENDPOINT_VARIABLE, endpoint.toString());
                environment.put("AWS_REGION", "us-east-1");
                environment.put("AWS_DEFAULT_REGION", "us-east-1");
                environment.put("AWS_ACCESS_KEY_ID", "local");
                environment.put("AWS_SECRET_ACCESS_KEY", "local");
                functions.put(id, new LocalFunction(spec, environment, log));
            });
            return new LocalStack(engine, endpoint, functions, tableNames,
                    jwtAuthorizer(template, templateFunctions.parameters()));
        } catch (RuntimeException e) {
            if (engine != null) {
                engine.close();
            }
            throw e;
        }
    }

    /** The HttpApi's JWT authorizer as the runner enforces it, or null when the API has none. */
    static LocalJwt jwtAuthorizer(SamTemplate template, Map<String, String> parameters) {
        for (Map<String, Object> api : template.resourcesOfType("AWS::Serverless::HttpApi").values()) {
            Map<String, Object> auth = SamTemplate.map(SamTemplate.map(api.get("Properties")).get("Auth"));
            Object name = auth.get("DefaultAuthorizer");
            Map<String, Object> config = SamTemplate.map(SamTemplate.map(SamTemplate.map(auth.get("Authorizers"))
                    .get(String.valueOf(name))).get("JwtConfiguration"));
            if (name != null && !config.isEmpty()) {
                String issuer = resolve(config.get("issuer"), parameters);
                Object audience = SamTemplate.list(config.get("audience")).stream().findFirst().orElse(null);
                return new LocalJwt(issuer, resolve(audience, parameters), java.time.Clock.systemUTC());
            }
        }
        return null;
    }

    private static String resolve(Object value, Map<String, String> parameters) {
        if (value instanceof Map<?, ?> ref && ref.containsKey("Ref")) {
            return parameters.getOrDefault(String.valueOf(ref.get("Ref")), "");
        }
        return String.valueOf(value);
    }

    public LocalJwt authorizer() {
        return authorizer;
    }

    public URI endpoint() {
        return endpoint;
    }

    public Map<String, LocalFunction> functions() {
        return functions;
    }

    public Map<String, String> tableNames() {
        return tableNames;
    }

    @Override
    public void close() {
        functions.values().forEach(LocalFunction::close);
        if (engine != null) {
            engine.close();
        }
    }
}
