package dev.oneread.local.runner;

import dev.oneread.local.template.SamTemplate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the functions of template.yaml the way SAM does for {@code sam local}: Globals.Function merged
 * under each function's own properties, parameters from their defaults or overrides, {@code !Ref} to a
 * table resolved to its local name, and the variables the Lambda runtime itself sets.
 */
public final class TemplateFunctions {
    private final SamTemplate template;
    private final Path root;
    private final Map<String, String> parameters;
    private final Map<String, String> tableNames;

    /**
     * @param overrides  {@code --parameter-overrides}, applied over the template's defaults
     * @param tableNames logical id of each table to the name it has on the local engine
     */
    public TemplateFunctions(
            SamTemplate template, Path root, Map<String, String> overrides, Map<String, String> tableNames) {
        this.template = template;
        this.root = root;
        this.tableNames = tableNames;
        this.parameters = new LinkedHashMap<>();
        template.parameters().forEach((name, definition) -> {
            Object fallback = definition.get("Default");
            parameters.put(name, fallback == null ? "" : String.valueOf(fallback));
        });
        overrides.forEach((name, value) -> {
            if (!parameters.containsKey(name)) {
                throw new IllegalArgumentException("template.yaml has no parameter " + name);
            }
            parameters.put(name, value);
        });
    }

    public Map<String, String> parameters() {
        return Map.copyOf(parameters);
    }

    public Map<String, FunctionSpec> functions() {
        Map<String, Object> globals = SamTemplate.map(
                SamTemplate.map(template.document().get("Globals")).get("Function"));
        Map<String, FunctionSpec> out = new LinkedHashMap<>();
        template.resourcesOfType("AWS::Serverless::Function").forEach((id, resource) -> {
            Map<String, Object> properties = SamTemplate.map(resource.get("Properties"));
            int memory = intProperty(properties, globals, "MemorySize", 128);
            int timeout = intProperty(properties, globals, "Timeout", 3);
            String handler = (String) properties.getOrDefault("Handler", globals.get("Handler"));
            Map<String, Object> declared = new LinkedHashMap<>(variables(globals));
            declared.putAll(variables(properties));
            Map<String, String> environment = new LinkedHashMap<>();
            Map<String, String> absent = new LinkedHashMap<>();
            declared.forEach((k, v) -> {
                environment.put(k, resolve(v));
                absentResource(v).ifPresent(ref -> absent.put(k, ref));
            });
            if (environment.containsKey("CURSOR_KEY_SECRET")) {
                // The runner stands in for Secrets Manager: the keys themselves, so no function calls AWS locally.
                environment.put("CURSOR_KEYS", LocalStack.LOCAL_CURSOR_KEYS);
            }
            // What the Lambda runtime (and sam local) sets for every function.
            environment.put("AWS_LAMBDA_FUNCTION_NAME", id);
            environment.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", Integer.toString(memory));
            environment.put("AWS_LAMBDA_FUNCTION_TIMEOUT", Integer.toString(timeout));
            environment.put("AWS_LAMBDA_FUNCTION_HANDLER", handler);
            environment.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
            environment.put("AWS_LAMBDA_LOG_GROUP_NAME", "aws/lambda/" + id);
            environment.put("AWS_SAM_LOCAL", "true");
            out.put(
                    id,
                    new FunctionSpec(
                            id,
                            handler,
                            root.resolve((String) properties.get("CodeUri")),
                            memory,
                            timeout,
                            environment,
                            routes(properties),
                            absent));
        });
        return out;
    }

    private static List<RouteSpec> routes(Map<String, Object> properties) {
        List<RouteSpec> routes = new ArrayList<>();
        for (Object event : SamTemplate.map(properties.get("Events")).values()) {
            Map<String, Object> e = SamTemplate.map(event);
            if ("HttpApi".equals(e.get("Type"))) {
                Map<String, Object> p = SamTemplate.map(e.get("Properties"));
                List<Object> scopes =
                        SamTemplate.list(SamTemplate.map(p.get("Auth")).get("AuthorizationScopes"));
                routes.add(new RouteSpec(
                        String.valueOf(p.getOrDefault("Method", "ANY")),
                        String.valueOf(p.getOrDefault("Path", "/{proxy+}")),
                        scopes.stream().map(String::valueOf).toList()));
            }
        }
        return routes;
    }

    private static Map<String, Object> variables(Map<String, Object> properties) {
        return SamTemplate.map(SamTemplate.map(properties.get("Environment")).get("Variables"));
    }

    private static int intProperty(
            Map<String, Object> properties, Map<String, Object> globals, String name, int fallback) {
        Object value = properties.getOrDefault(name, globals.get(name));
        return value == null ? fallback : Integer.parseInt(String.valueOf(value));
    }

    /** The template resource that {@code value} refers to, when this run has none of that name. */
    private java.util.Optional<String> absentResource(Object value) {
        if (value instanceof Map<?, ?> map && map.size() == 1 && map.get("Ref") instanceof String ref) {
            if (!tableNames.containsKey(ref) && template.resources().containsKey(ref)) {
                return java.util.Optional.of(ref);
            }
        }
        return java.util.Optional.empty();
    }

    /** A literal, or {@code {Ref: X}} to a parameter or a table; any other intrinsic becomes "" (as sam local). */
    private String resolve(Object value) {
        if (value instanceof Map<?, ?> map && map.size() == 1 && map.containsKey("Ref")) {
            String ref = String.valueOf(map.get("Ref"));
            if (parameters.containsKey(ref)) {
                return parameters.get(ref);
            }
            if (tableNames.containsKey(ref)) {
                return tableNames.get(ref);
            }
            if (ref.equals("AWS::Region")) {
                return "us-east-1";
            }
            return "";
        }
        if (value instanceof Map<?, ?>) {
            return "";
        }
        return value == null ? "" : String.valueOf(value);
    }
}
