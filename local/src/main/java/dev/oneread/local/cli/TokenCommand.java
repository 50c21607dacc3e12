package dev.oneread.local.cli;

import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.ProjectRoot;
import dev.oneread.local.auth.LocalJwt;
import dev.oneread.local.auth.SigningKey;
import dev.oneread.local.runner.LocalStack;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code token}: a bearer token start-api accepts, as the real identity provider would issue one. */
@Command(
        name = "token",
        sortOptions = false,
        synopsisHeading = "usage: ",
        description = {
            "Prints a bearer token that start-api accepts: an access token (token_use access) with scope "
                    + "openid oneread/api, and oneread/admin with --admin.",
            "It is signed with the key start-api checks tokens with: the file signing-key in --data-dir, or in "
                    + ".oneread/ for an engine in memory, made on first use and readable by you alone. "
                    + "A missing, expired or badly signed token gets 401, locally as in AWS."
        })
public final class TokenCommand implements Callable<Integer> {
    private final CommandIo io;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--workspaces",
            split = ",",
            paramLabel = "ID",
            converter = Converters.Workspace.class,
            description = "the workspaces the caller may use (claim workspaces), comma-separated")
    private List<WorkspaceId> workspaces;

    @Option(names = "--admin", description = "an operator (scope oneread/admin): may create workspaces")
    private boolean admin;

    @Option(
            names = "--ttl",
            defaultValue = "1h",
            converter = Converters.Ttl.class,
            paramLabel = "DURATION",
            description = "how long it is valid: 90s, 15m, 1h, 2d (default: ${DEFAULT-VALUE})")
    private Duration ttl;

    @Option(
            names = "--sub",
            defaultValue = "local-developer",
            paramLabel = "SUBJECT",
            description = "the caller's id, claim sub (default: ${DEFAULT-VALUE})")
    private String subject;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description = "the data directory of the start-api the token is for (default: an engine in memory)")
    private java.nio.file.Path dataDir;

    public TokenCommand(CommandIo io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        List<String> ids = workspaces == null
                ? List.of()
                : workspaces.stream().map(WorkspaceId::value).toList();
        if (ids.isEmpty() && !admin) {
            throw new ParameterException(spec.commandLine(), "token needs --workspaces and/or --admin");
        }
        LocalJwt jwt = new LocalJwt(
                LocalStack.LOCAL_DEFAULTS.get("JwtIssuer"),
                LocalStack.LOCAL_DEFAULTS.get("JwtAudience"),
                SigningKey.loadOrCreate(SigningKey.fileFor(
                        ProjectRoot.find(),
                        dataDir == null ? null : dataDir.toAbsolutePath().normalize())),
                Clock.systemUTC());
        io.out().println(jwt.issue(subject, ids, admin, ttl));
        return 0;
    }
}
