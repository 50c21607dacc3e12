package dev.oneread.local.runner;

import dev.oneread.json.Json;
import dev.oneread.local.iam.Decision;
import dev.oneread.local.iam.DynamoDbCalls;
import dev.oneread.local.iam.FunctionRole;
import dev.oneread.local.iam.IamLedger;
import dev.oneread.local.iam.IamRequest;
import dev.oneread.local.iam.PolicyValues;
import dev.oneread.local.iam.SqsCalls;
import dev.oneread.local.iam.Statement;
import dev.oneread.local.iam.TemplatePolicies;
import dev.oneread.local.template.SamTemplate;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * IAM between the functions and the engine (and the local queues): each function signs its calls with its own access key
 * ({@link #credentials}), which names it and its table; this front reads the key from SigV4's {@code Credential=},
 * evaluates every call against that function's role in template.yaml ({@link TemplatePolicies}) and passes on only
 * what the role allows. A refused call never reaches the engine: it is answered as DynamoDB answers it, HTTP 400,
 * {@code AccessDeniedException}, AWS's message naming the role, the action and the resource. Every call, allowed or
 * refused, goes into the {@link IamLedger}. A key that names no function (the runner's own client, a test's set-up)
 * passes unchecked: it is not a function's.
 *
 * <pre>{@code try (IamFront iam = IamFront.start(template, parameters, names, engine, IamLedger.process())) {
 *     environment.putAll(iam.credentials("GetProject", "oneread")); }}</pre>
 */
public final class IamFront implements AutoCloseable {
    /** DynamoDB's error type for a refused call (its JSON protocol's {@code __type}). */
    public static final String ACCESS_DENIED_TYPE = "com.amazonaws.dynamodb.v20120810#AccessDeniedException";
    /** SQS's, in its JSON protocol, with the query protocol's code in {@code x-amzn-query-error}. */
    public static final String SQS_ACCESS_DENIED_TYPE = "com.amazon.coral.service#AccessDeniedException";
    /** A batch of 25 items of 400 KB is 10 MB: a bound above any DynamoDB request, so none fills the heap. */
    private static final int MAX_BODY_BYTES = 32 * 1024 * 1024;
    /** Functions call concurrently (a fan-out of many queries each): as many as the engine's clients may hold. */
    private static final int THREADS = 256;

    private static final ForwardingFront.Door DOOR = new ForwardingFront.Door(
            "local-iam",
            "the local IAM front",
            THREADS,
            MAX_BODY_BYTES,
            "the local IAM front takes POST only (the JSON protocols, as the SDKs send them)");

    private static final Pattern CREDENTIAL = Pattern.compile("Credential=([^/,\\s]+)/");
    /** Separates the function from its table in a local access key: {@code GetProject@oneread}. */
    private static final String KEY_SEPARATOR = "@";
    /** The table name resources are written with in the ledger: the template's own words, whatever table ran. */
    private static final String TEMPLATE_TABLE = "${Table}";

    private final ForwardingFront front;
    private final Targets targets;
    private final SamTemplate template;
    private final Map<String, String> parameters;
    private final Map<String, String> physicalNames;
    private final DynamoDbCalls calls;
    private final IamLedger ledger;
    private final Map<String, Map<String, FunctionRole>> rolesByTable = new ConcurrentHashMap<>();

    /** Where allowed calls go: DynamoDB's to the engine, SQS's to the local queues (null: a run without queues). */
    private record Targets(URI engine, URI queues) {
        URI of(boolean sqs) {
            return sqs && queues != null ? queues : engine;
        }
    }

    private IamFront(
            SamTemplate template,
            Map<String, String> parameters,
            Map<String, String> physicalNames,
            Targets targets,
            IamLedger ledger) {
        this.template = template;
        this.targets = targets;
        this.parameters = Map.copyOf(parameters);
        this.physicalNames = Map.copyOf(physicalNames);
        this.ledger = ledger;
        this.calls = DynamoDbCalls.of(template);
        // The ledger keeps the roles in the template's words: its Table, and its queues by logical id.
        TemplatePolicies.read(template, new PolicyValues(template, parameters, tablesNamed(TEMPLATE_TABLE)))
                .values()
                .forEach(ledger::known);
        this.front = ForwardingFront.bind(DOOR, this::destination);
        front.start();
    }

    /**
     * A front on a free loopback port before {@code engine} and, for SQS's calls, {@code queues}, for the functions
     * of {@code template}.
     *
     * @param physicalNames the local names of the template's other resources (queues), by logical id
     * @param queues        the local queues' endpoint; null for a run without queues
     */
    public static IamFront start(
            SamTemplate template,
            Map<String, String> parameters,
            Map<String, String> physicalNames,
            URI engine,
            URI queues,
            IamLedger ledger) {
        return new IamFront(template, parameters, physicalNames, new Targets(engine, queues), ledger);
    }

    public URI endpoint() {
        return front.endpoint();
    }

    /** The access key a function signs with, naming it and the table it works on. */
    public static String accessKeyId(String function, String table) {
        return function + KEY_SEPARATOR + table;
    }

    /** Whether {@code accessKeyId} is of the form {@link #accessKeyId} gives a function's key. */
    public static boolean namesFunction(String accessKeyId) {
        return accessKeyId != null && accessKeyId.contains(KEY_SEPARATOR);
    }

    /** The environment that makes a function's client sign as {@code function} on {@code table}. */
    public static Map<String, String> credentials(String function, String table) {
        return Map.of("AWS_ACCESS_KEY_ID", accessKeyId(function, table), "AWS_SECRET_ACCESS_KEY", "local");
    }

    /** Every function's role with the template's {@code Table} named {@code table}. */
    public Map<String, FunctionRole> rolesFor(String table) {
        return rolesByTable.computeIfAbsent(table, t -> {
            Map<String, String> names = new LinkedHashMap<>(physicalNames);
            names.putAll(tablesNamed(t));
            return TemplatePolicies.read(template, new PolicyValues(template, parameters, names));
        });
    }

    /** Every table of the template named {@code table} (the runner's one data table). */
    private Map<String, String> tablesNamed(String table) {
        Map<String, String> names = new LinkedHashMap<>();
        template.resourcesOfType("AWS::DynamoDB::Table").keySet().forEach(id -> names.put(id, table));
        return names;
    }

    /** Where an allowed call goes; none for a refused one, answered here as the service would. */
    private Optional<URI> destination(Request request, byte[] body, Response response, Callback callback) {
        boolean sqs = String.valueOf(request.getHeaders().get("X-Amz-Target")).startsWith(SqsCalls.TARGET_PREFIX);
        Optional<String> denied = authorize(request, body);
        if (denied.isPresent()) {
            deny(response, sqs, denied.get(), callback);
            return Optional.empty();
        }
        return Optional.of(targets.of(sqs).resolve(request.getHttpURI().getPath()));
    }

    /** AWS's message when the call's signer may not make it; empty when it may, or when no function signed it. */
    private Optional<String> authorize(Request request, byte[] body) {
        String target = request.getHeaders().get("X-Amz-Target");
        Matcher credential =
                CREDENTIAL.matcher(String.valueOf(request.getHeaders().get(HttpHeader.AUTHORIZATION)));
        if (target == null || !credential.find() || !credential.group(1).contains(KEY_SEPARATOR)) {
            return Optional.empty();
        }
        String[] key = credential.group(1).split(KEY_SEPARATOR, 2);
        FunctionRole role = rolesFor(key[1]).get(key[0]);
        if (role == null) {
            return Optional.empty();
        }
        Map<String, Object> call;
        try {
            call = Json.readObject(new String(body, StandardCharsets.UTF_8));
        } catch (RuntimeException malformed) {
            return Optional.empty(); // DynamoDB refuses it before IAM has anything to read: the engine answers
        }
        List<IamRequest> requests =
                target.startsWith(SqsCalls.TARGET_PREFIX) ? SqsCalls.of(target, call) : calls.of(target, call);
        // Every table of a batch is authorized before any use is written down: a refused call used nothing.
        for (IamRequest one : requests) {
            Optional<String> denied = refusal(role, one);
            if (denied.isPresent()) {
                return denied;
            }
        }
        requests.forEach(one -> used(role, key[1], one));
        return Optional.empty();
    }

    /**
     * The runner's stand-in for Secrets Manager: it hands a function its secret at init instead of the function
     * calling GetSecretValue, so it asks here first, as AWS would have. AWS's message when the role may not read it.
     */
    public Optional<String> secretRead(String function, String table, String secretArn) {
        FunctionRole role = rolesFor(table).get(function);
        if (role == null) {
            return Optional.empty();
        }
        IamRequest read = new IamRequest("secretsmanager:GetSecretValue", secretArn, Map.of());
        Optional<String> denied = refusal(role, read);
        if (denied.isEmpty()) {
            used(role, table, read);
        }
        return denied;
    }

    /** AWS's message when the role refuses the request, written into the ledger; empty when it allows it. */
    private Optional<String> refusal(FunctionRole role, IamRequest one) {
        Decision decision = role.policy().evaluate(one);
        if (decision == Decision.ALLOW) {
            return Optional.empty();
        }
        String message = role.deniedMessage(one, decision);
        ledger.denied(new IamLedger.Denial(role.function(), message));
        return Optional.of(message);
    }

    /** An allowed request, written into the ledger with the grants that allowed it. */
    private void used(FunctionRole role, String table, IamRequest one) {
        ledger.allowed(
                role.function(),
                new IamLedger.Use(one.action(), inTemplateWords(one.resource(), table), shapes(one)),
                role.policy().grantsUsedBy(one).stream()
                        .map(g -> new Statement.Grant(
                                g.statement(), g.action(), inTemplateWords(g.resource(), table), g.condition()))
                        .toList());
    }

    /** A resource as the template writes it: the run's table as the template's Table, a queue by its logical id. */
    private String inTemplateWords(String resource, String table) {
        for (Map.Entry<String, String> queue : physicalNames.entrySet()) {
            if (resource.equals(PolicyValues.queueArn(queue.getValue()))) {
                return PolicyValues.queueArn(queue.getKey());
            }
        }
        return resource.replace(PolicyValues.tableArn(table), PolicyValues.tableArn(TEMPLATE_TABLE));
    }

    /** The partition keys a call named, by their prefix: {@code WS#*}, {@code STATUS#*}. */
    private static String shapes(IamRequest request) {
        List<String> keys = request.context().getOrDefault(DynamoDbCalls.LEADING_KEYS, List.of());
        return keys.stream()
                .map(k -> k.contains("#") ? k.substring(0, k.indexOf('#') + 1) + "*" : k)
                .distinct()
                .sorted()
                .collect(Collectors.joining(", "));
    }

    /** The refusal as the service answers it: DynamoDB 400 in its JSON protocol, SQS 403 in its own. */
    private static void deny(Response response, boolean sqs, String message, Callback callback) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("__type", sqs ? SQS_ACCESS_DENIED_TYPE : ACCESS_DENIED_TYPE);
        error.put("message", message);
        response.setStatus(sqs ? 403 : 400);
        if (sqs) {
            response.getHeaders().put("x-amzn-query-error", "AccessDenied;Sender");
        }
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/x-amz-json-1.0");
        response.getHeaders().put("x-amzn-RequestId", UUID.randomUUID().toString());
        response.write(true, ByteBuffer.wrap(Json.write(error).getBytes(StandardCharsets.UTF_8)), callback);
    }

    @Override
    public void close() {
        front.close();
    }
}
