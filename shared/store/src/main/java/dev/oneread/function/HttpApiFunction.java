package dev.oneread.function;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.oneread.http.ApiRequest;
import dev.oneread.http.HttpEndpoint;
import dev.oneread.http.HttpResponse;
import dev.oneread.operations.Operation;
import dev.oneread.priming.PrimingContext;
import dev.oneread.priming.PrimingRequest;
import dev.oneread.priming.PrimingSuccess;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.calls.QueryPool;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;
import org.crac.Core;
import org.crac.Resource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Base of every function that serves an HTTP API route, 13 of the 18: the Lambda entry point that runs
 * {@link #handle} inside the {@link HttpEndpoint} frame (parsing, problem mapping, audit headers, the log line). A
 * subclass only says what its route does. The other five are not routes: the four jobs (PlanJobs, RunJob,
 * BackfillIndex, MigrateHotTenant) run in {@code JobFrame}, and AddWorkspacesClaim is Cognito's token trigger.
 *
 * <pre>{@code
 * protected HttpResponse handle(ApiRequest request, CallTally tally) {
 *     return HttpResponse.ok(Representations.workspace(store.getWorkspace(request.workspaceId(), tally)));
 * }
 * }</pre>
 */
public abstract class HttpApiFunction implements RequestStreamHandler {
    /** How many times priming sends its request: a few calls at publish, for a warmer first request. */
    static final int PRIMING_ROUNDS = 10;

    private final HttpEndpoint endpoint;
    private final Optional<Operation> operation;
    /** SnapStart's hook: held here, since org.crac's global context may hold it weakly. */
    private final Resource snapshotHook = new Resource() {
        @Override
        public void beforeCheckpoint(org.crac.Context<? extends Resource> context) {
            prime();
        }

        @Override
        public void afterRestore(org.crac.Context<? extends Resource> context) {}
    };

    /** A function with no operation of the list: no budget to log against, and no priming unless it says one. */
    protected HttpApiFunction(FunctionConfig config) {
        this(config, Optional.empty());
    }

    /**
     * The edge of {@code operation}: its requests are logged against the operation's budget, and it primes itself
     * with a request on the operation's route.
     */
    protected HttpApiFunction(FunctionConfig config, Operation operation) {
        this(config, Optional.of(operation));
    }

    private HttpApiFunction(FunctionConfig config, Optional<Operation> operation) {
        this.endpoint = new HttpEndpoint(config, operation.map(Operation::descriptor));
        this.operation = operation;
        Core.getGlobalContext().register(snapshotHook);
    }

    /**
     * The store of a function that reads or writes one item at a time, in any workspace, sharded or not: on the
     * function's table and shard plan, without a query pool, since it never lists (a point read or write of a
     * sharded workspace stays one sync call).
     */
    protected static ControlPlaneStore itemStore(DynamoDbClient client, FunctionConfig config) {
        return listingStore(client, null, config);
    }

    /**
     * The store of a function that lists, on the function's table and shard plan: its fan-out over a hot workspace's
     * shards, or over the index's, runs on {@code pool}.
     */
    protected static ControlPlaneStore listingStore(DynamoDbClient client, QueryPool pool, FunctionConfig config) {
        return new ControlPlaneStore(client, pool, config.tableName(), config.shardPlan());
    }

    /** Parse and validate the request, make one store call, map the result. */
    protected abstract HttpResponse handle(ApiRequest request, CallTally tally);

    /**
     * The request this function primes its path with (see {@link PrimingRequest}): by default its operation's route,
     * as a caller of the operation's scope sends it; none without an operation. A function whose request needs
     * more (an If-Match, a body, a query parameter) adds it to this one.
     */
    protected Optional<PrimingRequest> primingRequest() {
        return operation.map(served -> PrimingRequest.of(served.descriptor()));
    }

    /**
     * How this function answers the priming request on success: its own logic on a store that reads a sample, never
     * stored, through the whole read path (see {@link dev.oneread.priming.SampleStore}); none by
     * default. The priming request meets no data, so without this the first real request would still load and
     * compile the success path: the SDK's unmarshalling of items, the parsing and rendering, and for a list the
     * sealing of its next cursor.
     */
    protected Optional<PrimingSuccess> primingSuccess() {
        return Optional.empty();
    }

    /**
     * Sends the priming request through the whole path, as a caller's would go: what SnapStart's checkpoint calls
     * (beforeCheckpoint), and what the local runner calls after it loads a function, as that checkpoint would.
     * Then, for a function with a {@link #primingSuccess}, runs that through the same frame. Never throws, and
     * logs nothing: priming must not fail a publish, nor look like traffic.
     *
     * @return the priming response's status; 0 when the function primes nothing or the priming failed
     */
    public final int prime() {
        Optional<PrimingRequest> request = primingRequest();
        if (request.isEmpty()) {
            return 0;
        }
        try {
            byte[] event = request.get().toEvent().toJsonBytes();
            int status = primeRounds(event, this::handle);
            Optional<PrimingSuccess> success = primingSuccess();
            if (success.isPresent()) {
                // Then the success path, which the request above never reaches: the same frame, the function's
                // own logic, on a store whose client answers with a sample instead of calling DynamoDB.
                try (PrimingSuccess sample = success.get()) {
                    if (primeRounds(event, sample.logic()) != 200) {
                        return 0; // a sample the function cannot read: the priming failed
                    }
                }
            }
            return status;
        } catch (Exception | LinkageError e) {
            return 0; // a failed priming leaves a colder snapshot, nothing worse
        }
    }

    /**
     * Serves the priming event {@link #PRIMING_ROUNDS} times, so that the path's methods get compiled, not only
     * loaded; the response is still written (that is part of the path), to a stream that keeps nothing.
     *
     * @return the last response's status, as the frame returned it
     */
    private int primeRounds(byte[] event, HttpEndpoint.Logic logic) throws IOException {
        int status = 0;
        for (int round = 0; round < PRIMING_ROUNDS; round++) {
            status = endpoint.serve(
                            new ByteArrayInputStream(event),
                            OutputStream.nullOutputStream(),
                            PrimingContext.INSTANCE,
                            logic)
                    .statusCode();
        }
        return status;
    }

    @Override
    public final void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        endpoint.serve(input, output, context, this::handle);
    }
}
