package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ConsolePage;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The console's {@code changed} event carries the rows a request wrote, so an open page applies them in place: its
 * shape is a contract (the engine's change feed is to publish the same), read here off the event stream itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleChangedEventTest {
    private final TestEngine engine = TestEngine.get();
    private final String table =
            "console-changed-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("changed");
    private LocalApi api;

    @BeforeAll
    void start() throws Exception {
        api = LocalApi.start(engine, table, Map.of());
        ConsolePage.createWorkspace(api, ws);
    }

    @AfterAll
    void stop() {
        if (api != null) {
            api.close();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void create_shouldPublishChanged_withTheRowItWrote() throws Exception {
        // GIVEN a console listening
        HttpResponse<InputStream> stream = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(api.uri("/_console/api/events")).build(),
                        HttpResponse.BodyHandlers.ofInputStream());
        BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8));
        assertThat(lines.readLine()).isEqualTo(": connected");
        CompletableFuture<Map<String, Object>> changed = CompletableFuture.supplyAsync(() -> firstChanged(lines));
        // WHEN a project is created
        HttpResponse<String> created =
                api.send("POST", "/workspaces/" + ws + "/projects", "{\"name\":\"live\"}", List.of(ws), false);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String id = (String) Json.readObject(created.body()).get("id");
        // THEN the event names the partition and tenant, and carries the project's row as the collection shows it
        Map<String, Object> event = changed.get(10, TimeUnit.SECONDS);
        stream.body().close();
        assertThat(event).containsOnlyKeys("partitions", "tenants", "items");
        assertThat(event.get("partitions")).isEqualTo(List.of("WS#" + ws));
        assertThat(event.get("tenants")).isEqualTo(List.of(ws));
        List<Map<String, Object>> items = (List<Map<String, Object>>) event.get("items");
        Map<String, Object> item = items.stream()
                .filter(i -> ("PROJ#" + id).equals(i.get("sort")))
                .findFirst()
                .orElseThrow();
        assertThat(item).containsOnlyKeys("partition", "sort", "row").containsEntry("partition", "WS#" + ws);
        Map<String, Object> row = (Map<String, Object>) item.get("row");
        assertThat(row)
                .containsEntry("partition", "WS#" + ws)
                .containsEntry("sort", "PROJ#" + id)
                .containsEntry("tenant", ws)
                .containsEntry("kind", "project")
                .containsEntry("id", id)
                .containsKeys("size", "createdAt");
        assertThat((Map<String, Object>) row.get("attributes"))
                .containsEntry("name", Map.of("S", "live"))
                .containsEntry("version", Map.of("N", "1"));
    }

    /** The data of the first {@code changed} event on the stream. */
    private static Map<String, Object> firstChanged(BufferedReader lines) {
        try {
            String type = null;
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith("event: ")) {
                    type = line.substring("event: ".length());
                } else if (line.startsWith("data: ") && "changed".equals(type)) {
                    return Json.readObject(line.substring("data: ".length()));
                }
            }
            throw new IllegalStateException("the stream ended before a changed event");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
