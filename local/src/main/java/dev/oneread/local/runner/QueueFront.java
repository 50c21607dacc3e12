package dev.oneread.local.runner;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * The one door to the local queues. ElasticMQ answers any Host and any Origin, and in SQS's query protocol a plain
 * GET sends a message or purges a queue: an {@code <img>} tag on any page the developer opens could forge job tasks
 * or drop a pending purge. So ElasticMQ listens on a loopback port that nothing hands out, and this front, on the
 * port every queue URL names, passes on only what a tool sends: the loopback Host of its own port
 * ({@link LoopbackGuard}), no Origin at all (no page has business here, not even the console's), and POST (the SDKs
 * speak SQS's JSON protocol, always a POST). Anything else gets a problem+json refusal and never reaches ElasticMQ.
 *
 * <p>ElasticMQ's port is still a loopback socket: a page that scanned for it would find it. It is never printed,
 * never in a queue URL or an environment variable; and ElasticMQ serves nothing there but under the run's secret
 * context path ({@link RunSecret}), which this front alone adds to what it passes on. ElasticMQ 1.7.1 can check
 * neither a Host nor a header itself, nor listen anywhere but on a TCP port: the context path is its one guard.
 *
 * <pre>{@code QueueFront front = QueueFront.bind(secret); front.start(elasticMqPort); front.endpoint();}</pre>
 */
final class QueueFront implements AutoCloseable {
    /** Far above any SQS request (a batch of messages included): a bound, so that no request fills the heap. */
    private static final int MAX_BODY_BYTES = 4 * 1024 * 1024;

    private final Server server;
    private final ServerConnector connector;
    private final LoopbackGuard guard;
    private final RunSecret secret;
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private volatile URI elasticMq;

    private QueueFront(RunSecret secret) {
        this.secret = secret;
        // Pollers hold long polls (ReceiveMessage waits up to 20 s): enough threads that they never starve a send.
        this.connector = LoopbackServer.bound("local-queues", 64, this::serve);
        this.server = connector.getServer();
        this.guard = LoopbackGuard.toolsOnly(connector.getLocalPort());
    }

    /**
     * Binds a free loopback port now, so that ElasticMQ can be told the address its queue URLs must name; what it
     * passes on goes under {@code secret}'s context path.
     */
    static QueueFront bind(RunSecret secret) {
        return new QueueFront(secret);
    }

    /** Serves, passing what the guard lets through to ElasticMQ on {@code elasticMqPort}. */
    void start(int elasticMqPort) {
        this.elasticMq = URI.create("http://127.0.0.1:" + elasticMqPort);
        try {
            server.start();
        } catch (Exception e) {
            throw new IllegalStateException("the local queues could not start: " + e.getMessage(), e);
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
            byte[] body = Forwarding.admitted(
                    guard,
                    request,
                    response,
                    callback,
                    MAX_BODY_BYTES,
                    "the local queues take POST only (SQS's JSON protocol, as the SDKs send it)");
            if (body == null) {
                return;
            }
            java.net.http.HttpResponse<byte[]> answer =
                    client.send(forwarded(request, body), java.net.http.HttpResponse.BodyHandlers.ofByteArray());
            Forwarding.answer(response, answer, callback);
        } catch (IOException e) {
            callback.failed(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            callback.failed(e);
        }
    }

    private HttpRequest forwarded(Request request, byte[] body) {
        String query = request.getHttpURI().getQuery();
        return Forwarding.headers(
                        request,
                        HttpRequest.newBuilder(elasticMq.resolve(
                                        underSecret(request.getHttpURI().getPath())
                                                + (query == null ? "" : "?" + query)))
                                .timeout(Duration.ofSeconds(60))
                                .POST(HttpRequest.BodyPublishers.ofByteArray(body)))
                .build();
    }

    /**
     * The path ElasticMQ is asked for: under the run's context path. A queue URL's path holds it already (ElasticMQ
     * writes it into every URL it hands out); the SDKs' calls go to the endpoint's root, {@code /}.
     */
    private String underSecret(String path) {
        String context = secret.contextPath();
        if (path.equals(context) || path.startsWith(context + "/")) {
            return path;
        }
        return context + (path.startsWith("/") ? path : "/" + path);
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            // stopping: nothing left to serve
        }
        connector.close();
    }
}
