package dev.oneread.tests.support;

import dev.oneread.keys.KeyCodec;
import java.net.URI;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;

/**
 * A DynamoDB client as a developer builds one against the local engine (or as the aws CLI and the console's snippets
 * sign: key {@code local}), not oneread's own: its writes are another client's, as the engine and the console see
 * them. Retries off: the first throttle is the answer.
 */
public final class OtherClient {
    /** The engine's partition limits {@link #hotKey} counts on: 5 write units a second per partition. */
    public static final double HOT_KEY_SCALE = 0.005;

    /** Its item's size, and each refused write's: the most a DynamoDB item may be, in whole write units. */
    private static final int ACCEPTED_KIB = 100;

    private static final int REFUSED_KIB = 390;
    private static final int KIB = 1024;

    private OtherClient() {}

    /**
     * A hot key, deterministically, on an engine whose partitions take 5 write units a second ({@link
     * #HOT_KEY_SCALE}): one
     * write of 100 units takes the partition 95 units (19 seconds) into debt, so each of the {@code refused} writes
     * of 390 units that follow is throttled, whatever the machine's speed. Returns how many were throttled.
     */
    public static int hotKey(DynamoDbClient client, String table, String partition, int refused) {
        client.putItem(b -> b.tableName(table).item(item(partition, "HOT#0", ACCEPTED_KIB)));
        int throttled = 0;
        for (int i = 1; i <= refused; i++) {
            String sort = "HOT#" + i;
            try {
                client.putItem(b -> b.tableName(table).item(item(partition, sort, REFUSED_KIB)));
            } catch (ProvisionedThroughputExceededException e) {
                throttled++;
            }
        }
        return throttled;
    }

    private static Map<String, AttributeValue> item(String partition, String sort, int kib) {
        return Map.of(
                KeyCodec.PARTITION_KEY,
                AttributeValue.fromS(partition),
                KeyCodec.SORT_KEY,
                AttributeValue.fromS(sort),
                "blob",
                AttributeValue.fromS("x".repeat(kib * KIB - 100)));
    }

    public static DynamoDbClient at(URI endpoint) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
    }
}
