package dev.oneread.runtime;

import dev.oneread.priming.SampleHttpClient;
import dev.oneread.store.CallAudit;
import dev.oneread.store.CallPath;
import dev.oneread.store.QueryPool;
import dev.oneread.store.Retries;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.ContainerCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The one place DynamoDB clients are built.
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
    /** Set it to talk to a local engine (dynalite) instead of AWS. */
    public static final String ENDPOINT_VARIABLE = "DYNAMODB_ENDPOINT";

    private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

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
        return configured(DynamoDbClient.builder().httpClient(urlConnectionClient()), environment, extra, retries)
                .build();
    }

    /** What every client built here shares: region, credentials, retries, timeouts, audit, endpoint. */
    private static <B extends AwsClientBuilder<B, ?>> B configured(
            B builder, Map<String, String> environment, List<ExecutionInterceptor> extra, Retries retries) {
        String endpoint = environment.get(ENDPOINT_VARIABLE);
        boolean localEngine = endpoint != null && !endpoint.isBlank();
        builder.region(Region.of(environment.getOrDefault("AWS_REGION", "us-east-1")))
                .credentialsProvider(credentials(environment, localEngine))
                .overrideConfiguration(o -> o.retryStrategy(retries.strategy().get())
                        .apiCallAttemptTimeout(retries.attemptTimeout())
                        .apiCallTimeout(retries.callTimeout())
                        .executionInterceptors(withAudit(extra)));
        if (localEngine) {
            builder.endpointOverride(URI.create(endpoint));
        }
        return builder;
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

    /**
     * The HTTP client of every client built here that sends. The fan-out runs up to {@link QueryPool#MAX_FAN_OUT}
     * queries at once, and the JDK keeps only 5 idle connections to a host by default (its KeepAliveCache): the
     * other queries of every page would open new connections. The URLConnection client's builder has no pool size
     * (only timeouts, TLS and proxy), and the JDK reads {@code http.maxConnections} once, when its HTTP client
     * first connects, so it is set here, before the first client this class builds can connect, rather than as a
     * side effect of loading the class. A value the operator set ({@code -Dhttp.maxConnections}) wins.
     */
    private static SdkHttpClient urlConnectionClient() {
        if (System.getProperty("http.maxConnections") == null) {
            System.setProperty("http.maxConnections", Integer.toString(QueryPool.MAX_FAN_OUT));
        }
        return UrlConnectionHttpClient.create();
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
                "local",
                "AWS_SECRET_ACCESS_KEY",
                "local");
    }

    /** Overrides the Secrets Manager endpoint (tests, local stand-ins); unset on Lambda. */
    public static final String SECRETS_ENDPOINT_VARIABLE = "SECRETS_MANAGER_ENDPOINT";

    /**
     * A Secrets Manager client configured from {@code environment}: the same region, credentials and HTTP client
     * as DynamoDB's, and standard retries. Built only by a function whose environment names a secret.
     */
    public static SecretsManagerClient secretsManager(Map<String, String> environment) {
        return service(SecretsManagerClient.builder(), environment, SECRETS_ENDPOINT_VARIABLE);
    }

    /** Overrides the SQS endpoint (the local runner's embedded queue, tests); unset on Lambda. */
    public static final String SQS_ENDPOINT_VARIABLE = "SQS_ENDPOINT";

    /**
     * An SQS client configured from {@code environment}, as the Secrets Manager one: DynamoDB's region, credentials
     * and HTTP client, standard retries. Built only by the planner, which sends the job's tasks.
     */
    public static software.amazon.awssdk.services.sqs.SqsClient sqs(Map<String, String> environment) {
        return service(software.amazon.awssdk.services.sqs.SqsClient.builder(), environment, SQS_ENDPOINT_VARIABLE);
    }

    /**
     * A client of another AWS service, configured as DynamoDB's is: the region, credentials and URLConnection
     * client of {@code environment}, standard retries, the same timeouts, and {@code endpointVariable}'s endpoint
     * when it is set (a local stand-in).
     */
    private static <
                    B extends
                            software.amazon.awssdk.awscore.client.builder.AwsClientBuilder<B, C>
                                    & software.amazon.awssdk.core.client.builder.SdkSyncClientBuilder<B, C>,
                    C>
            C service(B builder, Map<String, String> environment, String endpointVariable) {
        String endpoint = environment.get(endpointVariable);
        boolean local = endpoint != null && !endpoint.isBlank();
        builder.httpClient(urlConnectionClient())
                .region(Region.of(environment.getOrDefault("AWS_REGION", "us-east-1")))
                .credentialsProvider(credentials(environment, local))
                .overrideConfiguration(o -> o.retryStrategy(RetryMode.STANDARD)
                        .apiCallAttemptTimeout(ATTEMPT_TIMEOUT)
                        .apiCallTimeout(CALL_TIMEOUT));
        if (local) {
            builder.endpointOverride(URI.create(endpoint));
        }
        return builder.build();
    }

    /** A local-engine client that retries as {@code retries} says: for the retry benchmark and tests. */
    public static DynamoDbClient local(URI endpoint, Retries retries) {
        return fromEnvironment(localEnvironment(endpoint), List.of(), retries);
    }

    /** A local-engine client with extra interceptors (fault injection in tests). */
    public static DynamoDbClient local(URI endpoint, List<ExecutionInterceptor> extra) {
        return fromEnvironment(localEnvironment(endpoint), extra);
    }

    private static AwsCredentialsProvider credentials(Map<String, String> environment, boolean localEngine) {
        if (environment.containsKey("AWS_CONTAINER_CREDENTIALS_FULL_URI")) {
            // SnapStart restores supply credentials through the container endpoint, not the environment.
            return ContainerCredentialsProvider.builder().build();
        }
        String keyId = environment.get("AWS_ACCESS_KEY_ID");
        String secret = environment.get("AWS_SECRET_ACCESS_KEY");
        if (keyId != null && secret != null) {
            String session = environment.get("AWS_SESSION_TOKEN");
            return StaticCredentialsProvider.create(
                    session == null
                            ? AwsBasicCredentials.create(keyId, secret)
                            : AwsSessionCredentials.create(keyId, secret, session));
        }
        if (localEngine) {
            // A local engine checks that a signature is present, not whose it is.
            return StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"));
        }
        return DefaultCredentialsProvider.builder().build();
    }

    private static final class Holder {
        static final DynamoDbClient CLIENT = fromEnvironment(FunctionEnvironment.get());
    }

    private static final class JobHolder {
        static final DynamoDbClient CLIENT =
                fromEnvironment(FunctionEnvironment.get(), List.of(), Retries.of(CallPath.JOB));
    }
}
