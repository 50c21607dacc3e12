package dev.oneread.local.runner;

import dev.oneread.http.HttpResponse;
import dev.oneread.http.Problems;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A Jetty core server that listens on 127.0.0.1 alone, on daemon threads, without a version header, and answers
 * what Jetty refuses by itself in problem+json: start-api's and the local queues' front. Its connector is returned
 * unopened; {@code connector.getServer()} is the server.
 *
 * <pre>{@code ServerConnector connector = LoopbackServer.connector("start-api", 16, 3000, new HttpConfiguration());}</pre>
 */
final class LoopbackServer {
    private LoopbackServer() {}

    static ServerConnector connector(String name, int maxThreads, int port, HttpConfiguration http) {
        QueuedThreadPool threads = new QueuedThreadPool(maxThreads, 2);
        threads.setName(name);
        threads.setDaemon(true);
        Server server = new Server(threads);
        http.setSendServerVersion(false);
        ServerConnector connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);
        server.setErrorHandler(new ProblemErrorHandler());
        return connector;
    }

    /** What a front does with each request it takes. */
    @FunctionalInterface
    interface Serving {
        void serve(Request request, Response response, Callback callback);
    }

    /**
     * A connector of its own server ({@link #connector}), already bound to a free loopback port, whose every request
     * goes to {@code serving}: the runner's fronts. Start its server when it may serve.
     */
    static ServerConnector bound(String name, int maxThreads, Serving serving) {
        ServerConnector connector = connector(name, maxThreads, 0, new HttpConfiguration());
        connector.getServer().setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                serving.serve(request, response, callback);
                return true;
            }
        });
        try {
            connector.open();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot open a port for " + name, e);
        }
        return connector;
    }

    /** Answers {@code status} as a problem+json whose detail is {@code detail} (null: none). */
    static void problem(Response response, int status, String detail, Callback callback) {
        HttpResponse problem = Problems.problem(status, detail);
        response.setStatus(status);
        problem.headers().forEach((name, value) -> response.getHeaders().put(name, value));
        response.write(true, ByteBuffer.wrap(problem.body().getBytes(StandardCharsets.UTF_8)), callback);
    }

    /**
     * What Jetty answers by itself (a request line or headers it cannot parse, a URI or headers too long):
     * problem+json like every other error, never Jetty's HTML page or a message of its internals.
     */
    private static final class ProblemErrorHandler extends ErrorHandler {
        @Override
        protected void generateResponse(
                Request request, Response response, int status, String message, Throwable cause, Callback callback) {
            problem(response, status, detail(status), callback);
        }

        @Override
        public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
            HttpResponse problem = Problems.problem(status, detail(status));
            problem.headers().forEach(fields::put);
            return ByteBuffer.wrap(problem.body().getBytes(StandardCharsets.UTF_8));
        }

        private static String detail(int status) {
            return switch (status) {
                case 400 -> "the request is not valid HTTP";
                case 413 -> "the request body is too large";
                case 414 -> "the request URI is too long";
                case 431 -> "the request headers are too large";
                default -> null;
            };
        }
    }
}
