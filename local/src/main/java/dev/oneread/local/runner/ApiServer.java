package dev.oneread.local.runner;

import dev.oneread.http.HttpApiEvent;
import dev.oneread.http.HttpResponse;
import dev.oneread.http.Problems;
import dev.oneread.json.Json;
import dev.oneread.local.auth.JwtAuthorizer;
import dev.oneread.local.auth.LocalJwt;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * {@code start-api}: serves every HttpApi route of template.yaml on localhost, turning each request into
 * the event API Gateway would send and the function's response back into HTTP, as API Gateway does.
 *
 * <p>It runs on Jetty's core server (no servlets): the handler sees the raw request URI, so a request the
 * runner refuses (a malformed %-escape, a line Jetty itself cannot parse) still gets a problem+json answer,
 * where the JDK's built-in server answered with its own text/html page before any handler ran.
 *
 * <pre>{@code try (ApiServer server = new ApiServer(stack.functions(), stack.authorizer(), 3000, System.err)) {
 *     server.start();
 * }}</pre>
 */
public final class ApiServer implements AutoCloseable {
    /** Request bodies above API Gateway's 10 MB payload limit are refused before any function runs. */
    private static final int MAX_BODY_BYTES = 10 * 1024 * 1024;
    /** A '%' not followed by two hex digits: no decoder can read such a URI, so no function should see it. */
    private static final Pattern MALFORMED_ESCAPE = Pattern.compile("%(?![0-9A-Fa-f]{2})");

    private final Server server;
    private final ServerConnector connector;
    private final List<Binding> bindings = new ArrayList<>();
    private final PrintStream log;
    private final LocalJwt authorizer;
    private final LoopbackGuard guard;
    private volatile ServedRequest.Observer observer = request -> {};
    private volatile Handler pages;

    /** A route and the function id behind it; the function itself is looked up per request (a redeploy swaps it). */
    private record Binding(RouteSpec route, String functionId) {}

    private final java.util.function.Supplier<Map<String, LocalFunction>> functions;

    /** What goes back on the wire; a header may repeat (Set-Cookie). */
    private record Reply(int status, List<Map.Entry<String, String>> headers, byte[] body) {
        /** API Gateway's own answers ({@code {"message": "Not Found"}}), for what never reaches a function. */
        static Reply json(int status, String message) {
            return new Reply(
                    status,
                    List.of(Map.entry("content-type", "application/json")),
                    Json.write(Map.of("message", message)).getBytes(StandardCharsets.UTF_8));
        }

        Reply with(String header, String value) {
            List<Map.Entry<String, String>> more = new ArrayList<>(headers);
            more.add(Map.entry(header, value));
            return new Reply(status, more, body);
        }

        static Reply problem(int status, String detail) {
            HttpResponse problem = Problems.problem(status, detail);
            return new Reply(
                    status,
                    new ArrayList<>(problem.headers().entrySet()),
                    problem.body().getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * Binds the port at once (so a port in use fails here, as an IOException); {@link #start()} serves.
     *
     * @param authorizer the API's JWT authorizer, or null for an API without one
     */
    public ApiServer(Map<String, LocalFunction> functions, LocalJwt authorizer, int port, PrintStream log)
            throws IOException {
        this(() -> functions, authorizer, port, log);
    }

    /**
     * As {@link #ApiServer(Map, LocalJwt, int, PrintStream)}, over functions that a redeploy replaces: each request
     * goes to the function {@code functions} gives when it arrives (the routes stay the first ones').
     */
    public ApiServer(
            java.util.function.Supplier<Map<String, LocalFunction>> functions,
            LocalJwt authorizer,
            int port,
            PrintStream log)
            throws IOException {
        this.authorizer = authorizer;
        this.log = log;
        this.functions = functions;
        bind(functions.get());
        HttpConfiguration http = new HttpConfiguration();
        // The raw path goes to the route matcher and the event as it arrived, as API Gateway passes it:
        // encoded separators and dots are the function's business, not a reason to refuse the request.
        http.setUriCompliance(UriCompliance.UNSAFE);
        this.connector = LoopbackServer.connector("start-api", 16, port, http);
        this.server = connector.getServer();
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                return front(request, response, callback);
            }
        });
        connector.open();
        this.guard = new LoopbackGuard(connector.getLocalPort());
    }

    /** Binds every route of {@code functions}, the most specific first: the first that matches a request wins. */
    private void bind(Map<String, LocalFunction> functions) {
        functions
                .values()
                .forEach(f -> f.spec()
                        .routes()
                        .forEach(r -> bindings.add(new Binding(r, f.spec().logicalId()))));
        bindings.sort(
                Comparator.comparingInt((Binding b) -> b.route().specificity()).reversed());
    }

    /** Every request: the loopback guard, then the deploy endpoint, the console's pages, or a function. */
    private boolean front(Request request, Response response, Callback callback) throws Exception {
        // On every answer, the console's and the functions': never cached, never sniffed, and no CORS.
        response.getHeaders().put("Cache-Control", "no-store");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        Optional<LoopbackGuard.Refusal> refused = guard.check(
                request.getHeaders().get(HttpHeader.HOST), request.getHeaders().get(HttpHeader.ORIGIN));
        if (refused.isPresent()) {
            send(response, Reply.problem(refused.get().status(), refused.get().detail()), callback);
            return true;
        }
        if (request.getHttpURI().getPath().equals(DEPLOY_PATH)) {
            send(response, deploy(request), callback);
            return true;
        }
        Handler mounted = pages;
        if (mounted != null
                && request.getHttpURI().getPath().startsWith(CONSOLE_PATH)
                && mounted.handle(request, response, callback)) {
            return true;
        }
        send(response, serve(request), callback);
        return true;
    }

    /** The path under which the runner's own pages (the console) are served; no template route may use it. */
    public static final String CONSOLE_PATH = "/_console";

    /**
     * The runner's own deploy endpoint ({@code oneread deploy}): POST {@code {"parameterOverrides": {...}}}. Tools
     * only: any Origin, the console's own page's included, is refused, so no page can redeploy the developer's run.
     */
    public static final String DEPLOY_PATH = "/_oneread/deploy";

    private volatile java.util.function.UnaryOperator<Map<String, String>> deployer;

    /** Serves {@link #DEPLOY_PATH} with {@code deployer}: changed parameters in, every parameter as now set out. */
    public void mountDeploy(java.util.function.UnaryOperator<Map<String, String>> deployer) {
        this.deployer = deployer;
    }

    private Reply deploy(Request request) {
        Optional<LoopbackGuard.Refusal> refused = LoopbackGuard.toolsOnly(port())
                .check(
                        request.getHeaders().get(HttpHeader.HOST),
                        request.getHeaders().get(HttpHeader.ORIGIN));
        if (refused.isPresent()) {
            return Reply.problem(refused.get().status(), refused.get().detail());
        }
        java.util.function.UnaryOperator<Map<String, String>> mounted = deployer;
        if (mounted == null) {
            return Reply.problem(404, "this server takes no deploys");
        }
        if (!"POST".equals(request.getMethod())) {
            return Reply.problem(405, "a deploy is a POST").with("allow", "POST");
        }
        String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        if (type == null || !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
            return Reply.problem(415, "a deploy takes application/json");
        }
        Map<String, String> changed = new LinkedHashMap<>();
        try {
            byte[] body = readBody(Request.asInputStream(request));
            Object overrides = body == null
                    ? null
                    : Json.readObject(new String(body, StandardCharsets.UTF_8)).get("parameterOverrides");
            if (!(overrides instanceof Map<?, ?> given) || given.isEmpty()) {
                return Reply.problem(400, "a deploy needs parameterOverrides: an object of parameter names to values");
            }
            for (Map.Entry<?, ?> e : given.entrySet()) {
                if (!(e.getValue() instanceof String value)) {
                    return Reply.problem(400, "Parameter '" + e.getKey() + "' must be a string");
                }
                changed.put(String.valueOf(e.getKey()), value);
            }
        } catch (IOException | RuntimeException unreadable) {
            return Reply.problem(400, "the deploy request is not a JSON object");
        }
        try {
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("parameters", new java.util.TreeMap<>(mounted.apply(changed)));
            return new Reply(
                    200,
                    List.of(Map.entry("content-type", "application/json")),
                    Json.write(answer).getBytes(StandardCharsets.UTF_8));
        } catch (IllegalArgumentException refusedValue) {
            return Reply.problem(400, refusedValue.getMessage());
        }
    }

    /** Tells {@code observer} of every request served through a function, after its response is known. */
    public void observe(ServedRequest.Observer observer) {
        this.observer = observer;
    }

    /** Serves {@code handler} under {@link #CONSOLE_PATH}, ahead of the template's routes. */
    public void mountConsole(Handler handler) {
        handler.setServer(server);
        this.pages = handler;
    }

    public void start() {
        try {
            server.start();
        } catch (Exception e) {
            throw new IllegalStateException("start-api could not start: " + e.getMessage(), e);
        }
    }

    public int port() {
        return connector.getLocalPort();
    }

    public List<String> routeKeys() {
        return bindings.stream()
                .map(b -> b.route().routeKey() + "  ->  " + b.functionId())
                .toList();
    }

    private Reply serve(Request request) {
        try {
            String rawPath = request.getHttpURI().getPath();
            String rawQuery = request.getHttpURI().getQuery();
            if (MALFORMED_ESCAPE.matcher(rawPath).find()
                    || (rawQuery != null && MALFORMED_ESCAPE.matcher(rawQuery).find())) {
                return Reply.problem(400, "the request URI has a malformed %-escape");
            }
            String method = request.getMethod();
            RouteMatch match = match(rawPath, method);
            if (match.binding() == null) {
                return match.refusal();
            }
            Authorization authorization = authorize(request, match.binding().route());
            if (authorization.refusal() != null) {
                return authorization.refusal();
            }
            byte[] body = readBody(Request.asInputStream(request));
            if (body == null) {
                return Reply.json(413, "Request Entity Too Large");
            }
            String host = Optional.ofNullable(request.getHeaders().get(HttpHeader.HOST))
                    .orElse("127.0.0.1:" + port());
            var incoming = new HttpApiEventBuilder.IncomingRequest(
                    method,
                    rawPath,
                    rawQuery,
                    headers(request.getHeaders()),
                    body,
                    Request.getRemoteAddr(request),
                    request.getConnectionMetaData().getProtocol(),
                    host);
            HttpApiEvent event = HttpApiEventBuilder.build(
                    incoming, match.binding().route(), match.parameters(), authorization.jwt());
            return invoke(match.binding().functionId(), event, method, rawPath);
        } catch (IOException | RuntimeException e) {
            log.println("start-api: " + e);
            return Reply.json(500, "Internal Server Error");
        }
    }

    /**
     * The first binding whose route takes the path and the method (null if none), with the path's parameters, and
     * every method the path's routes allow: what a 405 names.
     */
    private record RouteMatch(Binding binding, Map<String, String> parameters, Set<String> allowed) {
        /** API Gateway's answer to a request no route takes: 404 for the path, 405 for the method. */
        Reply refusal() {
            return allowed.isEmpty()
                    ? Reply.json(404, "Not Found")
                    : Reply.json(405, "Method Not Allowed").with("allow", String.join(", ", allowed));
        }
    }

    private RouteMatch match(String rawPath, String method) {
        Binding match = null;
        Map<String, String> parameters = null;
        Set<String> allowed = new LinkedHashSet<>();
        for (Binding binding : bindings) {
            Map<String, String> p = binding.route().match(rawPath);
            if (p == null) {
                continue;
            }
            allowed.add(binding.route().method());
            if (match == null && binding.route().acceptsMethod(method)) {
                match = binding;
                parameters = p;
            }
        }
        return new RouteMatch(match, parameters, allowed);
    }

    /** The caller's verified token (null for an API without an authorizer), or the authorizer's refusal. */
    private record Authorization(JwtAuthorizer jwt, Reply refusal) {}

    private Authorization authorize(Request request, RouteSpec route) {
        if (authorizer == null) {
            return new Authorization(null, null);
        }
        // As the HTTP API JWT authorizer: no valid bearer token, no function call.
        Optional<JwtAuthorizer> verified =
                authorizer.authorize(request.getHeaders().get(HttpHeader.AUTHORIZATION));
        if (verified.isEmpty()) {
            return new Authorization(null, Reply.json(401, "Unauthorized").with("www-authenticate", "Bearer"));
        }
        if (!route.admits(verified.get().scopes())) {
            // API Gateway's answer to a valid token without one of the route's AuthorizationScopes.
            return new Authorization(null, Reply.json(403, "Forbidden"));
        }
        return new Authorization(verified.get(), null);
    }

    /** Invokes the function now behind {@code functionId} with {@code event}, tells the observer, maps its answer. */
    private Reply invoke(String functionId, HttpApiEvent event, String method, String rawPath) {
        java.time.Instant at = java.time.Instant.now();
        ServedRequest.Observer told = observer;
        told.invoking();
        LocalFunction.Result result;
        try {
            result = LocalFunction.invokeCurrent(() -> functions.get().get(functionId), event.toJsonBytes());
        } catch (RuntimeException e) {
            told.abandoned();
            throw e;
        }
        Reply reply = respond(result, event.requestContext().requestId());
        told.served(new ServedRequest(
                at,
                method,
                rawPath,
                functionId,
                event.routeKey(),
                event.pathParameters() == null ? Map.of() : event.pathParameters(),
                event.headers(),
                reply.status(),
                result.durationMs(),
                lowerCased(reply.headers()),
                result.callDetail(),
                reply.status() >= 400 ? new String(reply.body(), StandardCharsets.UTF_8) : null));
        return reply;
    }

    /** Maps the function's response the way API Gateway does for payload format 2.0. */
    @SuppressWarnings("unchecked")
    private static Reply respond(LocalFunction.Result result, String apiRequestId) {
        if (result.failed()) {
            return Reply.json(500, "Internal Server Error");
        }
        Object parsed;
        try {
            parsed = com.fasterxml.jackson.jr.ob.JSON.std.anyFrom(result.responseText());
        } catch (IOException e) {
            parsed = result.responseText();
        }
        if (!(parsed instanceof Map<?, ?> response) || !response.containsKey("statusCode")) {
            // No statusCode: API Gateway takes the whole value as a JSON body with status 200.
            return new Reply(200, List.of(Map.entry("content-type", "application/json")), result.response());
        }
        int status = ((Number) response.get("statusCode")).intValue();
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        for (Object cookie : response.get("cookies") instanceof List<?> c ? c : List.of()) {
            headers.add(Map.entry("set-cookie", String.valueOf(cookie)));
        }
        Map<String, Object> declared =
                response.get("headers") instanceof Map<?, ?> h ? (Map<String, Object>) h : Map.of();
        declared.forEach((k, v) -> {
            // No CORS from the local API, whatever a function says: a page of another origin must not read it.
            if (!k.toLowerCase(java.util.Locale.ROOT).startsWith("access-control-")) {
                headers.add(Map.entry(k, String.valueOf(v)));
            }
        });
        headers.add(Map.entry("apigw-requestid", apiRequestId));
        Object body = response.get("body");
        byte[] bytes = body == null
                ? new byte[0]
                : Boolean.TRUE.equals(response.get("isBase64Encoded"))
                        ? Base64.getDecoder().decode(String.valueOf(body))
                        : String.valueOf(body).getBytes(StandardCharsets.UTF_8);
        return new Reply(status, headers, bytes);
    }

    private static void send(Response response, Reply reply, Callback callback) {
        response.setStatus(reply.status());
        reply.headers().forEach(h -> {
            if (h.getKey().equalsIgnoreCase("cache-control")) {
                response.getHeaders().put(h.getKey(), h.getValue()); // the function's own, instead of no-store
            } else {
                response.getHeaders().add(h.getKey(), h.getValue());
            }
        });
        response.write(true, ByteBuffer.wrap(reply.body()), callback);
    }

    private static Map<String, String> lowerCased(List<Map.Entry<String, String>> headers) {
        Map<String, String> out = new LinkedHashMap<>();
        headers.forEach(h -> out.put(h.getKey().toLowerCase(java.util.Locale.ROOT), h.getValue()));
        return out;
    }

    /** Header name to its values in arrival order, as the event builder takes them. */
    private static Map<String, List<String>> headers(HttpFields fields) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (HttpField field : fields) {
            out.computeIfAbsent(field.getName(), k -> new ArrayList<>()).add(field.getValue());
        }
        return out;
    }

    private static byte[] readBody(InputStream in) throws IOException {
        byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
        return bytes.length > MAX_BODY_BYTES ? null : bytes;
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            log.println("start-api: stopping the server: " + e.getMessage());
        }
    }
}
