package dev.oneread.tests.engine;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.OnDemandThroughput;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The engine tests' table of their own: key {@code pk}, {@code sk} (strings); a global secondary index
 * {@value #INDEX} on {@code g}, {@code sk}, projecting all; on-demand, with the caps given or none.
 *
 * <pre>{@code String table = GroupedTables.create(client, "partiql-1", null, null);}</pre>
 */
final class GroupedTables {
    static final String INDEX = "byGroup";

    private GroupedTables() {}

    /** Creates the table {@code name}; {@code caps} and {@code indexCaps} are its and its index's, or null. */
    static String create(DynamoDbClient client, String name, OnDemandThroughput caps, OnDemandThroughput indexCaps) {
        client.createTable(b -> {
            b.tableName(name)
                    .billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(attribute("pk"), attribute("sk"), attribute("g"))
                    .keySchema(keyElement("pk", KeyType.HASH), keyElement("sk", KeyType.RANGE))
                    .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
                            .indexName(INDEX)
                            .keySchema(keyElement("g", KeyType.HASH), keyElement("sk", KeyType.RANGE))
                            .projection(Projection.builder()
                                    .projectionType(ProjectionType.ALL)
                                    .build())
                            .onDemandThroughput(indexCaps)
                            .build());
            if (caps != null) {
                b.onDemandThroughput(caps);
            }
        });
        return name;
    }

    /** A string key attribute's definition. */
    static AttributeDefinition attribute(String name) {
        return AttributeDefinition.builder()
                .attributeName(name)
                .attributeType(ScalarAttributeType.S)
                .build();
    }

    static KeySchemaElement keyElement(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
