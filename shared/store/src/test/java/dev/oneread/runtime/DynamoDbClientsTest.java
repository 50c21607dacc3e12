package dev.oneread.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.store.calls.QueryPool;
import java.net.URI;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

class DynamoDbClientsTest {

    @Test
    void local_shouldKeepAConnectionAliveForEveryQueryOfAFanOut_whenItBuildsAClient() {
        // GIVEN no pool size set for this JVM (the JDK would keep 5 idle connections a host)
        System.clearProperty("http.maxConnections");

        // WHEN a client is built (it sends nothing)
        try (DynamoDbClient client = DynamoDbClients.local(URI.create("http://localhost:1"))) {
            // THEN the JDK's keep-alive cache, which reads the property when it first connects, keeps them all
            assertThat(System.getProperty("http.maxConnections")).isEqualTo(Integer.toString(QueryPool.MAX_FAN_OUT));
        }
    }
}
