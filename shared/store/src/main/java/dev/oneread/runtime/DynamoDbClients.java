package dev.oneread.runtime;

import dev.oneread.store.calls.CallAudit;
import dev.oneread.store.calls.CallPath;
import dev.oneread.store.calls.Retries;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The one place DynamoDB clients are built; the clients of other AWS services are built in their own modules, on the
 * same configuration ({@link AwsClients}).
 *
 * <p>{@link #shared()} builds the client once per execution environment, in a class initializer, so the
 * cost lands in Lambda's init phase (and in the SnapStart snapshot) instead of the first request. Every
 * choice here is for cold start: region, credentials provider and HTTP client are explicit, so the SDK
 * never walks its default chains (which cost up to ~170 ms together), and the URLConnection client loads
 * far fewer classes than Apache or Netty.
 *
 * <pre>{@code DynamoDbClient client = DynamoDbClients.shared();}</pre>
 */
public final class DynamoDbClients {
    /**
     * The access key of {@link #local} clients: oneread's own tools (the runner, the console, seed, import, tests and
     * benches). The local engine records each write's signer, and the console logs as engine-origin only writes
     * signed otherwise (the aws CLI, an SDK, a pasted snippet, which sign as {@code local}): those of oneread's tools
     * are logged where they are made, or are not the developer's.
     */
    public static final String LOCAL_ACCESS_KEY_ID = "oneread-local";

    /** Set it to talk to a local engine (dynalite) instead of AWS. */
    public static final String ENDPOINT_VARIABLE = "DYNAMODB_ENDPOINT";

    private DynamoDbClients() {}

    /** The client of this execution environment for an API function, built on first use from the environment. */
    public static DynamoDbClient shared() {
        return shared(CallPath.REQUEST);
    }

    /** The client of this execution environment for {@code path}, built on first use from the environment. */
    public static DynamoDbClient shared(CallPath path) {
        return path == CallPath.JOB ? JobHolder.CLIENT : Holder.CLIENT;
    }

    /** A client configured from {@code environment}: AWS_REGION, DYNAMODB_ENDPOINT and credentials. */
    public static DynamoDbClient fromEnvironment(Map<String, String> environment) {
        return fromEnvironment(environment, List.of());
    }

    /**
     * As {@link #fromEnvironment(Map)}, with more interceptors after the audit: how tests inject throttling,
     * timeouts and engine faults that the local engine cannot produce.
     */
    public static DynamoDbClient fromEnvironment(Map<String, String> environment, List<ExecutionInterceptor> extra) {
        return fromEnvironment(environment, extra, Retries.of(CallPath.REQUEST));
    }

    /** As {@link #fromEnvironment(Map, List)}, retrying as {@code retries} says: a job's client, a benchmark's. */
    public static DynamoDbClient fromEnvironment(
            Map<String, String> environment, List<ExecutionInterceptor> extra, Retries retries) {
        return configured(
                        DynamoDbClient.builder().httpClient(AwsClients.urlConnectionClient()),
                        environment,
                        extra,
                        retries)
                .build();
    }

    /** What every client built here shares: region, credentials and endpoint (AwsClients), retries, timeouts, audit. */
    private static <B extends AwsClientBuilder<B, ?>> B configured(
            B builder, Map<String, String> environment, List<ExecutionInterceptor> extra, Retries retries) {
        return AwsClients.located(builder, environment, ENDPOINT_VARIABLE)
                .overrideConfiguration(o -> o.retryStrategy(retries.strategy().get())
                        .apiCallAttemptTimeout(retries.attemptTimeout())
                        .apiCallTimeout(retries.callTimeout())
                        .executionInterceptors(withAudit(extra)));
    }

    /**
     * A client that sends nothing and answers every call with {@code responseJson}, as DynamoDB would: for SnapStart
     * priming of a function's success path (see {@link SampleHttpClient}). Configured as the function's own client
     * is, in its region and with the same interceptors, but with credentials that sign what is never sent, and with
     * no endpoint override, so the SDK resolves its AWS endpoint, as the function's client does on AWS. Close it
     * after priming.
     */
    public static DynamoDbClient answering(String responseJson) {
        Map<String, String> environment = Map.of(
                "AWS_REGION",
                FunctionEnvironment.get().getOrDefault("AWS_REGION", "us-east-1"),
                "AWS_ACCESS_KEY_ID",
                "sample",
                "AWS_SECRET_ACCESS_KEY",
                "sample");
        return configured(
                        DynamoDbClient.builder().httpClient(new SampleHttpClient(responseJson)),
                        environment,
                        List.of(),
                        Retries.of(CallPath.REQUEST))
                .build();
    }

    /** A client for a local engine at {@code endpoint}, with dummy credentials: for tests and the runner. */
    public static DynamoDbClient local(URI endpoint) {
        return fromEnvironment(localEnvironment(endpoint));
    }

    private static List<ExecutionInterceptor> withAudit(List<ExecutionInterceptor> extra) {
        List<ExecutionInterceptor> all = new ArrayList<>();
        all.add(new CallAudit());
        all.addAll(extra);
        return all;
    }

    private static Map<String, String> localEnvironment(URI endpoint) {
        return Map.of(
                ENDPOINT_VARIABLE,
                endpoint.toString(),
                "AWS_REGION",
                "us-east-1",
                "AWS_ACCESS_KEY_ID",
                LOCAL_ACCESS_KEY_ID,
                "AWS_SECRET_ACCESS_KEY",
                "local");
    }

    /** A local-engine client that retries as {@code retries} says: for the retry benchmark and tests. */
    public static DynamoDbClient local(URI endpoint, Retries retries) {
        return fromEnvironment(localEnvironment(endpoint), List.of(), retries);
    }

    /** A local-engine client with extra interceptors (fault injection in tests). */
    public static DynamoDbClient local(URI endpoint, List<ExecutionInterceptor> extra) {
        return fromEnvironment(localEnvironment(endpoint), extra);
    }

    private static final class Holder {
        static final DynamoDbClient CLIENT = fromEnvironment(FunctionEnvironment.get());
    }

    private static final class JobHolder {
        static final DynamoDbClient CLIENT =
                fromEnvironment(FunctionEnvironment.get(), List.of(), Retries.of(CallPath.JOB));
    }
}
