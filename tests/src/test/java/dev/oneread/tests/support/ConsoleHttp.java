package dev.oneread.tests.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

/**
 * The console's own endpoints as its input tests call them: a raw request (any method, any content type, no token),
 * the problem every bad one must get, and the table exported, to compare before and after.
 *
 * <pre>{@code ConsoleHttp.assertProblem(ConsoleHttp.send(api, "POST", "/_console/api/read", "text/plain", "{}"), 415,
 *         "application/json");}</pre>
 */
public final class ConsoleHttp {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private ConsoleHttp() {}

    /** @param type the Content-Type, or null for none; {@code body} null for none */
    public static HttpResponse<String> send(LocalApi api, String method, String path, String type, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(api.uri(path))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (type != null) {
            request.header("Content-Type", type);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A problem that names the fault ({@code detail} is part of it) and none of the runner's internals. */
    public static void assertProblem(HttpResponse<String> response, int status, String detail) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
        assertThat(response.body()).contains(detail).doesNotContain("Exception", "at dev.", "software.amazon");
        assertThat(response.headers().firstValue("cache-control")).hasValue("no-store");
        assertThat(response.headers().firstValue("x-content-type-options")).hasValue("nosniff");
    }

    /** The whole table as the console exports it. */
    public static String export(LocalApi api) throws IOException, InterruptedException {
        return api.send("GET", "/_console/api/fixtures", null, List.of(), false).body();
    }
}
