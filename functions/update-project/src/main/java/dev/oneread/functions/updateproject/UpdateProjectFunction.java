package dev.oneread.functions.updateproject;

import dev.oneread.function.HttpApiFunction;
import dev.oneread.http.ApiRequest;
import dev.oneread.http.HttpResponse;
import dev.oneread.http.Representations;
import dev.oneread.http.RequestBodies;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ExpectedVersion;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectPatch;
import dev.oneread.operations.UpdateProjectOperation;
import dev.oneread.priming.PrimingRequest;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@code PATCH /workspaces/{workspaceId}/projects/{projectId}} with {@code If-Match}: one conditional
 * UpdateItem; 200 with the new ETag, 412 if the project changed meanwhile, 428 without If-Match.
 */
public final class UpdateProjectFunction extends HttpApiFunction {
    private final ControlPlaneStore store;
    private final Clock clock;

    /** Used by the Lambda runtime: the shared client and the function's environment. */
    public UpdateProjectFunction() {
        this(DynamoDbClients.shared(), FunctionConfig.fromEnvironment("UpdateProject"));
    }

    public UpdateProjectFunction(DynamoDbClient client, FunctionConfig config) {
        super(config, UpdateProjectOperation.INSTANCE);
        this.store = itemStore(client, config);
        this.clock = Clock.systemUTC();
    }

    @Override
    protected HttpResponse handle(ApiRequest request, CallTally tally) {
        WorkspaceId workspaceId = request.workspaceId();
        ProjectId projectId = request.projectId();
        // The body first, then the precondition: a bad body is a 400 whatever the If-Match, since a stale one is
        // only found by the write itself, which needs a valid body (docs/security.md, "Writes").
        ProjectPatch patch = RequestBodies.projectPatch(request);
        ExpectedVersion expectedVersion = request.ifMatchVersion();
        Project project = store.updateProject(
                workspaceId, projectId, patch, expectedVersion, clock.instant().truncatedTo(ChronoUnit.MILLIS), tally);
        return HttpResponse.ok(Representations.project(project))
                .withHeader("etag", Representations.etag(project.version()));
    }

    @Override
    protected Optional<PrimingRequest> primingRequest() {
        return super.primingRequest()
                .map(request -> request.withHeader("if-match", PrimingRequest.NO_SUCH_VERSION)
                        .withBody("{\"name\":\"priming\"}"));
    }
}
