package dev.oneread.tests.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;

/**
 * A TCP proxy on loopback in front of the engine, which does what its {@link Answers} say to each chunk of the
 * engine's answers before passing it on: hold it for a fixed delay (the network round trip a function has to
 * DynamoDB, which a local engine on loopback does not have, so the overlap of parallel queries is observable the
 * way it is in AWS), or keep one answer until a test lets it go (a call, and so an invocation, in flight exactly as
 * long as the test needs).
 */
public final class EngineProxy implements AutoCloseable {
    /** What happens to each chunk of an answer before it is passed on; it runs on that connection's thread. */
    public interface Answers {
        void beforeChunk() throws InterruptedException;

        /** The proxy is closing: let anything held go. */
        default void release() {}
    }

    private final ServerSocket server;
    private final URI upstream;
    private final Answers answers;

    public EngineProxy(URI upstream, Answers answers) throws IOException {
        this.upstream = upstream;
        this.answers = answers;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        daemon(this::accept, "engine-proxy");
    }

    /** Every answer chunk held for {@code delay}: a network's latency. */
    public static EngineProxy withLatency(URI upstream, Duration delay) throws IOException {
        return new EngineProxy(upstream, () -> Thread.sleep(delay.toMillis()));
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                client.setTcpNoDelay(true);
                Socket target = new Socket(upstream.getHost(), upstream.getPort());
                target.setTcpNoDelay(true);
                // Whether the connection's last request was one of the engine's own reports (GET /_oneread/...: the
                // heat, the change feed the console polls): their answers pass untouched, so a test's Answers act on
                // DynamoDB's answers only.
                java.util.concurrent.atomic.AtomicBoolean report = new java.util.concurrent.atomic.AtomicBoolean();
                daemon(() -> pipe(client, target, false, report), "engine-proxy-requests");
                daemon(() -> pipe(target, client, true, report), "engine-proxy-answers");
            } catch (IOException closed) {
                return;
            }
        }
    }

    private static final byte[] REPORT = "GET /_oneread/".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private void pipe(Socket from, Socket to, boolean isAnswer, java.util.concurrent.atomic.AtomicBoolean report) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                if (!isAnswer && startsWith(buffer, n, REPORT)) {
                    report.set(true);
                } else if (!isAnswer && n > 0 && (buffer[0] == 'P' || buffer[0] == 'G')) {
                    report.set(false); // a request of DynamoDB's API (POST /), or its next one
                }
                if (isAnswer && !report.get()) {
                    answers.beforeChunk();
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // a side closed
        } finally {
            close(from);
            close(to);
        }
    }

    private static boolean startsWith(byte[] buffer, int length, byte[] prefix) {
        if (length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (buffer[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static void daemon(Runnable body, String name) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        answers.release();
        server.close();
    }
}
