package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.ProjectRoot;
import dev.oneread.local.catalogue.AccessPattern;
import dev.oneread.local.catalogue.AccessPatterns;
import dev.oneread.local.catalogue.Sample;
import dev.oneread.local.template.SamTemplate;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
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
 * The catalogue of access patterns against everything else that lists them: the README's table is generated from
 * it, and openapi.yaml and template.yaml must declare exactly its routes and functions, nothing missing, nothing
 * extra. And no function zip carries it: it is the runner's and the tests', never production's.
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
                .isEqualTo(AccessPatterns.markdownTable());
    }

    @Test
    void openApi_shouldDocumentExactlyTheCatalogueRoutes() throws IOException {
        JsonNode paths = new YAMLMapper()
                .readTree(Files.readString(root.resolve("openapi.yaml")))
                .path("paths");
        List<String> documented = new ArrayList<>();
        for (String path : paths.propertyNames()) {
            for (String method : paths.path(path).propertyNames()) {
                if (HTTP_METHODS.contains(method)) {
                    documented.add(method.toUpperCase(Locale.ROOT) + " " + path);
                }
            }
        }

        assertThat(documented)
                .as("openapi.yaml's operations against the catalogue's routes")
                .containsExactlyInAnyOrderElementsOf(AccessPatterns.all().stream()
                        .map(p -> p.route().method() + " " + p.route().path())
                        .toList());
    }

    @Test
    void template_shouldRouteExactlyTheCatalogueFunctions() {
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
                            List.of("oneread/admin")
                                    .equals(SamTemplate.map(event.get("Auth")).get("AuthorizationScopes")))));
        });

        assertThat(routed)
                .as("template.yaml's HttpApi functions (id, route, code, operators only) against the catalogue")
                .containsExactlyInAnyOrderElementsOf(AccessPatterns.all().stream()
                        .map(p -> route(
                                p.function(),
                                p.route().method(),
                                p.route().path(),
                                "functions/" + p.directory() + "/target/" + p.directory() + ".zip",
                                p.operators()))
                        .toList());
    }

    private static String route(String function, String method, String path, String code, boolean operators) {
        return function + " " + method + " " + path + " from " + code + (operators ? " (operators)" : "");
    }

    @Test
    void consolePage_shouldOfferExactlyTheCatalogueConsolePatterns() throws IOException {
        String page = Files.readString(root.resolve("local/src/main/resources/console/index.html"));
        int start = page.indexOf("<select id=\"pattern\">");
        String select = page.substring(start, page.indexOf("</select>", start));
        List<String> offered = Pattern.compile("<option value=\"([^\"]+)\"")
                .matcher(select)
                .results()
                .map(match -> match.group(1))
                .toList();

        List<String> expected = new ArrayList<>(List.of("custom"));
        AccessPatterns.offeredIn(AccessPattern.Tool.CONSOLE).forEach(p -> expected.add(p.name()));
        assertThat(offered).as("the console page's access patterns").isEqualTo(expected);
    }

    @Test
    void everyPattern_shouldBuildARequestOnTheKeysItDeclares() {
        Sample sample = Sample.of("oneread");
        for (AccessPattern pattern : AccessPatterns.all()) {
            DynamoDbRequest request = pattern.request(sample);
            AccessPattern.KeyRange key = pattern.key(sample);
            // the SDK prints a request with its attribute values: the declared partition and sort value are in it
            assertThat(request.toString()).as(pattern.name()).contains("S=" + key.partition() + ")");
            if (key.value() != null) {
                assertThat(request.toString()).as(pattern.name()).contains("S=" + key.value() + ")");
            }
        }
        // expr prints Queries only
        AccessPatterns.offeredIn(AccessPattern.Tool.EXPR)
                .forEach(p -> assertThat(p.request(sample)).as(p.name()).isInstanceOf(QueryRequest.class));
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
