package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.http.Caller;
import dev.oneread.local.ProjectRoot;
import dev.oneread.local.catalogue.Catalogue;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.operations.Descriptor;
import dev.oneread.operations.KeyRange;
import dev.oneread.operations.Operation;
import dev.oneread.operations.Operations;
import dev.oneread.operations.Sample;
import dev.oneread.priming.PrimingRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The list of operations ({@link Operations#all()}) against everything else that lists them: the README's table and
 * the runbook's route list are generated from it, and openapi.yaml (paths and operationIds) and template.yaml (its
 * HttpApi events) must declare exactly its routes and functions, nothing missing, nothing extra; each failure names
 * the route. And no function zip carries the local catalogue: it is the runner's and the tests', never production's.
 */
class CatalogueTest {
    private static final Set<String> HTTP_METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");
    private static final String README_TABLE_HEADER = "| route | function | DynamoDB calls |";

    private final Path root = ProjectRoot.find();

    @Test
    void readme_shouldShowTheTableTheCatalogueGenerates() throws IOException {
        // GIVEN the README's access-pattern table: its header row and the rows that follow it
        List<String> lines = Files.readAllLines(root.resolve("README.md"));
        List<String> table = lines.stream()
                .dropWhile(line -> !line.equals(README_TABLE_HEADER))
                .takeWhile(line -> line.startsWith("|"))
                .toList();

        // THEN it is the catalogue's, to the character
        assertThat(table)
                .as("README.md's access-pattern table; `oneread-local catalogue` prints the catalogue's")
                .isEqualTo(Catalogue.markdownTable());
    }

    @Test
    void readme_shouldShowTheJobTableTheJobOperationsGenerate() throws IOException {
        List<String> table = Files.readAllLines(root.resolve("README.md")).stream()
                .dropWhile(line -> !line.equals(Catalogue.jobsTable().get(0)))
                .takeWhile(line -> line.startsWith("|"))
                .toList();

        assertThat(table)
                .as("README.md's job table; `oneread-local catalogue --jobs` prints it")
                .isEqualTo(Catalogue.jobsTable());
    }

    @Test
    void template_shouldDeclareEveryFunctionAsAnOperationsOrAJobs_withTheJobsEvents() {
        SamTemplate template = SamTemplate.load(root.resolve("template.yaml"));
        Map<String, List<String>> functions = new java.util.TreeMap<>();
        template.resourcesOfType("AWS::Serverless::Function")
                .forEach((id, resource) -> functions.put(
                        id,
                        SamTemplate.map(SamTemplate.map(resource.get("Properties"))
                                        .get("Events"))
                                .values()
                                .stream()
                                .map(event -> (String) SamTemplate.map(event).get("Type"))
                                .filter(type -> !"HttpApi".equals(type))
                                .toList()));

        Map<String, List<String>> declared = new java.util.TreeMap<>();
        descriptors().forEach(d -> declared.put(d.function(), List.of()));
        Operations.jobs()
                .forEach(job -> declared.put(
                        job.descriptor().function(), job.descriptor().events()));
        // the user pool's token trigger: it adds a claim, and calls no table (see AddWorkspacesClaimFunction)
        declared.put("AddWorkspacesClaim", List.of());
        assertThat(functions)
                .as("template.yaml's functions and their events other than HttpApi, against the operations and jobs")
                .isEqualTo(declared);
    }

    @Test
    void events_shouldHoldOneEventPerOperation_onItsRoute() throws IOException {
        // GIVEN events/: one API Gateway event per route's function (a job's event has no routeKey)
        Map<String, String> routed = new java.util.TreeMap<>();
        try (Stream<Path> files = Files.list(root.resolve("events"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json")).toList()) {
                JsonNode event = new YAMLMapper().readTree(Files.readString(file));
                if (event.has("routeKey")) {
                    routed.put(
                            file.getFileName().toString(),
                            event.path("routeKey").asString() + ", context "
                                    + event.path("requestContext")
                                            .path("routeKey")
                                            .asString());
                }
            }
        }

        // THEN each operation has its function's event, on its route, and no event is on another route
        Map<String, String> expected = new java.util.TreeMap<>();
        descriptors()
                .forEach(d -> expected.put(
                        d.directory() + ".json",
                        d.route().key() + ", context " + d.route().key()));
        assertThat(routed).as("events/ (file, routeKey) against the operations").isEqualTo(expected);
    }

    @Test
    void runbook_shouldListTheRoutesTheOperationsDeclare() throws IOException {
        // GIVEN the runbook's route list: the table under its heading
        List<String> lines = Files.readAllLines(root.resolve("docs/operations.md"));
        List<String> table = lines.stream()
                .dropWhile(line -> !line.equals(Catalogue.RUNBOOK_HEADING))
                .skip(1)
                .dropWhile(line -> !line.startsWith("|"))
                .takeWhile(line -> line.startsWith("|"))
                .toList();

        // THEN it is the one the operations give, to the character
        assertThat(table)
                .as(
                        "docs/operations.md's route list under '%s'; `oneread-local catalogue --runbook` prints it",
                        Catalogue.RUNBOOK_HEADING)
                .isEqualTo(Catalogue.runbookTable());
    }

    @Test
    void openApi_shouldDocumentExactlyTheOperationsRoutes() throws IOException {
        JsonNode paths = new YAMLMapper()
                .readTree(Files.readString(root.resolve("openapi.yaml")))
                .path("paths");
        List<String> documented = new ArrayList<>();
        for (String path : paths.propertyNames()) {
            for (String method : paths.path(path).propertyNames()) {
                if (HTTP_METHODS.contains(method)) {
                    documented.add(method.toUpperCase(Locale.ROOT) + " " + path + " operationId "
                            + paths.path(path).path(method).path("operationId").asString());
                }
            }
        }

        assertThat(documented)
                .as("openapi.yaml's operations (route, operationId) against the operations' routes")
                .containsExactlyInAnyOrderElementsOf(descriptors().stream()
                        .map(d -> d.route().key() + " operationId " + d.operationId())
                        .toList());
    }

    private static List<Descriptor> descriptors() {
        return Operations.all().stream().map(Operation::descriptor).toList();
    }

    @Test
    void template_shouldRouteExactlyTheOperationsFunctions() {
        SamTemplate template = SamTemplate.load(root.resolve("template.yaml"));
        List<String> routed = new ArrayList<>();
        template.resourcesOfType("AWS::Serverless::Function").forEach((id, resource) -> {
            Map<String, Object> properties = SamTemplate.map(resource.get("Properties"));
            SamTemplate.map(properties.get("Events")).values().stream()
                    .map(SamTemplate::map)
                    .filter(event -> "HttpApi".equals(event.get("Type")))
                    .map(event -> SamTemplate.map(event.get("Properties")))
                    .forEach(event -> routed.add(route(
                            id,
                            (String) event.get("Method"),
                            (String) event.get("Path"),
                            (String) properties.get("CodeUri"),
                            SamTemplate.map(event.get("Auth")).get("AuthorizationScopes"))));
        });

        assertThat(routed)
                .as("template.yaml's HttpApi functions (id, route, code, scopes) against the operations")
                .containsExactlyInAnyOrderElementsOf(descriptors().stream()
                        .map(d -> route(
                                d.function(),
                                d.route().method(),
                                d.route().path(),
                                "functions/" + d.directory() + "/target/" + d.directory() + ".zip",
                                d.scope().authorizationScopes()))
                        .toList());
    }

    private static String route(String function, String method, String path, String code, Object scopes) {
        return function + " " + method + " " + path + " from " + code + " scopes " + scopes;
    }

    @Test
    void everyOperation_shouldBuildARequestOnTheKeysItDeclares() {
        Sample sample = Sample.of("oneread");
        for (Operation operation : Operations.all()) {
            String name = operation.descriptor().name();
            DynamoDbRequest request = operation.sampleRequest(sample);
            KeyRange key = operation.keys(sample);
            // the SDK prints a request with its attribute values: the declared partition and sort value are in it
            assertThat(request.toString()).as(name).contains("S=" + key.partition() + ")");
            if (key.value() != null) {
                assertThat(request.toString()).as(name).contains("S=" + key.value() + ")");
            }
        }
        // expr prints Queries only
        Catalogue.offeredIn(Catalogue.Tool.EXPR)
                .forEach(p -> assertThat(p.sampleRequest(sample))
                        .as(p.descriptor().name())
                        .isInstanceOf(QueryRequest.class));
    }

    @Test
    void everyOperation_shouldHaveOneNameFunctionAndRoute_andPrimeOnItsRouteInItsScope() {
        // names, functions and routes are each one operation's: a lookup by any of them finds that operation
        for (Operation operation : Operations.all()) {
            Descriptor d = operation.descriptor();
            assertThat(Operations.named(d.name())).as(d.name()).containsSame(operation);
            assertThat(Operations.ofFunction(d.function())).as(d.function()).containsSame(operation);
            assertThat(Operations.ofRoute(d.route().key())).as(d.route().key()).containsSame(operation);
            // AND each function's priming request is the operation's route, sent by a caller of its scope
            assertThat(PrimingRequest.of(d).toEvent().toJson())
                    .as(d.name())
                    .contains("\"routeKey\":\"" + d.route().key() + "\"")
                    .contains("\"scope\":\"" + (d.operators() ? Caller.OPERATOR_SCOPE : Caller.ACCESS_SCOPE) + "\"");
        }
    }

    @Test
    void functionZips_shouldCarryNeitherTheCatalogueNorAnythingElseOfLocal() throws IOException {
        List<Path> zips;
        try (Stream<Path> found = Files.find(
                root.resolve("functions"),
                3,
                (path, attributes) -> path.toString().endsWith(".zip"))) {
            zips = found.filter(path -> path.getParent().endsWith("target")).toList();
        }
        assertThat(zips).as("the function zips (mvn package builds them)").hasSize(18);
        for (Path zip : zips) {
            List<String> entries = classesIn(zip);
            assertThat(entries).as(zip.getFileName().toString()).isNotEmpty();
            assertThat(entries.stream().filter(name -> name.startsWith("dev/oneread/local/")))
                    .as("what %s carries of local/", zip.getFileName())
                    .isEmpty();
        }
    }

    /** Every entry of the zip and of the jars in it: a function's classes and its lib/. */
    private static List<String> classesIn(Path zip) throws IOException {
        List<String> names = new ArrayList<>();
        try (ZipFile file = new ZipFile(zip.toFile())) {
            for (ZipEntry entry : file.stream().toList()) {
                names.add(entry.getName());
                if (entry.getName().endsWith(".jar")) {
                    try (InputStream in = file.getInputStream(entry);
                            ZipInputStream jar = new ZipInputStream(in)) {
                        for (ZipEntry nested = jar.getNextEntry(); nested != null; nested = jar.getNextEntry()) {
                            names.add(nested.getName());
                        }
                    }
                }
            }
        }
        return names;
    }
}
