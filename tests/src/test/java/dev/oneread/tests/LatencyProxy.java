package dev.oneread.tests;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;

/**
 * A TCP proxy on loopback that holds every response chunk for a fixed delay: the network round trip a
 * function has to DynamoDB, which a local engine on loopback does not have. It makes the overlap of parallel
 * queries observable (and measurable) the way it is in AWS.
 */
final class LatencyProxy implements AutoCloseable {
    private final ServerSocket server;
    private final URI upstream;
    private final Duration delay;

    LatencyProxy(URI upstream, Duration delay) throws IOException {
        this.upstream = upstream;
        this.delay = delay;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "latency-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                client.setTcpNoDelay(true);
                Socket target = new Socket(upstream.getHost(), upstream.getPort());
                target.setTcpNoDelay(true);
                pipe(client.getInputStream(), target.getOutputStream(), Duration.ZERO, client, target);
                pipe(target.getInputStream(), client.getOutputStream(), delay, client, target);
            } catch (IOException closed) {
                return;
            }
        }
    }

    private static void pipe(InputStream in, OutputStream out, Duration delay, Socket a, Socket b) {
        Thread t = new Thread(
                () -> {
                    byte[] buffer = new byte[64 * 1024];
                    try {
                        for (int n; (n = in.read(buffer)) > 0; ) {
                            if (!delay.isZero()) {
                                Thread.sleep(delay.toMillis());
                            }
                            out.write(buffer, 0, n);
                            out.flush();
                        }
                    } catch (IOException | InterruptedException e) {
                        // connection closed
                    } finally {
                        close(a);
                        close(b);
                    }
                },
                "latency-pipe");
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
        server.close();
    }
}
