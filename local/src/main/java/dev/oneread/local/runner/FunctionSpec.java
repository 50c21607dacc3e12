package dev.oneread.local.runner;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * An {@code AWS::Serverless::Function} from template.yaml with Globals applied and every parameter and
 * {@code !Ref} resolved for a local run.
 */
public record FunctionSpec(
        String logicalId,
        String handler,
        Path codeUri,
        int memoryMb,
        int timeoutSeconds,
        Map<String, String> environment,
        List<RouteSpec> routes) {

    /** The class part of {@code Handler: com.example.Foo::handleRequest}. */
    public String handlerClass() {
        int separator = handler.indexOf("::");
        return separator < 0 ? handler : handler.substring(0, separator);
    }
}
