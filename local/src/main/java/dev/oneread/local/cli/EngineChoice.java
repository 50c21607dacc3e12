package dev.oneread.local.cli;

import dev.oneread.local.runner.LocalStack;
import dev.oneread.local.template.SamTemplate;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which engine {@code invoke} or {@code seed} works on, and the sentence that says so on stderr. In order:
 * the engine at DYNAMODB_ENDPOINT; else the engine of the start-api registered in the state file, if it
 * still runs (with its table and its parameter overrides); else an engine of the command's own.
 *
 * <pre>{@code EngineChoice choice = EngineChoice.resolve("invoke", root, options, false, environment);}</pre>
 */
public record EngineChoice(LocalStack.Settings settings, String description, URI startApi) {
    /** An engine no start-api of this checkout serves. */
    public EngineChoice(LocalStack.Settings settings, String description) {
        this(settings, description, null);
    }

    /** The running start-api whose engine this is (its console shows what the command does), if it is one's. */
    public Optional<URI> console() {
        return Optional.ofNullable(startApi);
    }

    /**
     * @param ownEngine true to ignore a running start-api
     * @throws CommandException (exit 2) when the overrides differ from a running start-api's, or when
     *                          {@code --data-dir} names the directory that start-api's engine holds open, or
     *                          when {@code --partition-limits} is given for an engine this command does not start
     */
    public static EngineChoice resolve(
            String command, Path root, EngineOptions options, boolean ownEngine, Map<String, String> environment) {
        LocalStack.Settings fromEnvironment =
                LocalStack.Settings.fromEnvironment(environment, options.overrides(), options.dataDir(), true);
        if (fromEnvironment.engine() != null) {
            options.refuseLimitsFor("the engine at DYNAMODB_ENDPOINT", fromEnvironment.engine());
            return new EngineChoice(
                    fromEnvironment,
                    "the engine at " + fromEnvironment.engine() + " (DYNAMODB_ENDPOINT), table "
                            + fromEnvironment.tableName());
        }
        Path stateFile = options.stateFile(root);
        Optional<StartApiState> registered = StartApiState.read(stateFile);
        Optional<StartApiState> running = registered.filter(StartApiState::isAlive);
        if (running.isPresent() && !ownEngine && options.dataDir() == null) {
            options.refuseLimitsFor(
                    "the engine of start-api (pid " + running.get().pid() + ")",
                    running.get().engine());
        }
        LocalStack.Settings ownSettings =
                fromEnvironment.withLimits(options.partitionLimits()).withLag(options.indexLag());
        String own =
                "an engine of its own (" + (options.dataDir() == null ? "in memory" : "data in " + options.dataDir())
                        + ", table " + fromEnvironment.tableName() + ")";
        if (running.isEmpty()) {
            String why = registered.isPresent()
                    ? ", since the start-api in " + stateFile + " (pid "
                            + registered.get().pid() + ") no longer runs"
                    : ", since no start-api runs";
            return new EngineChoice(ownSettings, own + why);
        }
        StartApiState api = running.get();
        if (options.dataDir() != null && options.dataDir().equals(api.dataDir())) {
            throw new CommandException(
                    2,
                    "start-api (pid " + api.pid() + ") holds " + api.dataDir()
                            + " open; drop --data-dir to use its engine");
        }
        if (ownEngine || options.dataDir() != null) {
            return new EngineChoice(ownSettings, own + ", not the engine of start-api (pid " + api.pid() + ")");
        }
        Map<String, String> overrides = new LinkedHashMap<>(api.parameterOverrides());
        overrides.putAll(options.overrides());
        requireSameParameters(command, root, api, overrides);
        return new EngineChoice(
                new LocalStack.Settings(api.engine(), null, api.tableName(), overrides, true)
                        .withQueues(LocalStack.Queues.of(api.queues())),
                "the engine of start-api (pid " + api.pid() + ", " + api.api() + ") at " + api.engine() + ", table "
                        + api.tableName(),
                api.api());
    }

    /**
     * Two processes that read one table under different parameters see different worlds: with another shard
     * plan, start-api's lists come back empty after a migration it does not know about. So refuse.
     */
    private static void requireSameParameters(
            String command, Path root, StartApiState api, Map<String, String> overrides) {
        SamTemplate template = SamTemplate.load(root.resolve("template.yaml"));
        Map<String, String> served = LocalStack.parameters(template, api.parameterOverrides());
        Map<String, String> wanted = LocalStack.parameters(template, overrides);
        List<String> differences = new ArrayList<>();
        for (String name : template.parameters().keySet()) {
            if (!wanted.get(name).equals(served.get(name))) {
                differences.add(name + " is \"" + served.get(name) + "\" there, \"" + wanted.get(name) + "\" here");
            }
        }
        if (!differences.isEmpty()) {
            throw new CommandException(
                    2,
                    "the running start-api (pid " + api.pid() + ") has other parameters: "
                            + String.join("; ", differences)
                            + ". Restart start-api with these --parameter-overrides, or leave them out"
                            + " of " + command + " to run with start-api's");
        }
    }
}
