package dev.oneread.expr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class ReadExpressionsTest {

    @Test
    void query_shouldShareOnePlaceholderSet_betweenKeyConditionFilterAndProjection() {
        // GIVEN a key condition, two filters and a projection naming the filtered attribute again
        KeyCondition key = KeyCondition.partitionEquals("EntityRef", "WS#acme");
        List<Condition> filters = List.of(
                Condition.equalTo("status", AttributeValue.fromS("ACTIVE")),
                Condition.beginsWith("name", AttributeValue.fromS("a")));

        // WHEN rendered
        ReadExpressions r = ReadExpressions.query(key, filters, List.of("name", "status"));

        // THEN one name per attribute, reused by the projection, and values that never collide
        assertThat(r.keyCondition()).isEqualTo("#er = :er");
        assertThat(r.filter()).isEqualTo("#s = :s AND begins_with(#n, :n)");
        assertThat(r.projection()).isEqualTo("#n, #s");
        assertThat(r.names())
                .containsExactly(Map.entry("#er", "EntityRef"), Map.entry("#s", "status"), Map.entry("#n", "name"));
        assertThat(r.values()).containsOnlyKeys(":er", ":s", ":n");
    }

    @Test
    void scan_shouldLeaveOutWhatIsNotGiven() {
        ReadExpressions none = ReadExpressions.scan(List.of(), List.of());
        assertThat(none.filter()).isNull();
        assertThat(none.projection()).isNull();
        assertThat(none.names()).isNull();
        assertThat(none.values()).isNull();

        ReadExpressions projected = ReadExpressions.scan(List.of(), List.of("version"));
        assertThat(projected.projection()).isEqualTo("#v");
        assertThat(projected.values()).isNull();
    }

    @Test
    void filters_shouldRenderEveryOperatorInDynamoDbsWords() {
        AttributeValue one = AttributeValue.fromN("1");
        assertThat(render(Condition.notEqualTo("version", one))).isEqualTo("#v <> :v");
        assertThat(render(Condition.lessThanOrEqualTo("version", one))).isEqualTo("#v <= :v");
        assertThat(render(Condition.greaterThan("version", one))).isEqualTo("#v > :v");
        assertThat(render(Condition.greaterThanOrEqualTo("version", one))).isEqualTo("#v >= :v");
        assertThat(render(Condition.contains("name", AttributeValue.fromS("x"))))
                .isEqualTo("contains(#n, :n)");
        assertThat(render(Condition.attributeNotExists("description"))).isEqualTo("attribute_not_exists(#d)");
    }

    private static String render(Condition condition) {
        return ReadExpressions.scan(List.of(condition), List.of()).filter();
    }
}
