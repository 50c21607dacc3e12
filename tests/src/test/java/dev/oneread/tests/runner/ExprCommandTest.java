package dev.oneread.tests.runner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.cli.Main;
import dev.oneread.local.expr.RequestPrinter;
import dev.oneread.operations.ListProjectsByStatusOperation;
import dev.oneread.operations.ListProjectsOperation;
import dev.oneread.operations.OperationContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExprCommandTest {

    record Run(int exitCode, String stdout, String stderr) {
        List<String> lines() {
            return stdout.lines().toList();
        }

        /** The printed sections: expression lines, Java snippet, AWS CLI command. */
        List<String> section(int index) {
            return Arrays.asList(stdout.split("\n\n")[index].split("\n"));
        }
    }

    private static Run expr(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of("expr"));
        all.addAll(List.of(args));
        int code = Main.run(
                all,
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                Map.of());
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void query_shouldPrintTheSeedExpressionByteForByte() {
        Run run = expr("query", "--pk", "EntityRef=WS#acme", "--sk-begins-with", "Detail=PROJ#");

        assertThat(run.exitCode()).isZero();
        String expected = """
                KeyConditionExpression     "#er = :er AND begins_with(#d, :p)"
                ExpressionAttributeNames   { "#er": "EntityRef", "#d": "Detail" }
                ExpressionAttributeValues  { ":er": "WS#acme", ":p": "PROJ#" }
                """;
        assertThat(run.stdout().getBytes(StandardCharsets.UTF_8)).startsWith(expected.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void byStatus_shouldPrintTheIndexQueryTheListingSendsForThatShard() {
        Run run = expr("by-status", "--status", "PAUSED", "--shard", "3");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        String expected = """
                # shard 3 of 8: the page sends one such query per shard, at once, and merges them newest first
                IndexName                  "GSI1"
                KeyConditionExpression     "#gp = :gp AND begins_with(#gs, :p)"
                ExpressionAttributeNames   { "#gp": "GSI1PK", "#gs": "GSI1SK" }
                ExpressionAttributeValues  { ":gp": "STATUS#PAUSED#03", ":p": "PROJ#" }
                """;
        assertThat(run.stdout()).startsWith(expected);
        // the same lines the store's own request gives: the printer prints what GET /projects sends
        assertThat(run.stdout())
                .contains(String.join(
                        "\n",
                        dev.oneread.local.expr.RequestPrinter.expressionLines(
                                ListProjectsByStatusOperation.generateRequestIn(
                                        OperationContext.of("oneread"),
                                        "STATUS#PAUSED#03",
                                        20,
                                        java.util.Optional.empty()))))
                .contains("--index-name GSI1");
    }

    @Test
    void workspaces_shouldPrintTheRegistryQuery_andRefuseAShardOutOfRange() {
        Run run = expr("workspaces", "--shard", "8");
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stdout()).contains("ExpressionAttributeValues  { \":gp\": \"WSREG#08\" }");
        Run refused = expr("workspaces", "--shard", "9");
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.stderr()).contains("--shard must be 1..8");
    }

    @ParameterizedTest
    @ValueSource(strings = {"--sk-eq:=", "--sk-lt:<", "--sk-le:<=", "--sk-gt:>", "--sk-ge:>="})
    void query_shouldSupportEveryComparisonOnTheSortKey(String flagAndSymbol) {
        String[] parts = flagAndSymbol.split(":");

        Run run = expr("query", "--pk", "EntityRef=WS#acme", parts[0], "Detail=PROJ#01J");

        assertThat(run.lines().get(0)).isEqualTo("KeyConditionExpression     \"#er = :er AND #d " + parts[1] + " :d\"");
    }

    @Test
    void queryHelp_shouldListTheSortFlagsInTheTablesOrder() {
        // GIVEN the seven sort key flags, declared once as a table (they came from reflection, in varying order)
        // WHEN
        Run run = expr("query", "--help");
        // THEN the synopsis lists them in the order of the options below it, on every run
        assertThat(run.exitCode()).isZero();
        assertThat(String.join(" ", run.stdout().trim().split("\\s+")))
                .contains("[--sk-eq=NAME=VALUE | --sk-lt=NAME=VALUE | --sk-le=NAME=VALUE | --sk-gt=NAME=VALUE"
                        + " | --sk-ge=NAME=VALUE | --sk-begins-with=NAME=PREFIX"
                        + " | --sk-between=NAME=LOW HIGH [--sk-between=NAME=LOW HIGH]...]");
    }

    @Test
    void query_shouldSupportBetween() {
        Run run = expr("query", "--pk", "EntityRef=WS#acme", "--sk-between", "Detail=PROJ#0", "PROJ#9");

        assertThat(run.lines().subList(0, 3))
                .containsExactly(
                        "KeyConditionExpression     \"#er = :er AND #d BETWEEN :lo AND :hi\"",
                        "ExpressionAttributeNames   { \"#er\": \"EntityRef\", \"#d\": \"Detail\" }",
                        "ExpressionAttributeValues  { \":er\": \"WS#acme\", \":lo\": \"PROJ#0\", \":hi\": \"PROJ#9\" }");
    }

    @Test
    void listProjects_shouldPrintTheRequestTheStoreSends() {
        Run run = expr("list-projects", "--workspace", "acme", "--table", "prod-oneread");

        var storeRequest = ListProjectsOperation.generateRequest(
                OperationContext.of("prod-oneread"), WorkspaceId.of("acme"), 20, Optional.empty());
        assertThat(run.section(0)).isEqualTo(RequestPrinter.expressionLines(storeRequest));
        assertThat(run.section(1)).isEqualTo(RequestPrinter.javaSnippet(storeRequest));
        assertThat(run.stdout()).contains(".scanIndexForward(false)", ".limit(21)", "--no-scan-index-forward");
    }

    @Test
    void javaSnippet_shouldCompile(@TempDir Path dir) throws IOException {
        // GIVEN the snippet, wrapped into a method that receives the client it names
        List<String> snippet = expr("list-projects", "--workspace", "acme").section(1);
        // WHEN it is compiled THEN
        assertCompiles(dir, "Snippet", "DynamoDbClient dynamoDb", snippet);
        assertThat(dir.resolve("Snippet.class")).exists();
    }

    /** Compiles {@code snippet} as the body of {@code static QueryResponse run(parameters)} in class {@code name}. */
    private static void assertCompiles(Path dir, String name, String parameters, List<String> snippet)
            throws IOException {
        String imports = snippet.stream().filter(l -> l.startsWith("import ")).collect(Collectors.joining("\n"));
        String body = snippet.stream().filter(l -> !l.startsWith("import ")).collect(Collectors.joining("\n        "));
        Path source = dir.resolve(name + ".java");
        Files.writeString(
                source,
                imports + "\n\nclass " + name + " {\n    static QueryResponse run(" + parameters + ") {\n        "
                        + body + "\n        return response;\n    }\n}\n");
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        int result = compiler.run(
                null, diagnostics, diagnostics, "-classpath", classpath, "-d", dir.toString(), source.toString());
        assertThat(result).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();
    }

    /** What {@code cli} hands an {@code aws} shell function (defined by {@code aws}) when bash runs it. */
    private static List<String> throughBash(String aws, List<String> cli) throws Exception {
        Process bash = new ProcessBuilder("bash", "-c", aws + "\n" + String.join("\n", cli) + "\n")
                .redirectErrorStream(true)
                .start();
        List<String> args = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .lines()
                .toList();
        assertThat(bash.waitFor()).isZero();
        return args;
    }

    @Test
    void endpointUrl_shouldPrintSnippetsThatReachTheLocalEngine() throws Exception {
        // GIVEN a pattern and the query command, each told of a local engine
        Run pattern = expr("list-projects", "--workspace", "acme", "--endpoint-url", "http://127.0.0.1:8123");
        Run query = expr("query", "--pk", "EntityRef=WS#acme", "--endpoint-url", "http://127.0.0.1:8123");
        // WHEN bash runs the command line, with `aws` printing its credentials and each argument it receives
        List<String> args = throughBash(
                "aws() { printf '%s\\n' \"$AWS_ACCESS_KEY_ID/$AWS_SECRET_ACCESS_KEY\" \"$@\"; }", query.section(2));
        // THEN it names the engine, a region and credentials; the Java snippet builds a client of the engine
        assertThat(args)
                .startsWith(
                        "local/local",
                        "dynamodb",
                        "query",
                        "--endpoint-url",
                        "http://127.0.0.1:8123",
                        "--region",
                        "us-east-1",
                        "--table-name",
                        "oneread");
        assertThat(pattern.section(1))
                .contains(
                        "DynamoDbClient dynamoDb = DynamoDbClient.builder()",
                        "        .endpointOverride(URI.create(\"http://127.0.0.1:8123\"))",
                        "        .region(Region.of(\"us-east-1\"))");
        assertThat(pattern.section(2)).contains("    --endpoint-url http://127.0.0.1:8123 \\");
        // AND without the flag, both are for the deployed table, as before
        assertThat(expr("list-projects", "--workspace", "acme").stdout())
                .doesNotContain("--endpoint-url", "endpointOverride", "AWS_ACCESS_KEY_ID");
    }

    @Test
    void localJavaSnippet_shouldCompileOnItsOwn(@TempDir Path dir) throws IOException {
        // GIVEN the local snippet, which declares its own client, in a method that receives nothing
        List<String> snippet = expr("list-projects", "--workspace", "acme", "--endpoint-url", "http://127.0.0.1:8123")
                .section(1);
        // WHEN it is compiled THEN
        assertCompiles(dir, "LocalSnippet", "", snippet);
    }

    @Test
    void awsCli_shouldBeShellQuotedSoEveryArgumentArrivesIntact() throws Exception {
        // GIVEN values with characters a shell would mangle
        List<String> cli = expr(
                        "query", "--pk", "EntityRef=WS#it's $HOME", "--sk-begins-with", "Detail=PROJ#\"*", "--desc")
                .section(2);
        // WHEN bash parses it, with `aws` printing each argument it receives on its own line
        List<String> args = throughBash("aws() { printf '%s\\n' \"$@\"; }", cli);
        // THEN
        assertThat(args)
                .containsExactly(
                        "dynamodb",
                        "query",
                        "--table-name",
                        "oneread",
                        "--key-condition-expression",
                        "#er = :er AND begins_with(#d, :p)",
                        "--expression-attribute-names",
                        "{\"#er\":\"EntityRef\",\"#d\":\"Detail\"}",
                        "--expression-attribute-values",
                        "{\":er\":{\"S\":\"WS#it's $HOME\"},\":p\":{\"S\":\"PROJ#\\\"*\"}}",
                        "--no-scan-index-forward",
                        "--return-consumed-capacity",
                        "TOTAL");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "query",
                "query --pk",
                "query --pk EntityRef",
                "query --pk =x",
                "frobnicate",
                "query --pk a=b --sk-eq c=d --sk-lt c=e",
                "query --pk a=b --limit 0",
                "query --pk a=b stray",
                "list-projects",
                "list-projects --workspace ACME",
                "query --pk a=b --sk-between c=d",
                "query --pk a=b --sk-eq a=c"
            })
    void badArguments_shouldPrintUsageAndExit2(String args) {
        Run run = expr(args.isEmpty() ? new String[0] : args.split(" "));

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stdout()).isEmpty();
        assertThat(run.stderr()).startsWith("expr: ").contains("usage: expr query");
    }
}
