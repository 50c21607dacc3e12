package dev.oneread.tests.support;

import dev.oneread.local.cli.StartApi;
import dev.oneread.local.console.Console;
import dev.oneread.local.runner.ApiServer;
import dev.oneread.local.runner.LocalStack;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.util.Map;

/**
 * {@code start-api} as a developer runs it, console included, on the test engine and a free port, with its console output dropped: for
 * tests that go through the HTTP API's authorizer and routes rather than invoking a function directly.
 */
public final class LocalApi implements AutoCloseable {
    private final LocalStack stack;
    private final int port;
    private final Runnable close;

    private LocalApi(LocalStack stack, int port, Runnable close) {
        this.stack = stack;
        this.port = port;
        this.close = close;
    }

    public LocalStack stack() {
        return stack;
    }

    public static LocalApi start(TestEngine engine) throws IOException {
        return start(engine, TestEngine.TABLE, Map.of());
    }

    /** start-api on its own {@code table} (created empty if missing), with template parameter overrides. */
    public static LocalApi start(TestEngine engine, String table, Map<String, String> overrides) throws IOException {
        return start(engine, table, overrides, null);
    }

    /** As {@link #start(TestEngine, String, Map)}, its console keeping its queries in {@code dataDir} (null: memory). */
    public static LocalApi start(
            TestEngine engine, String table, Map<String, String> overrides, java.nio.file.Path dataDir)
            throws IOException {
        LocalStack stack = LocalStack.start(
                engine.root,
                LocalStack.Settings.fromEnvironment(
                        Map.of("DYNAMODB_ENDPOINT", engine.endpoint.toString(), "TABLE_NAME", table),
                        overrides,
                        null,
                        false),
                quiet());
        ApiServer server = new ApiServer(stack.functions(), stack.authorizer(), 0, quiet());
        Console console =
                Console.attach(server, stack.client(), table, stack::configuration, engine.endpoint, dataDir, quiet());
        server.start();
        return new LocalApi(stack, server.port(), () -> {
            console.close();
            server.close();
            stack.close();
        });
    }

    /**
     * start-api as the command runs it, seeded with the sample data and registered in {@code stateFile}: so that
     * {@code invoke --state-file stateFile} and {@code seed} work on its engine and table, and tell its console.
     */
    public static LocalApi startRegistered(TestEngine engine, String table, java.nio.file.Path stateFile)
            throws IOException {
        StartApi api = StartApi.start(
                engine.root,
                new LocalStack.Settings(engine.endpoint, null, table, Map.of(), true),
                0,
                stateFile,
                quiet());
        return new LocalApi(api.stack(), api.port(), api::close);
    }

    /**
     * Sends a request as a caller of {@code workspaces} (an operator too when {@code admin}), with a token the
     * stack's own authorizer signed.
     */
    public java.net.http.HttpResponse<String> send(
            String method,
            String path,
            String jsonBody,
            java.util.List<String> workspaces,
            boolean admin,
            String... headerNamesAndValues)
            throws IOException, InterruptedException {
        String token = stack.authorizer().issue("console-tester", workspaces, admin, java.time.Duration.ofMinutes(10));
        return sendWithToken(method, path, jsonBody, token, headerNamesAndValues);
    }

    /** Sends a request with {@code token} as its bearer token (one a test shaped and signed), and any headers. */
    public java.net.http.HttpResponse<String> sendWithToken(
            String method, String path, String jsonBody, String token, String... headerNamesAndValues)
            throws IOException, InterruptedException {
        java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(uri(path))
                .header("Authorization", "Bearer " + token)
                .method(
                        method,
                        jsonBody == null
                                ? java.net.http.HttpRequest.BodyPublishers.noBody()
                                : java.net.http.HttpRequest.BodyPublishers.ofString(jsonBody));
        if (jsonBody != null) {
            request.header("Content-Type", "application/json");
        }
        for (int i = 0; i + 1 < headerNamesAndValues.length; i += 2) {
            request.header(headerNamesAndValues[i], headerNamesAndValues[i + 1]);
        }
        return HTTP.send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    /** Creates a project in {@code workspace} as a caller of it, with any headers (an Idempotency-Key); the response. */
    public java.net.http.HttpResponse<String> createProject(String workspace, String jsonBody, String... headers)
            throws IOException, InterruptedException {
        return send(
                "POST",
                "/workspaces/" + workspace + "/projects",
                jsonBody,
                java.util.List.of(workspace),
                false,
                headers);
    }

    private static final java.net.http.HttpClient HTTP = java.net.http.HttpClient.newHttpClient();

    /** The signing key of start-api runs on an engine in memory (the project's .oneread/signing-key). */
    public static byte[] signingKey(TestEngine engine) {
        return dev.oneread.local.auth.SigningKey.loadOrCreate(
                dev.oneread.local.auth.SigningKey.fileFor(engine.root, null));
    }

    public int port() {
        return port;
    }

    /** The address of {@code path} (starting with a slash) on this server. */
    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port() + path);
    }

    @Override
    public void close() {
        close.run();
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream());
    }
}
