package dev.oneread.tests;

import dev.oneread.json.Json;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Checks one HTTP response against openapi.yaml: the operation and status are documented, the content type
 * is one documented for that status, and the JSON body matches its schema.
 *
 * <p>It knows only the JSON-Schema subset openapi.yaml uses ({@code $ref}, {@code anyOf}, type, nullable,
 * required, properties, additionalProperties, items, enum, pattern, min/maxLength, minimum/maximum,
 * min/maxItems, format date-time) and ignores other keywords: small enough to read, and no validator
 * library on the test classpath. Null follows OpenAPI 3.0.3: a schema with a type admits null only with
 * {@code nullable: true}; one without a type leaves it to its {@code anyOf}. A spec it cannot read (a remote
 * or dangling {@code $ref}, an unknown type) is an exception, not a violation, because then the spec is
 * wrong rather than the response.
 *
 * <pre>{@code
 * List<String> problems = OpenApiContract.load(root.resolve("openapi.yaml"))
 *         .violations("GET", "GET /workspaces/{workspaceId}", 200, "application/json", body);
 * }</pre>
 */
final class OpenApiContract {
    /** An instant as {@link Instant#toString()} writes it: UTC, whole seconds or a 1-9 digit fraction. */
    private static final Pattern DATE_TIME =
            Pattern.compile("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z$");

    private final Map<String, Object> document;
    /** Compiled once per regex; concurrent because one loaded contract may serve tests running in parallel. */
    private final Map<String, Pattern> patterns = new ConcurrentHashMap<>();

    private OpenApiContract(Map<String, Object> document) {
        this.document = document;
    }

    static OpenApiContract load(Path openapiYaml) {
        try (Reader reader = Files.newBufferedReader(openapiYaml)) {
            Object root = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
            return new OpenApiContract(asMap(root, openapiYaml.toString()));
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
    List<String> violations(String method, String routeKey, int status, String contentType, String body) {
        String path = pathOf(method, routeKey);
        String where = method + " " + path + " " + status;
        List<String> out = new ArrayList<>();

        Object pathItem = asMap(document.get("paths"), "paths").get(path);
        Object operation = pathItem instanceof Map<?, ?> item ? item.get(method.toLowerCase(Locale.ROOT)) : null;
        if (operation == null) {
            out.add(method + " " + path + ": the operation is not documented");
            return out;
        }
        Map<String, Object> responses = asMap(asMap(operation, path).get("responses"), where);
        Object documented = byKey(responses, Integer.toString(status));
        if (documented == null) {
            documented = byKey(responses, "default");
        }
        if (documented == null) {
            out.add(where + ": the status is not documented (documented: " + keys(responses) + ")");
            return out;
        }

        Map<String, Object> response = resolve(documented);
        Map<String, Object> content = response.get("content") == null
                ? Map.of() : asMap(response.get("content"), where);
        boolean hasBody = body != null && !body.isEmpty();
        if (status == 204 || content.isEmpty()) {
            if (hasBody) {
                out.add(where + ": " + (status == 204 ? "a 204 must have no body" : "no body is documented")
                        + ", got " + body.length() + " characters");
            }
            return out;
        }

        if (contentType == null) {
            out.add(where + ": no content type (documented: " + keys(content) + ")");
            return out;
        }
        String mediaType = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        Object media = content.entrySet().stream()
                .filter(e -> String.valueOf(e.getKey()).toLowerCase(Locale.ROOT).equals(mediaType))
                .map(Map.Entry::getValue)
                .findFirst().orElse(null);
        if (media == null) {
            out.add(where + ": content type " + mediaType + " is not documented (documented: " + keys(content)
                    + ")");
            return out;
        }
        Object schema = media instanceof Map<?, ?> m ? m.get("schema") : null;
        if (schema == null) {
            return out;
        }
        if (!hasBody) {
            out.add(where + ": the body is empty, but " + mediaType + " documents one");
            return out;
        }
        Map<String, Object> json;
        try {
            json = Json.readObject(body);
        } catch (Json.MalformedJsonException e) {
            out.add(where + ": the body is not a JSON object");
            return out;
        }
        check(schema, json, "$", where, out);
        return out;
    }

    private void check(Object schemaNode, Object value, String at, String where, List<String> out) {
        Map<String, Object> schema = resolve(schemaNode);
        if (schema.get("anyOf") instanceof List<?> options) {
            checkAnyOf(options, value, at, where, out);
        }
        Object type = schema.get("type");
        if (value == null) {
            if (type != null && !Boolean.TRUE.equals(schema.get("nullable"))) {
                out.add(where + ": " + at + ": null is not allowed");
            }
            return;
        }
        if (type != null && !isOfType(value, (String) type)) {
            out.add(where + ": " + at + ": expected " + type + ", got " + typeOf(value));
            return; // the other keywords would only repeat the same mistake
        }
        if (schema.get("enum") instanceof List<?> allowed && !allowed.contains(value)) {
            out.add(where + ": " + at + ": " + value + " is not one of " + allowed);
        }
        if (value instanceof String text) {
            checkString(schema, text, at, where, out);
        } else if (value instanceof Number number) {
            checkNumber(schema, number, at, where, out);
        } else if (value instanceof List<?> list) {
            checkArray(schema, list, at, where, out);
        } else if (value instanceof Map<?, ?> object) {
            checkObject(schema, object, at, where, out);
        }
    }

    /** Valid when one option is; otherwise the option with the fewest violations is the likeliest intent. */
    private void checkAnyOf(List<?> options, Object value, String at, String where, List<String> out) {
        List<String> closest = null;
        for (Object option : options) {
            List<String> attempt = new ArrayList<>();
            check(option, value, at, where, attempt);
            if (attempt.isEmpty()) {
                return;
            }
            if (closest == null || attempt.size() < closest.size()) {
                closest = attempt;
            }
        }
        if (closest != null) {
            out.addAll(closest);
        }
    }

    private void checkString(Map<String, Object> schema, String text, String at, String where, List<String> out) {
        int length = text.codePointCount(0, text.length()); // JSON Schema counts characters, not UTF-16 units
        if (schema.get("minLength") instanceof Number min && length < min.intValue()) {
            out.add(where + ": " + at + ": shorter than " + min + " characters");
        }
        if (schema.get("maxLength") instanceof Number max && length > max.intValue()) {
            out.add(where + ": " + at + ": longer than " + max + " characters");
        }
        if (schema.get("pattern") instanceof String regex
                && !patterns.computeIfAbsent(regex, Pattern::compile).matcher(text).find()) {
            out.add(where + ": " + at + ": \"" + text + "\" does not match " + regex);
        }
        if ("date-time".equals(schema.get("format")) && !isInstant(text)) {
            out.add(where + ": " + at + ": \"" + text + "\" is not a date-time like 2026-12-02T12:00:00.123Z");
        }
    }

    private static void checkNumber(Map<String, Object> schema, Number number, String at, String where,
                                    List<String> out) {
        BigDecimal value = new BigDecimal(number.toString());
        if (schema.get("minimum") instanceof Number min && value.compareTo(new BigDecimal(min.toString())) < 0) {
            out.add(where + ": " + at + ": " + number + " is less than " + min);
        }
        if (schema.get("maximum") instanceof Number max && value.compareTo(new BigDecimal(max.toString())) > 0) {
            out.add(where + ": " + at + ": " + number + " is greater than " + max);
        }
    }

    private void checkArray(Map<String, Object> schema, List<?> list, String at, String where, List<String> out) {
        if (schema.get("minItems") instanceof Number min && list.size() < min.intValue()) {
            out.add(where + ": " + at + ": fewer than " + min + " items");
        }
        if (schema.get("maxItems") instanceof Number max && list.size() > max.intValue()) {
            out.add(where + ": " + at + ": more than " + max + " items");
        }
        Object items = schema.get("items");
        if (items != null) {
            for (int i = 0; i < list.size(); i++) {
                check(items, list.get(i), at + "[" + i + "]", where, out);
            }
        }
    }

    private void checkObject(Map<String, Object> schema, Map<?, ?> object, String at, String where,
                             List<String> out) {
        if (schema.get("required") instanceof List<?> required) {
            for (Object name : required) {
                if (!object.containsKey(name)) {
                    out.add(where + ": " + at + "." + name + ": required but missing");
                }
            }
        }
        Map<String, Object> properties = schema.get("properties") == null
                ? Map.of() : asMap(schema.get("properties"), at);
        Object additional = schema.get("additionalProperties");
        for (Map.Entry<?, ?> field : object.entrySet()) {
            String name = String.valueOf(field.getKey());
            if (properties.containsKey(name)) {
                check(properties.get(name), field.getValue(), at + "." + name, where, out);
            } else if (Boolean.FALSE.equals(additional)) {
                out.add(where + ": " + at + "." + name + ": not allowed (additionalProperties is false)");
            } else if (additional instanceof Map<?, ?>) {
                check(additional, field.getValue(), at + "." + name, where, out);
            }
        }
    }

    private static boolean isOfType(Object value, String type) {
        return switch (type) {
            case "object" -> value instanceof Map<?, ?>;
            case "array" -> value instanceof List<?>;
            case "string" -> value instanceof String;
            case "boolean" -> value instanceof Boolean;
            // Json reads whole numbers as Integer, Long or BigInteger and anything with a point as BigDecimal.
            case "integer" -> value instanceof Integer || value instanceof Long || value instanceof BigInteger;
            case "number" -> value instanceof Number;
            default -> throw new IllegalStateException("openapi.yaml uses an unsupported type: " + type);
        };
    }

    private static String typeOf(Object value) {
        if (value instanceof Map<?, ?>) {
            return "object";
        } else if (value instanceof List<?>) {
            return "array";
        } else if (value instanceof String) {
            return "string";
        } else if (value instanceof Boolean) {
            return "boolean";
        } else if (isOfType(value, "integer")) {
            return "integer";
        }
        return "number";
    }

    /** The regex fixes the shape; parsing rejects what only looks right, like month 13. */
    private static boolean isInstant(String text) {
        if (!DATE_TIME.matcher(text).matches()) {
            return false;
        }
        try {
            Instant.parse(text);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    /** Follows local {@code $ref}s ({@code #/components/...}) until a node that is not one. */
    private Map<String, Object> resolve(Object node) {
        Set<String> seen = new HashSet<>();
        Object current = node;
        while (current instanceof Map<?, ?> map && map.get("$ref") instanceof String ref) {
            if (!seen.add(ref)) {
                throw new IllegalStateException("openapi.yaml: $ref cycle through " + ref);
            }
            current = pointer(ref);
        }
        return asMap(current, "a schema or response");
    }

    private Object pointer(String ref) {
        if (!ref.startsWith("#/")) {
            throw new IllegalStateException("openapi.yaml: only local $refs are supported, got " + ref);
        }
        Object node = document;
        for (String token : ref.substring(2).split("/")) {
            String key = token.replace("~1", "/").replace("~0", "~"); // JSON Pointer escapes
            node = node instanceof Map<?, ?> map ? map.get(key) : null;
            if (node == null) {
                throw new IllegalStateException("openapi.yaml: $ref " + ref + " points at nothing");
            }
        }
        return node;
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

    /** YAML reads an unquoted {@code 200:} as an Integer key, so keys are compared as text. */
    private static Object byKey(Map<?, ?> map, String key) {
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (String.valueOf(entry.getKey()).equals(key)) {
                return entry.getValue();
            }
        }
        return null;
    }

    private static String keys(Map<?, ?> map) {
        return String.join(", ", map.keySet().stream().map(String::valueOf).toList());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object node, String what) {
        if (node instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        throw new IllegalStateException("openapi.yaml: " + what + " is not a mapping");
    }
}
