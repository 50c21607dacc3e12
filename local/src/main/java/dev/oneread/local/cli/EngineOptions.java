package dev.oneread.local.cli;

import dev.oneread.local.runner.StartApiState;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/** The options that say which local world a command works in: template parameters, data and start-api. */
public final class EngineOptions {
    @Option(
            names = "--parameter-overrides",
            arity = "1..*",
            paramLabel = "Key=Value",
            description =
                    "template parameters, as sam deploy takes them (a value may hold '=': HotTenantShards=acme=4)")
    private Map<String, String> overrides;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description = "keep the engine's data in DIR across runs (default: in memory)")
    private Path dataDir;

    @Option(
            names = "--state-file",
            paramLabel = "FILE",
            description = "where start-api tells invoke and seed its engine (default: .oneread/start-api.json)")
    private Path stateFile;

    public Map<String, String> overrides() {
        return overrides == null ? Map.of() : overrides;
    }

    /** The data directory, absolute; null for an engine in memory. */
    public Path dataDir() {
        return dataDir == null ? null : dataDir.toAbsolutePath().normalize();
    }

    public Path stateFile(Path projectRoot) {
        return stateFile == null
                ? StartApiState.defaultFile(projectRoot)
                : stateFile.toAbsolutePath().normalize();
    }
}
