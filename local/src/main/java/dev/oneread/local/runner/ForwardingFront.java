package dev.oneread.local.runner;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * What the runner's fronts share (the IAM front, the local queues' front): a server on a free loopback port that
 * admits only what a tool sends, and passes it on. A request must come from a tool (the guard's loopback Host, no
 * Origin) and be a POST (the SDKs' JSON protocols; SQS's query protocol would read a GET's parameters as a call,
 * GET /?Action=PurgeQueue) within a bound on its body; anything else gets a problem+json refusal. What is admitted
 * goes where the front's {@link Destination} says, with its end-to-end headers, and the answer comes back the same
 * way.
 *
 * <pre>{@code ForwardingFront front = ForwardingFront.bind(door, (request, body, response, callback) ->
 *     Optional.of(target.resolve(request.getHttpURI().getPath())));
 * front.start();}</pre>
 */
final class ForwardingFront implements AutoCloseable {
    /** Headers HttpClient sets itself (or refuses), and hop-by-hop headers that must not be passed on. */
    private static final Set<String> NOT_PASSED = Set.of(
            "host",
            "connection",
            "content-length",
            "expect",
            "upgrade",
            "transfer-encoding",
            "keep-alive",
            "te",
            "trailer",
            "proxy-connection",
            "date",
            "server");
    /** How long a passed-on call may take: far above any call of the engine or ElasticMQ (a long poll is 20 s). */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);

    /**
     * What sets one front apart from the other.
     *
     * @param name         what it is called in its threads' names and in its errors ({@code local-iam})
     * @param what         what a failure to start says could not start ({@code the local IAM front})
     * @param threads      how many requests it serves at once
     * @param maxBodyBytes a bound above any request it passes on, so that none fills the heap
     * @param postOnly     what its 405 says it takes
     */
    record Door(String name, String what, int threads, int maxBodyBytes, String postOnly) {}

    /** Where an admitted request goes. */
    @FunctionalInterface
    interface Destination {
        /** The URI to pass the request to; empty when the front's owner has answered it itself (a refusal). */
        Optional<URI> of(Request request, byte[] body, Response response, Callback callback);
    }

    private final Door door;
    private final Destination destination;
    private final ServerConnector connector;
    private final LoopbackGuard guard;
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private ForwardingFront(Door door, Destination destination) {
        this.door = door;
        this.destination = destination;
        this.connector = LoopbackServer.bound(door.name(), door.threads(), this::serve);
        this.guard = LoopbackGuard.toolsOnly(connector.getLocalPort());
    }

    /** Binds a free loopback port now (its address can be handed out before it serves); {@link #start} serves. */
    static ForwardingFront bind(Door door, Destination destination) {
        return new ForwardingFront(door, destination);
    }

    void start() {
        try {
            connector.getServer().start();
        } catch (Exception e) {
            throw new IllegalStateException(door.what() + " could not start: " + e.getMessage(), e);
        }
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    int port() {
        return connector.getLocalPort();
    }

    private void serve(Request request, Response response, Callback callback) {
        try {
            byte[] body = admitted(request, response, callback);
            if (body == null) {
                return;
            }
            Optional<URI> target = destination.of(request, body, response, callback);
            if (target.isEmpty()) {
                return;
            }
            HttpResponse<byte[]> answer = client.send(
                    headers(
                                    request,
                                    HttpRequest.newBuilder(target.get())
                                            .timeout(CALL_TIMEOUT)
                                            .POST(HttpRequest.BodyPublishers.ofByteArray(body)))
                            .build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            answer(response, answer, callback);
        } catch (IOException e) {
            callback.failed(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            callback.failed(e);
        }
    }

    /** The body of a request this front may pass on; null when it may not, the refusal already answered. */
    private byte[] admitted(Request request, Response response, Callback callback) throws IOException {
        Optional<LoopbackGuard.Refusal> refused = guard.check(
                request.getHeaders().get(HttpHeader.HOST), request.getHeaders().get(HttpHeader.ORIGIN));
        if (refused.isEmpty() && !request.getMethod().equals("POST")) {
            response.getHeaders().put(HttpHeader.ALLOW, "POST");
            refused = Optional.of(new LoopbackGuard.Refusal(405, door.postOnly()));
        }
        byte[] body = refused.isPresent() ? null : body(request, door.maxBodyBytes());
        if (body == null && refused.isEmpty()) {
            refused = Optional.of(new LoopbackGuard.Refusal(413, "the request body is too large"));
        }
        if (refused.isPresent()) {
            LoopbackServer.problem(
                    response, refused.get().status(), refused.get().detail(), callback);
            return null;
        }
        return body;
    }

    /** The request's body, or null when it is over {@code maxBytes}. */
    private static byte[] body(Request request, int maxBytes) throws IOException {
        try (InputStream in = Content.Source.asInputStream(request)) {
            byte[] body = in.readNBytes(maxBytes + 1);
            return body.length > maxBytes ? null : body;
        }
    }

    /** {@code forwarded} with the request's end-to-end headers. */
    private static HttpRequest.Builder headers(Request request, HttpRequest.Builder forwarded) {
        for (HttpField field : request.getHeaders()) {
            if (!NOT_PASSED.contains(field.getLowerCaseName())) {
                try {
                    forwarded.header(field.getName(), field.getValue());
                } catch (IllegalArgumentException restricted) {
                    // a header the JDK's client will not send (From, Via, Warning): no AWS service reads them
                }
            }
        }
        return forwarded;
    }

    /** Writes the answer passed on: its status, its end-to-end headers and its body. */
    private static void answer(Response response, HttpResponse<byte[]> answer, Callback callback) {
        response.setStatus(answer.statusCode());
        answer.headers().map().forEach((name, values) -> {
            if (!NOT_PASSED.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(value -> response.getHeaders().add(name, value));
            }
        });
        response.write(true, ByteBuffer.wrap(answer.body()), callback);
    }

    @Override
    public void close() {
        try {
            connector.getServer().stop();
        } catch (Exception e) {
            // stopping: nothing left to serve
        }
        connector.close();
    }
}
