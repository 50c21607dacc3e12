package dev.oneread.runtime;

import dev.oneread.store.calls.QueryPool;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.ContainerCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.client.builder.SdkSyncClientBuilder;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;

/**
 * What every AWS client of a function shares, whichever its service: the region, credentials and endpoint of its
 * environment, on the URLConnection HTTP client. {@link DynamoDbClients} builds DynamoDB's on it; SQS's and Secrets
 * Manager's are built in their own modules (jobs, secrets) on it, so that a function's zip carries only the service
 * clients its function builds.
 *
 * <pre>{@code SqsClient sqs = AwsClients.build(SqsClient.builder(), environment, "SQS_ENDPOINT");}</pre>
 */
public final class AwsClients {
    private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

    private AwsClients() {}

    /**
     * A client of another AWS service, configured as DynamoDB's is: the region, credentials and URLConnection
     * client of {@code environment}, standard retries, the same timeouts, and {@code endpointVariable}'s endpoint
     * when it is set (a local stand-in).
     */
    public static <B extends AwsClientBuilder<B, C> & SdkSyncClientBuilder<B, C>, C> C build(
            B builder, Map<String, String> environment, String endpointVariable) {
        return located(builder.httpClient(urlConnectionClient()), environment, endpointVariable)
                .overrideConfiguration(o -> o.retryStrategy(RetryMode.STANDARD)
                        .apiCallAttemptTimeout(ATTEMPT_TIMEOUT)
                        .apiCallTimeout(CALL_TIMEOUT))
                .build();
    }

    /**
     * {@code builder} in the region of {@code environment}, with its credentials, and pointed at
     * {@code endpointVariable}'s endpoint when that is set (a local stand-in; unset on Lambda).
     */
    static <B extends AwsClientBuilder<B, ?>> B located(
            B builder, Map<String, String> environment, String endpointVariable) {
        String endpoint = environment.get(endpointVariable);
        boolean local = endpoint != null && !endpoint.isBlank();
        builder.region(Region.of(environment.getOrDefault("AWS_REGION", "us-east-1")))
                .credentialsProvider(credentials(environment, local));
        if (local) {
            builder.endpointOverride(URI.create(endpoint));
        }
        return builder;
    }

    /**
     * The HTTP client of every client that sends, whichever its service. The fan-out runs up to
     * {@link QueryPool#MAX_FAN_OUT} queries at once, and the JDK keeps only 5 idle connections to a host by default
     * (its KeepAliveCache): the other queries of every page would open new connections. The URLConnection client's builder has no pool size
     * (only timeouts, TLS and proxy), and the JDK reads {@code http.maxConnections} once, when its HTTP client
     * first connects, so it is set here, before the first client built here can connect, rather than as a
     * side effect of loading the class. A value the operator set ({@code -Dhttp.maxConnections}) wins.
     */
    static SdkHttpClient urlConnectionClient() {
        if (System.getProperty("http.maxConnections") == null) {
            System.setProperty("http.maxConnections", Integer.toString(QueryPool.MAX_FAN_OUT));
        }
        return UrlConnectionHttpClient.create();
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
}
