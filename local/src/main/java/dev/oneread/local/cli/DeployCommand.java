package dev.oneread.local.cli;

import dev.oneread.json.Json;
import dev.oneread.local.ProjectRoot;
import dev.oneread.local.runner.ApiServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code deploy}: new parameter overrides for the running start-api, as {@code sam deploy} gives a stack new ones. */
@Command(
        name = "deploy",
        sortOptions = false,
        synopsisHeading = "usage: ",
        description = {
            "Applies new template parameters to the running start-api without stopping it, as sam deploy "
                    + "--parameter-overrides does to a stack: new invocations run functions configured with the "
                    + "new parameters, invocations in flight finish on the old ones. A parameter not named keeps "
                    + "its value. Values the template does not allow are refused, as CloudFormation refuses them.",
            "Example: deploy --parameter-overrides HotTenantShards=acme=10 HotTenantMigrating=acme"
        })
public final class DeployCommand implements Callable<Integer> {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final CommandIo io;

    @Option(
            names = "--parameter-overrides",
            arity = "1..*",
            required = true,
            paramLabel = "Key=Value",
            description = "template parameters, as sam deploy takes them (a value may hold '=', or be empty: "
                    + "HotTenantMigrating=)")
    private Map<String, String> overrides;

    @Option(
            names = "--state-file",
            paramLabel = "FILE",
            description = "where the running start-api registered (default: .oneread/start-api.json)")
    private Path stateFile;

    public DeployCommand(CommandIo io) {
        this.io = io;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        Path file = stateFile == null
                ? StartApiState.defaultFile(ProjectRoot.find())
                : stateFile.toAbsolutePath().normalize();
        StartApiState api = StartApiState.read(file)
                .filter(StartApiState::isAlive)
                .orElseThrow(() -> new CommandException(1, "deploy: no running start-api is registered in " + file));
        HttpRequest request = HttpRequest.newBuilder(URI.create(api.api() + ApiServer.DEPLOY_PATH))
                .timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(Map.of("parameterOverrides", overrides))))
                .build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        Map<String, Object> body = Json.readObject(response.body());
        if (response.statusCode() != 200) {
            throw new CommandException(
                    response.statusCode() < 500 ? 2 : 1, "deploy: refused: " + body.getOrDefault("detail", body));
        }
        io.out().println(Json.write(body.get("parameters")));
        io.err()
                .println("deploy: " + api.api()
                        + " runs the new configuration; in-flight invocations finish on the old");
        return 0;
    }
}
