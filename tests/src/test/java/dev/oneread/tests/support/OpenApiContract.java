package dev.oneread.tests.support;

import com.networknt.schema.Error;
import com.networknt.schema.ExecutionContext;
import com.networknt.schema.MessageSourceError;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaContext;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.format.Format;
import com.networknt.schema.keyword.FormatValidator;
import com.networknt.schema.path.NodePath;
import com.networknt.schema.path.PathType;
import com.networknt.schema.regex.JDKRegularExpressionFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Checks one HTTP response against openapi.yaml: the operation and status are documented, the content type
 * is one documented for that status, and the JSON body matches its schema.
 *
 * <p>The schemas are checked by a JSON Schema validator (networknt json-schema-validator, OpenAPI 3.0 dialect,
 * so {@code nullable} counts); this class only finds the schema of a response, as an OpenAPI document lays it
 * out. Patterns are read by code points (networknt's JDK engine, as Rust's, Python's and ECMA-262 with the u flag
 * read them), the reading openapi.yaml's text patterns are written for (DisplayTextPattern: read by UTF-16 units,
 * ECMA-262 5.1 refuses every astral character, emoji in names included). One addition to the standard formats: openapi.yaml's {@code date-time} is a UTC instant as
 * {@link Instant#toString()} writes it (Timestamp's description), stricter than RFC 3339, which allows offsets.
 *
 * <pre>{@code
 * List<String> problems = OpenApiContract.load(root.resolve("openapi.yaml"))
 *         .violations("GET", "GET /workspaces/{workspaceId}", 200, "application/json", body);
 * }</pre>
 */
public final class OpenApiContract {
    /** The id the document is registered under: schemas are loaded from memory, never fetched. */
    private static final String DOCUMENT = "https://oneread.dev/openapi.yaml";

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final JsonNode document;
    private final SchemaRegistry registry;
    /** Loaded once per response schema; concurrent because one contract serves tests running in parallel. */
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

    private OpenApiContract(String yaml) {
        this.document = new YAMLMapper().readTree(yaml);
        Dialect openApi30 = Dialect.builder(Dialects.getOpenApi30())
                .format(new UtcInstantFormat())
                .build();
        this.registry = SchemaRegistry.withDialect(
                openApi30,
                registry -> registry.schemas(Map.of(DOCUMENT, yaml))
                        .schemaRegistryConfig(SchemaRegistryConfig.builder()
                                .pathType(PathType.JSON_PATH)
                                .regularExpressionFactory(JDKRegularExpressionFactory.getInstance())
                                .build()));
    }

    public static OpenApiContract load(Path openapiYaml) {
        try {
            return new OpenApiContract(Files.readString(openapiYaml, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * What is wrong with a response, each as one readable line; empty when it keeps the contract.
     *
     * @param method      the HTTP method, upper case
     * @param routeKey    the path template as openapi.yaml spells it, with or without API Gateway's
     *                    {@code "GET "} prefix (so that {@code ApiRequest.routeKey()} can be passed as is)
     * @param contentType the Content-Type header, parameters allowed; null when there is none
     * @param body        the body as sent; null or empty when there is none
     */
    public List<String> violations(String method, String routeKey, int status, String contentType, String body) {
        String path = pathOf(method, routeKey);
        String where = method + " " + path + " " + status;
        String operationPointer = "/paths/" + escape(path) + "/" + method.toLowerCase(Locale.ROOT);
        JsonNode operation = document.at(operationPointer);
        if (!operation.isObject()) {
            return List.of(method + " " + path + ": the operation is not documented");
        }
        JsonNode responses = operation.path("responses");
        String documentedStatus = responses.has(Integer.toString(status))
                ? Integer.toString(status)
                : responses.has("default") ? "default" : null;
        if (documentedStatus == null) {
            return List.of(where + ": the status is not documented (documented: " + list(responses) + ")");
        }
        String responsePointer = resolve(operationPointer + "/responses/" + documentedStatus);
        JsonNode content = document.at(responsePointer).path("content");
        boolean hasBody = body != null && !body.isEmpty();
        if (status == 204 || content.isEmpty()) {
            return !hasBody
                    ? List.of()
                    : List.of(where + ": "
                            + (status == 204 ? "a 204 must have no body" : "no body is documented")
                            + ", got " + body.length() + " characters");
        }
        if (contentType == null) {
            return List.of(where + ": no content type (documented: " + list(content) + ")");
        }
        String mediaType = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        String documentedType = names(content).stream()
                .filter(name -> name.toLowerCase(Locale.ROOT).equals(mediaType))
                .findFirst()
                .orElse(null);
        if (documentedType == null) {
            return List.of(
                    where + ": content type " + mediaType + " is not documented (documented: " + list(content) + ")");
        }
        String schemaPointer = responsePointer + "/content/" + escape(documentedType) + "/schema";
        if (document.at(schemaPointer).isMissingNode()) {
            return List.of();
        }
        if (!hasBody) {
            return List.of(where + ": the body is empty, but " + mediaType + " documents one");
        }
        JsonNode json;
        try {
            json = JSON.readTree(body);
        } catch (JacksonException e) {
            return List.of(where + ": the body is not JSON");
        }
        Schema schema = schemas.computeIfAbsent(schemaPointer, this::loadSchema);
        List<String> out = new ArrayList<>();
        for (Error error : schema.validate(json)) {
            out.add(where + ": " + error);
        }
        return out;
    }

    /** Loaded and initialised before first use, so that concurrent validations share a finished schema. */
    private Schema loadSchema(String pointer) {
        // A fragment is a URI part: the braces of a path template are percent-encoded there.
        Schema schema = registry.getSchema(
                SchemaLocation.of(DOCUMENT + "#" + pointer.replace("{", "%7B").replace("}", "%7D")));
        schema.initializeValidators();
        return schema;
    }

    /** Follows a response's {@code $ref} ({@code #/components/responses/...}) to the pointer it names. */
    private String resolve(String pointer) {
        JsonNode ref = document.at(pointer).path("$ref");
        if (!ref.isString()) {
            return pointer;
        }
        String target = ref.asString();
        if (!target.startsWith("#/") || document.at(target.substring(1)).isMissingNode()) {
            throw new IllegalStateException("openapi.yaml: $ref " + target + " points at nothing in the document");
        }
        return target.substring(1);
    }

    private static List<String> names(JsonNode object) {
        return List.copyOf(object.propertyNames());
    }

    private static String list(JsonNode object) {
        return String.join(", ", names(object));
    }

    /** A JSON Pointer token (RFC 6901): {@code ~} and {@code /} escaped. */
    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    private static String pathOf(String method, String routeKey) {
        int space = routeKey.indexOf(' ');
        if (space < 0) {
            return routeKey;
        }
        if (!routeKey.substring(0, space).equals(method)) {
            throw new IllegalArgumentException("route key " + routeKey + " is not for method " + method);
        }
        return routeKey.substring(space + 1);
    }

    /** {@code date-time} as this API writes it: UTC, whole seconds or a 1-9 digit fraction. */
    private static final class UtcInstantFormat implements Format {
        private static final Pattern SHAPE =
                Pattern.compile("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z$");

        @Override
        public String getName() {
            return "date-time";
        }

        /** The regex fixes the shape; parsing rejects what only looks right, like month 13. */
        @Override
        public boolean matches(ExecutionContext executionContext, String value) {
            if (!SHAPE.matcher(value).matches()) {
                return false;
            }
            try {
                Instant.parse(value);
                return true;
            } catch (DateTimeParseException e) {
                return false;
            }
        }

        @Override
        public void validate(
                ExecutionContext executionContext,
                SchemaContext schemaContext,
                JsonNode node,
                JsonNode rootNode,
                NodePath instanceLocation,
                boolean assertionsEnabled,
                Supplier<MessageSourceError.Builder> message,
                FormatValidator formatValidator) {
            if (assertionsEnabled && !matches(executionContext, schemaContext, node)) {
                String text = "\"" + node.asString() + "\" is not a UTC date-time like 2026-12-02T12:00:00.123Z";
                executionContext.addError(
                        message.get().messageSupplier(() -> text).build());
            }
        }
    }
}
