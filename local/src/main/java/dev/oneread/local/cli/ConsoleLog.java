package dev.oneread.local.cli;

import dev.oneread.json.Json;
import dev.oneread.local.runner.ApiServer;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * Tells the console of the running start-api what a command did on its engine ({@code POST
 * /_console/api/requests}): the request {@code invoke} ran, the items {@code seed} wrote. The writes themselves reach
 * the console through the engine's change feed; this puts them in its request log. A console that cannot be told
 * costs one warning line on stderr, never the command.
 *
 * <pre>{@code ConsoleLog.post(api, served.toJson(), "invoke", io.err());}</pre>
 */
final class ConsoleLog {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** start-api listens on the loopback interface only: a state file that names another host is not its own. */
    private static final Set<String> LOOPBACK = Set.of("127.0.0.1", "localhost", "[::1]");

    private ConsoleLog() {}

    static void post(URI api, Map<String, Object> entry, String command, PrintStream err) {
        if (!LOOPBACK.contains(String.valueOf(api.getHost()))) {
            err.println(command + ": not logged in start-api's console: " + api + " is not a loopback address");
            return;
        }
        try {
            HttpResponse<String> response = HttpClient.newBuilder()
                    .connectTimeout(TIMEOUT)
                    .build()
                    .send(
                            HttpRequest.newBuilder(api.resolve(ApiServer.CONSOLE_PATH + "/api/requests"))
                                    .timeout(TIMEOUT)
                                    .header("Content-Type", "application/json")
                                    .POST(HttpRequest.BodyPublishers.ofString(Json.write(entry)))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                err.println(command + ": not logged in start-api's console: it answered " + response.statusCode());
            }
        } catch (IOException e) {
            err.println(command + ": not logged in start-api's console: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println(command + ": not logged in start-api's console: interrupted");
        }
    }
}
