package dev.oneread.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class KeyConditionTest {

    @Test
    void build_shouldProduceTheSeedQueryExactly() {
        Expression e = KeyCondition.partitionEquals("EntityRef", "WS#acme")
                .sortBeginsWith("Detail", "PROJ#")
                .build();

        assertThat(e.expression()).isEqualTo("#er = :er AND begins_with(#d, :p)");
        assertThat(e.names()).containsExactly(Map.entry("#er", "EntityRef"), Map.entry("#d", "Detail"));
        assertThat(e.values())
                .containsExactly(
                        Map.entry(":er", AttributeValue.fromS("WS#acme")),
                        Map.entry(":p", AttributeValue.fromS("PROJ#")));
    }

    @Test
    void build_shouldRenderEveryComparisonOperator() {
        KeyCondition pk = KeyCondition.partitionEquals("EntityRef", "WS#acme");

        assertThat(pk.build().expression()).isEqualTo("#er = :er");
        assertThat(pk.sortEquals("Detail", "META").build().expression()).isEqualTo("#er = :er AND #d = :d");
        assertThat(pk.sortLessThan("Detail", "P").build().expression()).isEqualTo("#er = :er AND #d < :d");
        assertThat(pk.sortLessThanOrEqualTo("Detail", "P").build().expression()).isEqualTo("#er = :er AND #d <= :d");
        assertThat(pk.sortGreaterThan("Detail", "P").build().expression()).isEqualTo("#er = :er AND #d > :d");
        assertThat(pk.sortGreaterThanOrEqualTo("Detail", "P").build().expression())
                .isEqualTo("#er = :er AND #d >= :d");
        Expression between = pk.sortBetween("Detail", "PROJ#0", "PROJ#9").build();
        assertThat(between.expression()).isEqualTo("#er = :er AND #d BETWEEN :lo AND :hi");
        assertThat(between.values())
                .containsEntry(":lo", AttributeValue.fromS("PROJ#0"))
                .containsEntry(":hi", AttributeValue.fromS("PROJ#9"));
    }

    @Test
    void build_shouldKeepPlaceholdersDistinct_whenAttributesShareInitials() {
        Expression e =
                KeyCondition.partitionEquals("pk", "a").sortEquals("PK", "b").build();

        assertThat(e.expression()).isEqualTo("#p = :p AND #p2 = :p2");
        assertThat(e.names()).containsExactly(Map.entry("#p", "pk"), Map.entry("#p2", "PK"));
    }

    @Test
    void builder_shouldFailFast_onMisuse() {
        KeyCondition pk = KeyCondition.partitionEquals("EntityRef", "WS#acme");

        assertThatThrownBy(() -> pk.sortEquals("Detail", "a").sortEquals("Detail", "b"))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> pk.sortEquals("EntityRef", "a")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KeyCondition.partitionEquals(" ", "a")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> pk.sortBeginsWith("Detail", null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void condition_shouldNameTheKeyAttribute() {
        Expression e = Condition.attributeNotExists("EntityRef").build();

        assertThat(e.expression()).isEqualTo("attribute_not_exists(#er)");
        assertThat(e.names()).containsExactly(Map.entry("#er", "EntityRef"));
        assertThat(e.valuesOrNull()).isNull();
    }
}
