package dev.oneread.local.cli;

import dev.oneread.json.Json;
import dev.oneread.local.ProjectRoot;
import dev.oneread.local.runner.LocalFunction;
import dev.oneread.local.runner.LocalStack;
import dev.oneread.local.runner.ServedRequest;
import dev.oneread.local.template.SamTemplate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code invoke}: one function, one event, as {@code sam local invoke}, in the world of a running start-api. */
@Command(
        name = "invoke",
        sortOptions = false,
        synopsisHeading = "usage: ",
        description = {
            "Runs one function on one event, as sam local invoke does.",
            "The response goes to stdout; the function's log and Lambda's START/END/REPORT lines to stderr.",
            "It works on the engine, table and parameter overrides of the start-api running in this checkout "
                    + "(or the engine at DYNAMODB_ENDPOINT); with none, on an engine of its own that holds "
                    + "the sample data. Its first line on stderr says which.",
            "Exit 1 when the event cannot be read or is not JSON, the function is unknown or fails; exit 2 for "
                    + "bad arguments, or for --parameter-overrides that differ from the running start-api's."
        })
public final class InvokeCommand implements Callable<Integer> {
    private final CommandIo io;

    @Parameters(
            index = "0",
            paramLabel = "FunctionLogicalId",
            description = "a function of template.yaml, e.g. GetWorkspace")
    private String functionId;

    @Option(
            names = "--event",
            required = true,
            paramLabel = "FILE|-",
            description = "the event JSON; - reads standard input")
    private String event;

    @Option(names = "--own-engine", description = "ignore a running start-api: start an engine of its own")
    private boolean ownEngine;

    @Mixin
    private EngineOptions engine;

    public InvokeCommand(CommandIo io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        byte[] payload = readEvent();
        Path root = ProjectRoot.find();
        Set<String> declared = SamTemplate.load(root.resolve("template.yaml"))
                .resourcesOfType("AWS::Serverless::Function")
                .keySet();
        if (!declared.contains(functionId)) {
            // Checked before any engine starts: a typo should fail in milliseconds.
            throw new CommandException(
                    1, "no function " + functionId + " in template.yaml; functions: " + String.join(", ", declared));
        }
        EngineChoice choice = EngineChoice.resolve("invoke", root, engine, ownEngine, io.environment());
        io.err().println("invoke: using " + choice.description());
        try (LocalStack stack = LocalStack.start(root, choice.settings(), io.err())) {
            Instant at = Instant.now();
            LocalFunction.Result result = invoke(stack.functions().get(functionId), payload);
            io.out().println(result.responseText());
            io.out().flush();
            // In start-api's log too, as if start-api had served it: its writes are live there already (the feed).
            choice.console()
                    .ifPresent(api -> ServedRequest.ofInvocation(functionId, at, payload, result)
                            .ifPresent(served -> ConsoleLog.post(api, served.toJson(), "invoke", io.err())));
            if (result.failed()) {
                io.err().println("invoke: " + functionId + " failed; its error is on stdout");
                return 1;
            }
            return 0;
        }
    }

    /**
     * The function's result; when its init fails while this run lacks a template resource it names (a queue: only
     * start-api runs the template's queues), one line that says which and what to do, instead of its error.
     */
    private LocalFunction.Result invoke(LocalFunction function, byte[] payload) {
        Map<String, String> absent = function.spec().absent();
        try {
            return function.invoke(payload);
        } catch (IllegalStateException initFailed) {
            if (absent.isEmpty()) {
                throw initFailed;
            }
            List<String> needs = new ArrayList<>();
            absent.forEach((variable, resource) -> needs.add(resource + " (" + variable + ")"));
            String why = initFailed.getCause() == null
                    ? initFailed.getMessage()
                    : initFailed.getCause().getMessage();
            throw new CommandException(
                    1,
                    functionId + " needs the template's " + String.join(" and ", needs)
                            + ", which this invoke does not have: only start-api runs the template's queues."
                            + " Start start-api in this checkout and invoke beside it (without DYNAMODB_ENDPOINT"
                            + " or --own-engine). Its init said: " + why);
        }
    }

    /** The event's bytes, refused before anything starts when they cannot be read or are not one JSON object. */
    private byte[] readEvent() {
        String source = event.equals("-") ? "standard input" : event;
        byte[] payload;
        try {
            payload = event.equals("-") ? io.in().readAllBytes() : Files.readAllBytes(Path.of(event));
        } catch (IOException e) {
            throw new CommandException(1, "cannot read event " + event + ": " + e.getMessage());
        }
        try {
            Json.readObject(new String(payload, StandardCharsets.UTF_8));
        } catch (Json.MalformedJsonException e) {
            throw new CommandException(1, "event is not valid JSON (one JSON object expected): " + source);
        }
        return payload;
    }
}
