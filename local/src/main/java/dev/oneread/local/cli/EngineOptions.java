package dev.oneread.local.cli;

import dev.oneread.local.engine.IndexLag;
import dev.oneread.local.engine.PartitionLimits;
import java.net.URI;
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

    @Option(
            names = "--partition-limits",
            paramLabel = "SCALE",
            converter = Converters.Limits.class,
            description = "an engine started here enforces DynamoDB's per-partition limits times SCALE: 1 (default)"
                    + " is DynamoDB's 3,000 read and 1,000 write units per second per partition key value, 0 turns"
                    + " them off, 0.05 divides them by 20")
    private PartitionLimits partitionLimits;

    @Option(
            names = "--index-lag",
            paramLabel = "MS",
            converter = Converters.Lag.class,
            description = "an engine started here answers every query of a global secondary index as the table stood"
                    + " MS milliseconds ago, as DynamoDB's asynchronously updated indexes do: 500 (default) is"
                    + " DynamoDB's typical lag (within a second), 0 turns it off")
    private IndexLag indexLag;

    public Map<String, String> overrides() {
        return overrides == null ? Map.of() : overrides;
    }

    /** The data directory, absolute; null for an engine in memory. */
    public Path dataDir() {
        return dataDir == null ? null : dataDir.toAbsolutePath().normalize();
    }

    /** The partition limits of an engine this command starts: {@code --partition-limits}, else DynamoDB's. */
    public PartitionLimits partitionLimits() {
        return partitionLimits == null ? PartitionLimits.DYNAMODB : partitionLimits;
    }

    /** The index lag of an engine this command starts: {@code --index-lag}, else DynamoDB's typical lag. */
    public IndexLag indexLag() {
        return indexLag == null ? IndexLag.DYNAMODB : indexLag;
    }

    /**
     * Refuses {@code --partition-limits} and {@code --index-lag} for an engine this command does not start
     * ({@code whose}, at {@code engine}): its limits and its lag are its own, and silently ignoring either would
     * mislead.
     *
     * @throws CommandException (exit 2) when either option was given
     */
    public void refuseLimitsFor(String whose, URI engine) {
        refuseIfGiven(partitionLimits, "--partition-limits", whose, engine, "whose limits are its own");
        refuseIfGiven(indexLag, "--index-lag", whose, engine, "whose indexes lag as they do");
    }

    private static void refuseIfGiven(Object given, String option, String whose, URI engine, String why) {
        if (given != null) {
            throw new CommandException(
                    2,
                    option + " applies only to an engine started here, not to " + whose + " at " + engine + ", " + why);
        }
    }

    public Path stateFile(Path projectRoot) {
        return stateFile == null
                ? StartApiState.defaultFile(projectRoot)
                : stateFile.toAbsolutePath().normalize();
    }
}
