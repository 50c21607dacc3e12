package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import dev.oneread.json.Json;
import dev.oneread.local.auth.JwtAuthorizer;
import dev.oneread.local.runner.HttpApiEventBuilder;
import dev.oneread.local.runner.HttpApiEventBuilder.IncomingRequest;
import dev.oneread.local.runner.RouteSpec;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.priming.PrimingRequest;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.TestEngine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The events are the shape API Gateway sends, as the official library knows it: the files in events/ and the
 * events the runner builds load into aws-lambda-java-events' {@link APIGatewayV2HTTPEvent} (through the
 * serialization the Java runtime uses), and the fields a function reads come back unchanged when that event
 * is written out again. The library is for tests only: the functions parse events with jackson-jr.
 */
class EventShapeTest {
    private static final Path ROOT = TestEngine.get().root;
    private static final PojoSerializer<APIGatewayV2HTTPEvent> SERIALIZER =
            LambdaEventSerializers.serializerFor(APIGatewayV2HTTPEvent.class, ClassLoader.getSystemClassLoader());

    /** The API Gateway events of events/ (a job's event, such as migrate-hot-tenant.json, has no routeKey). */
    static Stream<Path> httpApiEventFiles() throws IOException {
        try (Stream<Path> files = Files.list(ROOT.resolve("events"))) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList().stream()
                    .filter(p -> readJson(p).containsKey("routeKey"));
        }
    }

    private static Map<String, Object> readJson(Path file) {
        try {
            return Json.readObject(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * What a function reads from an event, with nulls and empty maps treated alike (the library writes an
     * absent map as null): the route and request, the caller's claims and scopes, the body.
     */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> fieldsThatMatter(Map<String, Object> event) {
        Map<String, Object> context = (Map<String, Object>) event.get("requestContext");
        Map<String, Object> http = (Map<String, Object>) context.get("http");
        Map<String, Object> jwt = context.get("authorizer") instanceof Map<?, ?> authorizer
                ? (Map<String, Object>) authorizer.get("jwt")
                : Map.of();
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("version", event.get("version"));
        fields.put("routeKey", event.get("routeKey"));
        fields.put("rawPath", event.get("rawPath"));
        fields.put("rawQueryString", event.get("rawQueryString"));
        fields.put("cookies", event.get("cookies"));
        fields.put("headers", event.get("headers"));
        fields.put("queryStringParameters", emptyAsNull(event.get("queryStringParameters")));
        fields.put("pathParameters", emptyAsNull(event.get("pathParameters")));
        fields.put("body", event.get("body"));
        fields.put("isBase64Encoded", event.get("isBase64Encoded"));
        fields.put("context.routeKey", context.get("routeKey"));
        fields.put("context.requestId", context.get("requestId"));
        fields.put("context.stage", context.get("stage"));
        fields.put("context.timeEpoch", ((Number) context.get("timeEpoch")).longValue());
        fields.put("http.method", http.get("method"));
        fields.put("http.path", http.get("path"));
        fields.put("http.sourceIp", http.get("sourceIp"));
        fields.put("jwt.claims", emptyAsNull(jwt.get("claims")));
        fields.put("jwt.scopes", jwt.get("scopes"));
        return fields;
    }

    private static Object emptyAsNull(Object value) {
        return value instanceof Map<?, ?> map && map.isEmpty() ? null : value;
    }

    /** Loads with the library's EventLoader, writes the event back with the runtime's serializer. */
    private static Map<String, Object> roundTrip(Path file) {
        APIGatewayV2HTTPEvent loaded = EventLoader.loadApiGatewayHttpEvent(file.toString());
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        SERIALIZER.toJson(loaded, written);
        return Json.readObject(written.toString(StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("httpApiEventFiles")
    void eventFile_shouldLoadIntoTheLibrarysEventAndSurviveARoundTrip(Path file) {
        // GIVEN
        Map<String, Object> original = readJson(file);
        // WHEN
        APIGatewayV2HTTPEvent loaded = EventLoader.loadApiGatewayHttpEvent(file.toString());
        Map<String, Object> roundTripped = roundTrip(file);
        // THEN the typed event holds what the file says, and writing it back loses nothing a function reads
        assertThat(loaded.getRouteKey()).isEqualTo(original.get("routeKey"));
        assertThat(loaded.getRequestContext().getHttp().getMethod())
                .isEqualTo(((String) original.get("routeKey")).split(" ")[0]);
        assertThat(loaded.getRequestContext().getAuthorizer().getJwt().getClaims())
                .containsKey("workspaces");
        assertThat(loaded.getHeaders()).containsKey("authorization");
        assertThat(fieldsThatMatter(roundTripped)).isEqualTo(fieldsThatMatter(original));
    }

    static Stream<IncomingRequest> requests() {
        Map<String, List<String>> json = Map.of(
                "Content-Type",
                List.of("application/json"),
                "Authorization",
                List.of("Bearer x.y.z"),
                "Cookie",
                List.of("theme=dark; lang=en"));
        return Stream.of(
                new IncomingRequest(
                        "GET",
                        "/workspaces/acme/projects",
                        "limit=2&limit=3&cursor=a%2Bb",
                        json,
                        new byte[0],
                        "127.0.0.1",
                        "HTTP/1.1",
                        "localhost:3000"),
                new IncomingRequest(
                        "PATCH",
                        "/workspaces/acme/projects/01JDQ6V7K4N3M2P1R0S9T8V7W6",
                        null,
                        json,
                        "{\"name\":\"Site\"}".getBytes(StandardCharsets.UTF_8),
                        "::1",
                        "HTTP/1.1",
                        "127.0.0.1:3000"),
                new IncomingRequest(
                        "POST",
                        "/workspaces/acme%2301/projects",
                        "",
                        Map.of("Content-Type", List.of("image/png")),
                        new byte[] {(byte) 0x89, 'P', 'N', 'G'},
                        "10.0.0.1",
                        "HTTP/1.1",
                        "x"));
    }

    @ParameterizedTest
    @MethodSource("requests")
    void builtEvent_shouldLoadIntoTheLibrarysEventAndSurviveARoundTrip(IncomingRequest request, @TempDir Path dir)
            throws IOException {
        // GIVEN the event start-api builds for the request, as a JWT authorizer passes it on
        RouteSpec route = new RouteSpec(
                request.method(),
                request.rawPath().endsWith("/projects")
                        ? "/workspaces/{workspaceId}/projects"
                        : "/workspaces/{workspaceId}/projects/{projectId}");
        JwtAuthorizer jwt = new JwtAuthorizer(Map.of("sub", "dev", "workspaces", "acme"), List.of("openid"));
        byte[] built = HttpApiEventBuilder.build(request, route, route.match(request.rawPath()), jwt)
                .toJsonBytes();
        Path file = Files.write(dir.resolve("built.json"), built);
        Map<String, Object> original = Json.readObject(new String(built, StandardCharsets.UTF_8));
        // WHEN
        APIGatewayV2HTTPEvent loaded = EventLoader.loadApiGatewayHttpEvent(file.toString());
        // THEN
        assertThat(loaded.getRawPath()).isEqualTo(request.rawPath());
        assertThat(loaded.getRequestContext().getAuthorizer().getJwt().getScopes())
                .containsExactly("openid");
        assertThat(fieldsThatMatter(roundTrip(file))).isEqualTo(fieldsThatMatter(original));
    }

    /** The events the shared model builds for priming and for the tests, a write with a body and a listing. */
    static Stream<Arguments> modelEvents() {
        return Stream.of(
                Arguments.of(
                        "priming",
                        PrimingRequest.tenant("PATCH", "/workspaces/{workspaceId}")
                                .withHeader("if-match", PrimingRequest.NO_SUCH_VERSION)
                                .withBody("{\"name\":\"\"}")
                                .toEvent()
                                .toJson()),
                Arguments.of(
                        "tests",
                        ApiEvent.of("GET", ApiEvent.PROJECTS)
                                .path("workspaceId", "acme")
                                .query(Map.of("limit", "2"))
                                .json()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modelEvents")
    void modelEvent_shouldLoadIntoTheLibrarysEventAndSurviveARoundTrip(String builtFor, String event, @TempDir Path dir)
            throws IOException {
        // GIVEN an event of the one model, as priming or a test sends it
        Path file = Files.writeString(dir.resolve(builtFor + ".json"), event);
        Map<String, Object> original = Json.readObject(event);
        // WHEN
        APIGatewayV2HTTPEvent loaded = EventLoader.loadApiGatewayHttpEvent(file.toString());
        // THEN the library reads it as API Gateway's event, with the caller's claims, and writes back what it read
        assertThat(loaded.getRouteKey()).isEqualTo(original.get("routeKey"));
        assertThat(loaded.getRequestContext().getHttp().getMethod())
                .isEqualTo(((String) original.get("routeKey")).split(" ")[0]);
        assertThat(loaded.getRequestContext().getAuthorizer().getJwt().getClaims())
                .containsEntry("workspaces", builtFor.equals("priming") ? PrimingRequest.WORKSPACE : "acme");
        assertThat(fieldsThatMatter(roundTrip(file))).isEqualTo(fieldsThatMatter(original));
    }

    @Test
    void functionZips_shouldNotCarryTheEventsLibrary() throws IOException {
        SamTemplate template = SamTemplate.load(ROOT.resolve("template.yaml"));
        for (Map<String, Object> function :
                template.resourcesOfType("AWS::Serverless::Function").values()) {
            Path zip = ROOT.resolve(
                    (String) SamTemplate.map(function.get("Properties")).get("CodeUri"));
            try (ZipFile entries = new ZipFile(zip.toFile())) {
                assertThat(entries.stream().map(e -> e.getName()).toList())
                        .as(zip.toString())
                        .isNotEmpty()
                        .noneMatch(name -> name.contains("aws-lambda-java-events")
                                || name.contains("aws-lambda-java-tests")
                                || name.startsWith("com/amazonaws/services/lambda/runtime/events/"));
            }
        }
    }
}
