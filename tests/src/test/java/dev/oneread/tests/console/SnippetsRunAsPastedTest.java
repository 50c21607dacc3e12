package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.store.items.DynamoJson;
import dev.oneread.tests.support.ConsoleHttp;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.StartsProcesses;
import dev.oneread.tests.support.TestEngine;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Each snippet the table tools show for a Scan or Query runs as pasted against the local engine, and prints the page
 * the console showed: the same items, after the same calls, items read and capacity, stopped for the same reason.
 * Java through the {@code java} source launcher with the SDK on the classpath; the aws CLI and jq as Debian installs
 * them ({@code /usr/bin/aws}, awscli 2.9, not a pyenv {@code aws} earlier in PATH); boto3 with Debian's
 * {@code /usr/bin/python3} (python3-boto3 1.26); JavaScript with node and the SDK v3 pinned in tests/snippets
 * ({@code npm ci --prefix tests/snippets}, as .ci/run does). The expression builder's boto3, JavaScript and CLI
 * snippets too; its Java snippet is statements to paste into a method (ExprCommandTest compiles it), not a program.
 * And the PartiQL form's four, for a page after the first (with its NextToken).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@StartsProcesses
class SnippetsRunAsPastedTest {
    private static final int ITEMS = 200;
    /** The figures line every snippet prints on standard error. */
    private static final Pattern FIGURES =
            Pattern.compile("(\\d+) items, (\\d+) calls, (\\d+) items read, ([0-9.]+) capacity units, stopped: (.+)");
    /** Where node finds the pinned SDK: a module in tests/snippets resolves its node_modules. */
    private static final Path NODE_PROJECT = Path.of("snippets").toAbsolutePath();

    private final TestEngine engine = TestEngine.get();
    private final String table = "snippets-" + UUID.randomUUID().toString().substring(0, 8);
    private final String partition = "SNIP#" + UUID.randomUUID().toString().substring(0, 8);
    private final String indexPartition = "SNIPIDX#" + partition.substring(5);
    private LocalApi api;

    @BeforeAll
    void start() throws Exception {
        api = LocalApi.start(engine, table, Map.of());
        // GIVEN 200 items in one partition (and in one of the index), a tenth of them "hit", and a run of them
        SeededPartition.write(engine, table, partition, indexPartition, ITEMS, i -> i % 10 == 0 || (i >= 50 && i < 70));
        // AND the index caught up (the engine updates it after the write, as DynamoDB does)
        Eventually.await(
                () -> engine.client
                                .query(QueryRequest.builder()
                                        .tableName(table)
                                        .indexName("GSI1")
                                        .keyConditionExpression("GSI1PK = :p")
                                        .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(indexPartition)))
                                        .build())
                                .count()
                        == ITEMS,
                Eventually.FAILSAFE);
    }

    @AfterAll
    void stop() {
        api.close();
    }

    private static final String HIT = "\"filters\":[{\"attribute\":\"status\",\"operator\":\"=\",\"value\":\"hit\"}]";

    /** The reads the tools run: a name, and the form. */
    Stream<Arguments> reads() {
        return Stream.of(
                Arguments.of(
                        "a filtered query of the table",
                        "{\"mode\":\"query\",\"partition\":\"%P\",\"limit\":7," + HIT + "}"),
                Arguments.of(
                        "a filtered scan's second page", "{\"mode\":\"scan\",\"limit\":12," + HIT + ",\"next\":true}"),
                Arguments.of(
                        "a descending index query with a projection",
                        "{\"target\":\"GSI1\",\"mode\":\"query\",\"partition\":\"%I\",\"descending\":true,\"limit\":5,"
                                + "\"projection\":[\"name\"]," + HIT + "}"),
                Arguments.of(
                        "a scan that spends its budget",
                        "{\"mode\":\"scan\",\"limit\":5,\"budget\":60,"
                                + "\"filters\":[{\"attribute\":\"version\",\"operator\":\">\",\"value\":\"1000\",\"type\":\"N\"}]}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reads")
    void everySnippet_shouldPrintTheConsolesPage(String name, String template) throws Exception {
        // GIVEN a read run in the console (its second page, for the one that says so)
        String form = template.replace("%P", partition).replace("%I", indexPartition);
        Map<String, Object> page = read(form.replace(",\"next\":true", ""));
        if (form.contains("\"next\":true")) {
            assertThat(page.get("cursor")).isNotNull();
            page = read(form.replace(",\"next\":true", ",\"cursor\":\"" + page.get("cursor") + "\""));
        }
        @SuppressWarnings("unchecked")
        Map<String, String> snippets = (Map<String, String>) page.get("snippets");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> items = (List<Map<String, Object>>) page.get("items");
        assertThat(snippets).containsOnlyKeys("java", "cli", "python", "javascript");
        // WHEN each runs as pasted, all four at once
        Path dir = Files.createTempDirectory("snippets");
        CompletableFuture<Ran> java = run(dir, "QueryPage.java", snippets.get("java"), dir, javaCommand());
        CompletableFuture<Ran> cli = run(dir, "page.sh", snippets.get("cli"), dir, List.of("/usr/bin/bash"));
        CompletableFuture<Ran> python = run(dir, "page.py", snippets.get("python"), dir, List.of("/usr/bin/python3"));
        Files.createDirectories(NODE_PROJECT.resolve("target"));
        CompletableFuture<Ran> javascript = run(
                NODE_PROJECT.resolve("target"),
                "page-" + UUID.randomUUID() + ".mjs",
                snippets.get("javascript"),
                NODE_PROJECT,
                List.of("node"));
        // THEN each printed the console's items, in its order, and the same figures
        List<String> javaItems = items.stream()
                .map(i -> new TreeMap<>(DynamoJson.toItem(i)).toString())
                .toList();
        assertThat(java.get().lines()).as("java: " + java.get().err()).containsExactlyElementsOf(javaItems);
        for (Map.Entry<String, CompletableFuture<Ran>> json :
                Map.of("cli", cli, "python", python, "javascript", javascript).entrySet()) {
            Ran ran = json.getValue().get();
            assertThat(ran.lines().stream().map(Json::readObject).toList())
                    .as(json.getKey() + ": " + ran.err())
                    .containsExactlyElementsOf(items);
        }
        for (CompletableFuture<Ran> ran : List.of(java, cli, python, javascript)) {
            Matcher figures = FIGURES.matcher(ran.get().err().strip());
            assertThat(figures.find()).as(ran.get().err()).isTrue();
            assertThat(Integer.parseInt(figures.group(1))).isEqualTo(items.size());
            assertThat(Integer.parseInt(figures.group(2))).isEqualTo(page.get("calls"));
            assertThat(Integer.parseInt(figures.group(3))).isEqualTo(page.get("scannedCount"));
            assertThat(new BigDecimal(figures.group(4)))
                    .isEqualByComparingTo(new BigDecimal((String) page.get("consumed")));
            assertThat(figures.group(5)).isEqualTo(page.get("stopped"));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void builderSnippets_inPythonJavaScriptAndTheCli_shouldReturnTheItemsOfItsQuery() throws Exception {
        // GIVEN the expression builder's key condition on the partition, 10 items, descending
        HttpResponse<String> built = ConsoleHttp.send(
                api,
                "POST",
                "/_console/api/expr",
                "application/json",
                "{\"pattern\":\"custom\",\"partition\":\"" + partition + "\",\"descending\":true,\"limit\":10}");
        assertThat(built.statusCode()).as(built.body()).isEqualTo(200);
        Map<String, Object> snippets = Json.readObject(built.body());
        List<String> expected = new ArrayList<>();
        for (int i = ITEMS - 1; i >= ITEMS - 10; i--) {
            expected.add(String.format("ITEM#%04d", i));
        }
        // WHEN each runs as pasted
        Path dir = Files.createTempDirectory("builder-snippets");
        Files.createDirectories(NODE_PROJECT.resolve("target"));
        CompletableFuture<Ran> python =
                run(dir, "query.py", (String) snippets.get("python"), dir, List.of("/usr/bin/python3"));
        CompletableFuture<Ran> javascript = run(
                NODE_PROJECT.resolve("target"),
                "query-" + UUID.randomUUID() + ".mjs",
                (String) snippets.get("javascript"),
                NODE_PROJECT,
                List.of("node"));
        CompletableFuture<Ran> cli = run(dir, "query.sh", (String) snippets.get("cli"), dir, List.of("/usr/bin/bash"));
        // THEN each gives the query's items: the partition's last 10, newest first
        for (CompletableFuture<Ran> ran : List.of(python, javascript)) {
            assertThat(ran.get().lines().stream()
                            .map(l -> (String)
                                    ((Map<String, Object>) Json.readObject(l).get("Detail")).get("S"))
                            .toList())
                    .as(ran.get().err())
                    .containsExactlyElementsOf(expected);
        }
        List<Map<String, Object>> cliItems =
                (List<Map<String, Object>>) Json.readObject(cli.get().out()).get("Items");
        assertThat(cliItems.stream()
                        .map(i -> (String) ((Map<String, Object>) i.get("Detail")).get("S"))
                        .toList())
                .containsExactlyElementsOf(expected);
    }

    @Test
    @SuppressWarnings("unchecked")
    void partiqlSnippets_shouldPrintTheConsolesSecondPage() throws Exception {
        // GIVEN a SELECT of the partition's hits run in the console, and its second page
        String form = "{\"statement\":\"SELECT * FROM \\\"" + table + "\\\" WHERE \\\"EntityRef\\\" = '" + partition
                + "' AND \\\"status\\\" = 'hit'\",\"limit\":60";
        Map<String, Object> first = post("/_console/api/statement", form + "}");
        assertThat(first.get("nextToken")).isNotNull();
        Map<String, Object> page =
                post("/_console/api/statement", form + ",\"nextToken\":\"" + first.get("nextToken") + "\"}");
        Map<String, String> snippets = (Map<String, String>) page.get("snippets");
        List<Map<String, Object>> items = (List<Map<String, Object>>) page.get("items");
        assertThat(items).isNotEmpty();
        // WHEN each runs as pasted
        Path dir = Files.createTempDirectory("statement-snippets");
        Files.createDirectories(NODE_PROJECT.resolve("target"));
        CompletableFuture<Ran> java = run(dir, "StatementPage.java", snippets.get("java"), dir, javaCommand());
        CompletableFuture<Ran> cli = run(dir, "statement.sh", snippets.get("cli"), dir, List.of("/usr/bin/bash"));
        CompletableFuture<Ran> python =
                run(dir, "statement.py", snippets.get("python"), dir, List.of("/usr/bin/python3"));
        CompletableFuture<Ran> javascript = run(
                NODE_PROJECT.resolve("target"),
                "statement-" + UUID.randomUUID() + ".mjs",
                snippets.get("javascript"),
                NODE_PROJECT,
                List.of("node"));
        // THEN each printed the console's page, and where the next page starts
        assertThat(java.get().lines())
                .as(java.get().err())
                .containsExactlyElementsOf(items.stream()
                        .map(i -> new TreeMap<>(DynamoJson.toItem(i)).toString())
                        .toList());
        for (CompletableFuture<Ran> ran : List.of(cli, python, javascript)) {
            assertThat(ran.get().lines().stream().map(Json::readObject).toList())
                    .as(ran.get().err())
                    .containsExactlyElementsOf(items);
        }
        String next = page.get("nextToken") == null ? "end" : (String) page.get("nextToken");
        for (CompletableFuture<Ran> ran : List.of(java, cli, python, javascript)) {
            assertThat(ran.get().err()).contains("next: " + next + ",");
        }
    }

    @Test
    void snippetsForTheDeployedTable_shouldNameNoEndpointNorCredentials() throws Exception {
        // GIVEN a read's snippets asked for the deployed table (no read is made for them)
        HttpResponse<String> response = ConsoleHttp.send(
                api,
                "POST",
                "/_console/api/read/snippets",
                "application/json",
                "{\"mode\":\"query\",\"partition\":\"" + partition + "\"," + HIT + ",\"deployed\":true}");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        // THEN none names the engine or the local credentials; each still runs the same loop
        Map<String, Object> snippets = Json.readObject(response.body());
        for (Object snippet : snippets.values()) {
            assertThat((String) snippet)
                    .doesNotContain(engine.endpoint.toString(), "local", "endpoint")
                    .contains("5000");
        }
    }

    // ---- helpers ------------------------------------------------------------------------------------------------

    private Map<String, Object> read(String body) throws Exception {
        return post("/_console/api/read", body);
    }

    private Map<String, Object> post(String path, String body) throws Exception {
        HttpResponse<String> response = ConsoleHttp.send(api, "POST", path, "application/json", body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Json.readObject(response.body());
    }

    record Ran(int exit, String out, String err) {
        List<String> lines() {
            return out.lines().filter(l -> !l.isBlank()).toList();
        }
    }

    /** Writes the snippet as pasted into {@code file} and runs it; the run, once it exited 0. */
    private static CompletableFuture<Ran> run(Path dir, String file, String snippet, Path workDir, List<String> command)
            throws IOException {
        Path source = dir.resolve(file);
        Files.writeString(source, snippet);
        List<String> all = new ArrayList<>(command);
        all.add(source.toString());
        ProcessBuilder builder = new ProcessBuilder(all).directory(workDir.toFile());
        // Debian's aws CLI and python3 first, and no AWS profile of the machine's: the snippet sets what it needs.
        builder.environment().put("PATH", "/usr/bin:/bin:" + System.getenv("PATH"));
        builder.environment().put("AWS_CONFIG_FILE", dir.resolve("no-config").toString());
        builder.environment()
                .put(
                        "AWS_SHARED_CREDENTIALS_FILE",
                        dir.resolve("no-credentials").toString());
        builder.environment().remove("AWS_PROFILE");
        Process process = builder.start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(process.getErrorStream()));
        return CompletableFuture.supplyAsync(() -> {
            String out = drain(process.getInputStream());
            try {
                int exit = process.waitFor();
                Ran ran = new Ran(exit, out, err.join());
                assertThat(exit).as(file + " exited " + exit + ": " + ran.err()).isZero();
                return ran;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
    }

    private static String drain(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** This JVM's java, in source-file mode, with the test classpath (the SDK on it). */
    private static List<String> javaCommand() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return List.of(java, "-cp", classpath);
    }
}
