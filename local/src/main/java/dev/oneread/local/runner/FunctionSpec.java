package dev.oneread.local.runner;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * An {@code AWS::Serverless::Function} from template.yaml with Globals applied and every parameter and
 * {@code !Ref} resolved for a local run.
 *
 * <pre>{@code FunctionSpec spec = new TemplateFunctions(template, root, overrides, refs).functions().get("PlanJobs");}</pre>
 *
 * @param absent each environment variable that names a template resource this run does not have (a queue, when
 *     no start-api runs them), set to "" as sam local sets it, to that resource's logical id
 */
public record FunctionSpec(
        String logicalId,
        String handler,
        Path codeUri,
        int memoryMb,
        int timeoutSeconds,
        Map<String, String> environment,
        List<RouteSpec> routes,
        Map<String, String> absent) {
    public FunctionSpec {
        absent = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(absent)); // template order
    }

    /** The class part of {@code Handler: com.example.Foo::handleRequest}. */
    public String handlerClass() {
        int separator = handler.indexOf("::");
        return separator < 0 ? handler : handler.substring(0, separator);
    }
}
