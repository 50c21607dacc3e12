package dev.oneread.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class UpdateTest {

    @Test
    void build_shouldShareOnePlaceholderSetBetweenUpdateAndCondition() {
        UpdateExpression u = Update.set("name", AttributeValue.fromS("New"))
                .andSet("updatedAt", AttributeValue.fromS("2026-12-02T12:00:00Z"))
                .increment("version")
                .remove("description")
                .when(Condition.attributeExists("EntityRef")
                        .and(Condition.equalTo("version", AttributeValue.fromN("3"))))
                .build();

        assertThat(u.update()).isEqualTo("SET #n = :n, #ua = :ua, #v = #v + :one REMOVE #d");
        assertThat(u.condition()).isEqualTo("attribute_exists(#er) AND #v = :v");
        assertThat(u.names())
                .containsExactly(
                        Map.entry("#n", "name"),
                        Map.entry("#ua", "updatedAt"),
                        Map.entry("#v", "version"),
                        Map.entry("#d", "description"),
                        Map.entry("#er", "EntityRef"));
        assertThat(u.values())
                .containsExactly(
                        Map.entry(":n", AttributeValue.fromS("New")),
                        Map.entry(":ua", AttributeValue.fromS("2026-12-02T12:00:00Z")),
                        Map.entry(":one", AttributeValue.fromN("1")),
                        Map.entry(":v", AttributeValue.fromN("3")));
    }

    @Test
    void or_shouldBeParenthesised() {
        Expression e = Condition.attributeNotExists("EntityRef")
                .or(Condition.lessThan("expiresAt", AttributeValue.fromN("100")))
                .build();

        assertThat(e.expression()).isEqualTo("(attribute_not_exists(#er) OR #ea < :ea)");
    }

    @Test
    void builder_shouldRejectAnAttributeUpdatedTwice() {
        assertThatThrownBy(() -> Update.set("name", AttributeValue.fromS("a")).remove("name"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void andSetIfAbsent_shouldKeepAnExistingValue() {
        UpdateExpression u = Update.set("status", AttributeValue.fromS("INPROGRESS"))
                .andSetIfAbsent("reservedId", AttributeValue.fromS("01J"))
                .build();

        assertThat(u.update()).isEqualTo("SET #s = :s, #ri = if_not_exists(#ri, :ri)");
        assertThat(u.names()).containsExactly(Map.entry("#s", "status"), Map.entry("#ri", "reservedId"));
        assertThat(u.values())
                .containsExactly(
                        Map.entry(":s", AttributeValue.fromS("INPROGRESS")),
                        Map.entry(":ri", AttributeValue.fromS("01J")));
    }
}
