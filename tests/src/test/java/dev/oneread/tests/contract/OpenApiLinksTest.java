package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.ProjectRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Every link of openapi.yaml can be followed, as a stateful tool (schemathesis, Dredd, ...) follows it: its operation
 * exists, each parameter it fills exists there, and each runtime expression resolves against the operation and the
 * response the link is on: {@code $request.path.X} (query, header) a parameter of that operation,
 * {@code $response.header.X} a header that response declares, {@code $response.body#/pointer} a place in its schema.
 * A tool that meets one link that cannot resolve refuses the whole document.
 */
class OpenApiLinksTest {
    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch");
    private static final Set<String> PARAMETER_PLACES = Set.of("path", "query", "header", "cookie");

    private static JsonNode document;
    /** Each operation by its operationId, with the parameters of its path item merged in. */
    private static final Map<String, Operation> OPERATIONS = new LinkedHashMap<>();

    /** One operation: where it is, and its parameters (place and name; header names in lower case). */
    private record Operation(String where, JsonNode node, List<Parameter> parameters) {
        boolean has(String place, String name) {
            return parameters.stream().anyMatch(p -> p.place.equals(place) && p.name.equals(normal(place, name)));
        }
    }

    private record Parameter(String place, String name, boolean required) {}

    @BeforeAll
    static void load() throws IOException {
        document = new YAMLMapper().readTree(Files.readString(ProjectRoot.find().resolve("openapi.yaml")));
        for (Map.Entry<String, JsonNode> path : document.get("paths").properties()) {
            for (Map.Entry<String, JsonNode> method : path.getValue().properties()) {
                if (!METHODS.contains(method.getKey())) {
                    continue;
                }
                List<Parameter> parameters = new ArrayList<>();
                for (JsonNode list : List.of(
                        path.getValue().path("parameters"), method.getValue().path("parameters"))) {
                    for (JsonNode parameter : list) {
                        JsonNode p = resolve(parameter);
                        String place = p.get("in").asString();
                        parameters.add(new Parameter(
                                place,
                                normal(place, p.get("name").asString()),
                                p.path("required").asBoolean(false)));
                    }
                }
                String where = method.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey();
                OPERATIONS.put(
                        method.getValue().get("operationId").asString(),
                        new Operation(where, method.getValue(), parameters));
            }
        }
    }

    @Test
    void everyLink_shouldResolveAgainstItsOperationAndResponse_andFillParametersItsTargetHas() {
        List<String> problems = new ArrayList<>();
        int links = 0;
        for (Operation source : OPERATIONS.values()) {
            for (Map.Entry<String, JsonNode> status :
                    source.node.path("responses").properties()) {
                JsonNode response = resolve(status.getValue());
                for (Map.Entry<String, JsonNode> link : response.path("links").properties()) {
                    links++;
                    String where = source.where + " " + status.getKey() + " link " + link.getKey();
                    problems.addAll(check(where, source, response, link.getValue()));
                }
            }
        }
        assertThat(links).as("links in openapi.yaml").isGreaterThanOrEqualTo(10);
        assertThat(problems).as("links that no tool can follow").isEmpty();
    }

    private static List<String> check(String where, Operation source, JsonNode response, JsonNode link) {
        List<String> problems = new ArrayList<>();
        String operationId = link.path("operationId").asString("");
        Operation target = OPERATIONS.get(operationId);
        if (target == null) {
            return List.of(where + ": no operation " + operationId);
        }
        for (Map.Entry<String, JsonNode> parameter : link.path("parameters").properties()) {
            String key = parameter.getKey();
            int dot = key.indexOf('.');
            boolean qualified = dot > 0 && PARAMETER_PLACES.contains(key.substring(0, dot));
            boolean exists = qualified
                    ? target.has(key.substring(0, dot), key.substring(dot + 1))
                    : target.parameters.stream().anyMatch(p -> p.name.equals(key));
            if (!exists) {
                problems.add(where + ": " + target.where + " has no parameter " + key);
            }
            expression(parameter.getValue().asString())
                    .flatMap(e -> unresolved(e, source, response))
                    .ifPresent(why -> problems.add(
                            where + ": " + key + " = " + parameter.getValue().asString() + ": " + why));
        }
        if (link.has("requestBody")) {
            expression(link.get("requestBody").asString(""))
                    .flatMap(e -> unresolved(e, source, response))
                    .ifPresent(why -> problems.add(where + ": requestBody: " + why));
        }
        for (Parameter required : target.parameters) {
            boolean given = link.path("parameters").has(required.name)
                    || link.path("parameters").properties().stream()
                            .anyMatch(p -> p.getKey().equalsIgnoreCase(required.place + "." + required.name));
            if (required.required && required.place.equals("path") && !given) {
                problems.add(where + ": leaves out " + target.where + "'s path parameter " + required.name);
            }
        }
        return problems;
    }

    /** The runtime expression of a link value; empty for a constant. */
    private static Optional<String> expression(String value) {
        return value.startsWith("$") ? Optional.of(value) : Optional.empty();
    }

    /** Why {@code expression} cannot be evaluated on {@code source}'s request and {@code response}; empty if it can. */
    private static Optional<String> unresolved(String expression, Operation source, JsonNode response) {
        if (Set.of("$url", "$method", "$statusCode").contains(expression)) {
            return Optional.empty();
        }
        for (String place : List.of("path", "query", "header")) {
            String prefix = "$request." + place + ".";
            if (expression.startsWith(prefix)) {
                String name = expression.substring(prefix.length());
                return source.has(place, name)
                        ? Optional.empty()
                        : Optional.of(source.where + " has no " + place + " parameter " + name);
            }
        }
        if (expression.startsWith("$response.header.")) {
            String name = expression.substring("$response.header.".length());
            boolean declared = response.path("headers").propertyNames().stream().anyMatch(name::equalsIgnoreCase);
            return declared ? Optional.empty() : Optional.of("the response declares no header " + name);
        }
        if (expression.startsWith("$response.body#")) {
            JsonNode schema =
                    resolve(response.path("content").path("application/json").path("schema"));
            return pointsIntoSchema(schema, expression.substring("$response.body#".length()), "response body");
        }
        if (expression.startsWith("$request.body#")) {
            JsonNode schema = resolve(source.node
                    .path("requestBody")
                    .path("content")
                    .path("application/json")
                    .path("schema"));
            return pointsIntoSchema(schema, expression.substring("$request.body#".length()), "request body");
        }
        return Optional.of("not a runtime expression a link can use");
    }

    /** Whether a JSON pointer reaches a place that {@code schema} describes (an array index reaches its items). */
    private static Optional<String> pointsIntoSchema(JsonNode schema, String pointer, String what) {
        if (schema.isMissingNode()) {
            return Optional.of("the " + what + " has no JSON schema");
        }
        if (!pointer.startsWith("/")) {
            return Optional.of("not a JSON pointer: " + pointer);
        }
        JsonNode at = schema;
        for (String raw : pointer.substring(1).split("/", -1)) {
            String token = raw.replace("~1", "/").replace("~0", "~");
            at = resolve(at);
            if ("array".equals(at.path("type").asString("")) && token.matches("0|[1-9][0-9]*")) {
                at = at.path("items");
            } else if (at.path("properties").has(token)) {
                at = at.path("properties").get(token);
            } else {
                return Optional.of("the " + what + " schema has no " + token + " (at " + pointer + ")");
            }
        }
        return Optional.empty();
    }

    /** A node itself, or what its local {@code $ref} names. */
    private static JsonNode resolve(JsonNode node) {
        JsonNode at = node;
        while (at.has("$ref")) {
            at = document.at(at.get("$ref").asString().substring(1));
        }
        return at;
    }

    private static String normal(String place, String name) {
        return place.equals("header") ? name.toLowerCase(Locale.ROOT) : name;
    }
}
