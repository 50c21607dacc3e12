package dev.oneread.local.runner;

import java.net.URI;
import java.util.Optional;
import org.eclipse.jetty.server.Request;

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
    /** Pollers hold long polls (ReceiveMessage waits up to 20 s): enough threads that they never starve a send. */
    private static final int THREADS = 64;

    private static final ForwardingFront.Door DOOR = new ForwardingFront.Door(
            "local-queues",
            "the local queues",
            THREADS,
            MAX_BODY_BYTES,
            "the local queues take POST only (SQS's JSON protocol, as the SDKs send it)");

    private final ForwardingFront front;
    private final RunSecret secret;
    private volatile URI elasticMq;

    private QueueFront(RunSecret secret) {
        this.secret = secret;
        this.front = ForwardingFront.bind(DOOR, (request, body, response, callback) -> Optional.of(forwarded(request)));
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
        front.start();
    }

    URI endpoint() {
        return front.endpoint();
    }

    int port() {
        return front.port();
    }

    /** Where ElasticMQ answers {@code request}: its path under the run's secret, and its query. */
    private URI forwarded(Request request) {
        String query = request.getHttpURI().getQuery();
        return elasticMq.resolve(underSecret(request.getHttpURI().getPath()) + (query == null ? "" : "?" + query));
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
        front.close();
    }
}
