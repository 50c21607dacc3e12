package dev.oneread.local.runner;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.oneread.local.auth.JwtAuthorizer;
import dev.oneread.local.auth.LocalJwt;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code start-api}: serves every HttpApi route of template.yaml on localhost, turning each request into
 * the event API Gateway would send and the function's response back into HTTP, as API Gateway does.
 */
public final class ApiServer implements AutoCloseable {
    /** Request bodies above API Gateway's 10 MB payload limit are refused before any function runs. */
    private static final int MAX_BODY_BYTES = 10 * 1024 * 1024;

    private final HttpServer server;
    private final ExecutorService executor;
    private final List<Binding> bindings = new ArrayList<>();
    private final PrintStream log;
    private final LocalJwt authorizer;

    private record Binding(RouteSpec route, LocalFunction function) {
    }

    /** @param authorizer the API's JWT authorizer, or null for an API without one */
    public ApiServer(Map<String, LocalFunction> functions, LocalJwt authorizer, int port, PrintStream log)
            throws IOException {
        this.authorizer = authorizer;
        // Without TCP_NODELAY the JDK server writes headers and body separately and a keep-alive client waits
        // out Nagle plus delayed ACK: ~40 ms on every warm request. Read once, when the server classes load.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        this.log = log;
        functions.values().forEach(f -> f.spec().routes().forEach(r -> bindings.add(new Binding(r, f))));
        bindings.sort(Comparator.comparingInt((Binding b) -> b.route().specificity()).reversed());
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        this.executor = Executors.newFixedThreadPool(8, r -> {
            Thread t = new Thread(r, "start-api");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::serve);
    }

    public void start() {
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public List<String> routeKeys() {
        return bindings.stream().map(b -> b.route().routeKey() + "  ->  " + b.function().spec().logicalId()).toList();
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            String rawPath = exchange.getRequestURI().getRawPath();
            String method = exchange.getRequestMethod();
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
            if (match == null) {
                if (!allowed.isEmpty()) {
                    exchange.getResponseHeaders().add("Allow", String.join(", ", allowed));
                }
                send(exchange, allowed.isEmpty() ? 404 : 405, Map.of("content-type", "application/json"),
                        allowed.isEmpty() ? "{\"message\":\"Not Found\"}" : "{\"message\":\"Method Not Allowed\"}");
                return;
            }
            JwtAuthorizer jwt = null;
            if (authorizer != null) {
                // As the HTTP API JWT authorizer: no valid bearer token, no function call.
                Optional<JwtAuthorizer> verified = authorizer.authorize(exchange.getRequestHeaders().getFirst("Authorization"));
                if (verified.isEmpty()) {
                    exchange.getResponseHeaders().set("www-authenticate", "Bearer");
                    send(exchange, 401, Map.of("content-type", "application/json"), "{\"message\":\"Unauthorized\"}");
                    return;
                }
                jwt = verified.get();
            }
            byte[] body = readBody(exchange.getRequestBody());
            if (body == null) {
                send(exchange, 413, Map.of("content-type", "application/json"), "{\"message\":\"Request Entity Too Large\"}");
                return;
            }
            var incoming = new HttpApiEventBuilder.IncomingRequest(method, rawPath,
                    exchange.getRequestURI().getRawQuery(), exchange.getRequestHeaders(), body,
                    exchange.getRemoteAddress().getAddress().getHostAddress(), exchange.getProtocol(),
                    String.valueOf(exchange.getRequestHeaders().getFirst("Host")));
            HttpApiEvent event = HttpApiEventBuilder.build(incoming, match.route(), parameters, jwt);
            LocalFunction.Result result = match.function().invoke(event.toJsonBytes());
            respond(exchange, result, event.requestContext().requestId());
        } catch (RuntimeException e) {
            log.println("start-api: " + e);
            send(exchange, 500, Map.of("content-type", "application/json"), "{\"message\":\"Internal Server Error\"}");
        }
    }

    /** Maps the function's response the way API Gateway does for payload format 2.0. */
    @SuppressWarnings("unchecked")
    private void respond(HttpExchange exchange, LocalFunction.Result result, String apiRequestId) throws IOException {
        if (result.failed()) {
            send(exchange, 500, Map.of("content-type", "application/json"), "{\"message\":\"Internal Server Error\"}");
            return;
        }
        Object parsed;
        try {
            parsed = com.fasterxml.jackson.jr.ob.JSON.std.anyFrom(result.responseText());
        } catch (IOException e) {
            parsed = result.responseText();
        }
        if (!(parsed instanceof Map<?, ?> response) || !response.containsKey("statusCode")) {
            // No statusCode: API Gateway takes the whole value as a JSON body with status 200.
            send(exchange, 200, Map.of("content-type", "application/json"), result.responseText());
            return;
        }
        int status = ((Number) response.get("statusCode")).intValue();
        Map<String, Object> headers = response.get("headers") instanceof Map<?, ?> h ? (Map<String, Object>) h : Map.of();
        for (Object cookie : response.get("cookies") instanceof List<?> c ? c : List.of()) {
            exchange.getResponseHeaders().add("Set-Cookie", String.valueOf(cookie));
        }
        Object body = response.get("body");
        byte[] bytes = body == null ? new byte[0] : Boolean.TRUE.equals(response.get("isBase64Encoded"))
                ? Base64.getDecoder().decode(String.valueOf(body))
                : String.valueOf(body).getBytes(StandardCharsets.UTF_8);
        headers.forEach((k, v) -> exchange.getResponseHeaders().set(k, String.valueOf(v)));
        exchange.getResponseHeaders().set("apigw-requestid", apiRequestId);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private static void send(HttpExchange exchange, int status, Map<String, String> headers, String body)
            throws IOException {
        headers.forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static byte[] readBody(InputStream in) throws IOException {
        byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
        return bytes.length > MAX_BODY_BYTES ? null : bytes;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
