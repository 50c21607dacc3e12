package dev.oneread.local.runner;

import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A Jetty core server that listens on 127.0.0.1 alone, on daemon threads, without a version header: start-api's
 * and the local queues' front. Its connector is returned unopened; {@code connector.getServer()} is the server.
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
        return connector;
    }
}
