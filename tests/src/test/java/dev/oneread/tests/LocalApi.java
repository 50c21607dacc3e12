package dev.oneread.tests;

import dev.oneread.local.runner.ApiServer;
import dev.oneread.local.runner.LocalStack;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.util.Map;

/**
 * {@code start-api} as a developer runs it, on the test engine and a free port, with its console output dropped: for
 * tests that go through the HTTP API's authorizer and routes rather than invoking a function directly.
 */
final class LocalApi implements AutoCloseable {
    private final LocalStack stack;
    private final ApiServer server;

    private LocalApi(LocalStack stack, ApiServer server) {
        this.stack = stack;
        this.server = server;
    }

    static LocalApi start(TestEngine engine) throws IOException {
        LocalStack stack = LocalStack.start(
                engine.root,
                LocalStack.Settings.fromEnvironment(
                        Map.of("DYNAMODB_ENDPOINT", engine.endpoint.toString(), "TABLE_NAME", TestEngine.TABLE),
                        Map.of(),
                        null,
                        false),
                quiet());
        ApiServer server = new ApiServer(stack.functions(), stack.authorizer(), 0, quiet());
        server.start();
        return new LocalApi(stack, server);
    }

    int port() {
        return server.port();
    }

    /** The address of {@code path} (starting with a slash) on this server. */
    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port() + path);
    }

    @Override
    public void close() {
        server.close();
        stack.close();
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream());
    }
}
