package dev.oneread.http;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.oneread.store.CallTally;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Base of every function: the Lambda entry point that runs {@link #handle} inside the {@link HttpEndpoint}
 * frame (parsing, problem mapping, audit headers, the log line). A subclass only says what its route does.
 *
 * <pre>{@code
 * protected HttpResponse handle(ApiRequest request, CallTally tally) {
 *     return HttpResponse.ok(Representations.workspace(store.getWorkspace(request.workspaceId(), tally)));
 * }
 * }</pre>
 */
public abstract class HttpApiFunction implements RequestStreamHandler {
    private final HttpEndpoint endpoint;

    protected HttpApiFunction(FunctionConfig config) {
        this.endpoint = new HttpEndpoint(config);
    }

    /** Parse and validate the request, make one store call, map the result. */
    protected abstract HttpResponse handle(ApiRequest request, CallTally tally);

    @Override
    public final void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        endpoint.serve(input, output, context, this::handle);
    }
}
