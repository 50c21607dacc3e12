package dev.oneread.local.template;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.OnDemandThroughput;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * Creates the tables declared in template.yaml ({@code AWS::DynamoDB::Table}) on a local engine. The
 * template is the only place the schema is written: tests and the runner derive it from there, so a key or
 * index change cannot drift between AWS and local runs.
 *
 * <pre>{@code TemplateTables.from(template).createMissing(client, Map.of("Table", "oneread"));}</pre>
 */
public final class TemplateTables {
    private static final Duration ACTIVE_POLL = Duration.ofMillis(25);
    private static final Duration ACTIVE_TIMEOUT = Duration.ofSeconds(10);
    private final TemplateValues values;
    private final Map<String, Map<String, Object>> tables;

    private TemplateTables(SamTemplate template, TemplateValues values) {
        this.values = values;
        this.tables = template.resourcesOfType("AWS::DynamoDB::Table");
    }

    /** The tables of a stack deployed with every parameter at its default. */
    public static TemplateTables from(SamTemplate template) {
        return new TemplateTables(template, TemplateValues.defaults(template));
    }

    /** The tables of a run with these parameters (the template's defaults under them). */
    public static TemplateTables from(SamTemplate template, Map<String, String> parameters) {
        return new TemplateTables(template, TemplateValues.of(template, parameters));
    }

    /** Logical ids of the declared tables, in template order. */
    public List<String> logicalIds() {
        return List.copyOf(tables.keySet());
    }

    /** The CreateTable request for one declared table, under the given physical name. */
    public CreateTableRequest createRequest(String logicalId, String tableName) {
        Map<String, Object> properties = SamTemplate.map(tables.get(logicalId).get("Properties"));
        List<AttributeDefinition> attributes = new ArrayList<>();
        for (Object a : SamTemplate.list(properties.get("AttributeDefinitions"))) {
            Map<String, Object> definition = SamTemplate.map(a);
            attributes.add(AttributeDefinition.builder()
                    .attributeName((String) definition.get("AttributeName"))
                    .attributeType((String) definition.get("AttributeType"))
                    .build());
        }
        List<GlobalSecondaryIndex> indexes = new ArrayList<>();
        for (Object i : SamTemplate.list(properties.get("GlobalSecondaryIndexes"))) {
            Map<String, Object> index = SamTemplate.map(i);
            Map<String, Object> projection = SamTemplate.map(index.get("Projection"));
            indexes.add(GlobalSecondaryIndex.builder()
                    .indexName((String) index.get("IndexName"))
                    .keySchema(keySchema(index.get("KeySchema")))
                    .projection(Projection.builder()
                            .projectionType((String) projection.getOrDefault("ProjectionType", "ALL"))
                            .nonKeyAttributes(nonKeyAttributes(projection))
                            .build())
                    // An index's own caps (a GSI's OnDemandThroughput), which the local engine enforces too
                    .onDemandThroughput(onDemandThroughput(index))
                    .build());
        }
        return CreateTableRequest.builder()
                .tableName(tableName)
                .attributeDefinitions(attributes)
                .keySchema(keySchema(properties.get("KeySchema")))
                .billingMode(BillingMode.fromValue((String) properties.getOrDefault("BillingMode", "PAY_PER_REQUEST")))
                .globalSecondaryIndexes(indexes.isEmpty() ? null : indexes)
                .onDemandThroughput(onDemandThroughput(properties))
                .build();
    }

    /**
     * The caps of a table, or of one of its indexes, with the run's parameters (TableMaxReadRequestUnits, ...), so
     * that the local engine, which enforces them, throttles where a stack deployed with those parameters would; null
     * for no cap.
     */
    private OnDemandThroughput onDemandThroughput(Map<String, Object> properties) {
        Map<String, Object> caps = SamTemplate.map(values.resolve(properties.get("OnDemandThroughput")));
        Long read = units(caps.get("MaxReadRequestUnits"));
        Long write = units(caps.get("MaxWriteRequestUnits"));
        return read == null && write == null
                ? null
                : OnDemandThroughput.builder()
                        .maxReadRequestUnits(read)
                        .maxWriteRequestUnits(write)
                        .build();
    }

    private static Long units(Object value) {
        return value == null ? null : Long.valueOf(String.valueOf(value));
    }

    /**
     * Creates each table that does not exist yet and waits until it is ACTIVE (DynamoDB's own waiter, polling
     * every 25 ms: a local engine is quick, and the SDK's default 20 s between attempts is made for AWS).
     *
     * @return the logical ids of the tables this call created: a caller may fill only what is new
     */
    public List<String> createMissing(DynamoDbClient client, Map<String, String> physicalNames) {
        List<String> created = new ArrayList<>();
        for (String logicalId : tables.keySet()) {
            String name = physicalNames.get(logicalId);
            if (name == null) {
                throw new IllegalArgumentException("no table name given for " + logicalId);
            }
            if (!exists(client, name)) {
                try {
                    client.createTable(createRequest(logicalId, name));
                    created.add(logicalId);
                } catch (ResourceInUseException createdMeanwhile) {
                    // another runner created it between our check and our create: it exists, as wanted
                }
            }
            client.waiter()
                    .waitUntilTableExists(
                            b -> b.tableName(name),
                            wait -> wait.backoffStrategyV2(BackoffStrategy.fixedDelayWithoutJitter(ACTIVE_POLL))
                                    .waitTimeout(ACTIVE_TIMEOUT));
        }
        return created;
    }

    private static boolean exists(DynamoDbClient client, String name) {
        try {
            client.describeTable(b -> b.tableName(name));
            return true;
        } catch (ResourceNotFoundException e) {
            return false;
        }
    }

    private static List<KeySchemaElement> keySchema(Object value) {
        List<KeySchemaElement> out = new ArrayList<>();
        for (Object k : SamTemplate.list(value)) {
            Map<String, Object> element = SamTemplate.map(k);
            out.add(KeySchemaElement.builder()
                    .attributeName((String) element.get("AttributeName"))
                    .keyType((String) element.get("KeyType"))
                    .build());
        }
        return out;
    }

    private static List<String> nonKeyAttributes(Map<String, Object> projection) {
        List<String> out = new ArrayList<>();
        SamTemplate.list(projection.get("NonKeyAttributes")).forEach(a -> out.add((String) a));
        return out.isEmpty() ? null : out;
    }
}
