package dev.oneread.tests.iam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.oneread.local.iam.Decision;
import dev.oneread.local.iam.IamRequest;
import dev.oneread.local.iam.Policy;
import dev.oneread.local.iam.PolicyValues;
import dev.oneread.local.iam.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The local IAM's evaluation, case by case, as the IAM User Guide documents it ("Policy evaluation logic", "IAM JSON
 * policy elements", "Multivalued context keys") and DynamoDB's fine-grained access control uses it.
 */
class PolicyEvaluationTest {
    private static final String TABLE = PolicyValues.tableArn("oneread");
    private static final String LEADING_KEYS = "dynamodb:LeadingKeys";

    private static Statement statement(Map<String, Object> json) {
        return Statement.parse("test statement", json);
    }

    /** One statement on the table under one condition. */
    private static Statement onTable(String effect, Object action, String operator, String key, Object values) {
        return statement(Map.of(
                "Effect",
                effect,
                "Action",
                action,
                "Resource",
                TABLE,
                "Condition",
                Map.of(operator, Map.of(key, values))));
    }

    private static IamRequest call(String action, String resource, String... leadingKeys) {
        return new IamRequest(action, resource, Map.of(LEADING_KEYS, List.of(leadingKeys)));
    }

    @Test
    void explicitDeny_shouldWinOverAnAllowOfTheSameCall() {
        // GIVEN an Allow of every DynamoDB action on the table and a Deny of DeleteItem on it
        Policy policy = new Policy(List.of(
                statement(Map.of("Effect", "Allow", "Action", "dynamodb:*", "Resource", TABLE)),
                statement(Map.of("Effect", "Deny", "Action", "dynamodb:DeleteItem", "Resource", TABLE))));
        // THEN DeleteItem is explicitly denied, GetItem allowed
        assertThat(policy.evaluate(call("dynamodb:DeleteItem", TABLE, "WS#a"))).isEqualTo(Decision.EXPLICIT_DENY);
        assertThat(policy.evaluate(call("dynamodb:GetItem", TABLE, "WS#a"))).isEqualTo(Decision.ALLOW);
    }

    @Test
    void noStatementThatApplies_shouldBeAnImplicitDeny() {
        Policy policy = new Policy(
                List.of(statement(Map.of("Effect", "Allow", "Action", "dynamodb:GetItem", "Resource", TABLE))));
        assertThat(policy.evaluate(call("dynamodb:PutItem", TABLE, "WS#a"))).isEqualTo(Decision.IMPLICIT_DENY);
        assertThat(new Policy(List.of()).evaluate(call("dynamodb:GetItem", TABLE)))
                .isEqualTo(Decision.IMPLICIT_DENY);
    }

    @Test
    void actionWildcards_shouldMatchAnyRunAndOneCharacter_withoutCase() {
        Policy getStar =
                new Policy(List.of(statement(Map.of("Effect", "Allow", "Action", "dynamodb:Get*", "Resource", TABLE))));
        assertThat(getStar.evaluate(call("dynamodb:GetItem", TABLE))).isEqualTo(Decision.ALLOW);
        // action names compare without case (IAM JSON policy elements: Action)
        assertThat(getStar.evaluate(call("DynamoDB:getitem", TABLE))).isEqualTo(Decision.ALLOW);
        assertThat(getStar.evaluate(call("dynamodb:BatchGetItem", TABLE))).isEqualTo(Decision.IMPLICIT_DENY);
        Policy oneCharacter = new Policy(
                List.of(statement(Map.of("Effect", "Allow", "Action", "dynamodb:?etItem", "Resource", TABLE))));
        assertThat(oneCharacter.evaluate(call("dynamodb:GetItem", TABLE))).isEqualTo(Decision.ALLOW);
        assertThat(oneCharacter.evaluate(call("dynamodb:PutItem", TABLE))).isEqualTo(Decision.IMPLICIT_DENY);
        assertThat(oneCharacter.evaluate(call("dynamodb:BatchGetItem", TABLE))).isEqualTo(Decision.IMPLICIT_DENY);
    }

    @Test
    void indexResources_shouldNeedTheIndexArn_whichTheTableArnDoesNotCover() {
        Policy onIndexes = new Policy(List.of(
                statement(Map.of("Effect", "Allow", "Action", "dynamodb:Query", "Resource", TABLE + "/index/*"))));
        Policy onTable = new Policy(
                List.of(statement(Map.of("Effect", "Allow", "Action", "dynamodb:Query", "Resource", TABLE))));
        assertThat(onIndexes.evaluate(call("dynamodb:Query", TABLE + "/index/GSI1")))
                .isEqualTo(Decision.ALLOW);
        assertThat(onIndexes.evaluate(call("dynamodb:Query", TABLE))).isEqualTo(Decision.IMPLICIT_DENY);
        assertThat(onTable.evaluate(call("dynamodb:Query", TABLE + "/index/GSI1")))
                .isEqualTo(Decision.IMPLICIT_DENY);
        // resources compare with case
        assertThat(onTable.evaluate(call("dynamodb:Query", TABLE.toUpperCase(java.util.Locale.ROOT))))
                .isEqualTo(Decision.IMPLICIT_DENY);
    }

    @Test
    void leadingKeysForAllValuesStringLike_shouldAllowOnlyWhenEveryKeyMatches() {
        // GIVEN the template's shape: writes in workspace collections only
        Policy policy = new Policy(List.of(onTable(
                "Allow",
                List.of("dynamodb:PutItem", "dynamodb:BatchWriteItem"),
                "ForAllValues:StringLike",
                LEADING_KEYS,
                List.of("WS#*"))));
        assertThat(policy.evaluate(call("dynamodb:PutItem", TABLE, "WS#acme"))).isEqualTo(Decision.ALLOW);
        assertThat(policy.evaluate(call("dynamodb:PutItem", TABLE, "REPORT#hot-tenants")))
                .isEqualTo(Decision.IMPLICIT_DENY);
        // a batch: every key must match, one outside is enough to refuse all
        assertThat(policy.evaluate(call("dynamodb:BatchWriteItem", TABLE, "WS#a", "WS#b")))
                .isEqualTo(Decision.ALLOW);
        assertThat(policy.evaluate(call("dynamodb:BatchWriteItem", TABLE, "WS#a", "WSREG#01")))
                .isEqualTo(Decision.IMPLICIT_DENY);
        // the documented trap: ForAllValues over no value at all holds (a Scan names no partition key)
        assertThat(policy.evaluate(new IamRequest("dynamodb:PutItem", TABLE, Map.of())))
                .isEqualTo(Decision.ALLOW);
    }

    @Test
    void leadingKeysForAllValuesStringEquals_shouldCompareWholeValues() {
        Policy policy = new Policy(List.of(
                onTable("Allow", "dynamodb:Query", "ForAllValues:StringEquals", LEADING_KEYS, "REPORT#hot-tenants")));
        assertThat(policy.evaluate(call("dynamodb:Query", TABLE, "REPORT#hot-tenants")))
                .isEqualTo(Decision.ALLOW);
        assertThat(policy.evaluate(call("dynamodb:Query", TABLE, "REPORT#hot-tenants*")))
                .isEqualTo(Decision.IMPLICIT_DENY);
        assertThat(policy.evaluate(call("dynamodb:Query", TABLE, "report#hot-tenants")))
                .isEqualTo(Decision.IMPLICIT_DENY);
    }

    @Test
    void stringEquals_shouldNeedTheKey_andStringNotEqualsHoldWithoutIt() {
        Policy equals = new Policy(List.of(
                onTable("Allow", "dynamodb:GetItem", "StringEquals", "dynamodb:Select", "SPECIFIC_ATTRIBUTES")));
        IamRequest selecting =
                new IamRequest("dynamodb:GetItem", TABLE, Map.of("dynamodb:Select", List.of("SPECIFIC_ATTRIBUTES")));
        assertThat(equals.evaluate(selecting)).isEqualTo(Decision.ALLOW);
        assertThat(equals.evaluate(new IamRequest("dynamodb:GetItem", TABLE, Map.of())))
                .isEqualTo(Decision.IMPLICIT_DENY);
        // condition key names compare without case
        assertThat(equals.evaluate(new IamRequest(
                        "dynamodb:GetItem", TABLE, Map.of("DynamoDB:select", List.of("SPECIFIC_ATTRIBUTES")))))
                .isEqualTo(Decision.ALLOW);
        Policy notEquals = new Policy(List.of(
                onTable("Deny", "dynamodb:GetItem", "StringNotEquals", "dynamodb:Select", "SPECIFIC_ATTRIBUTES")));
        assertThat(notEquals.evaluate(new IamRequest("dynamodb:GetItem", TABLE, Map.of())))
                .isEqualTo(Decision.EXPLICIT_DENY);
    }

    @Test
    void notAction_shouldApplyToEveryActionItDoesNotList() {
        // GIVEN a Deny of everything but reads, over an Allow of everything
        Policy policy = new Policy(List.of(
                statement(Map.of("Effect", "Allow", "Action", "dynamodb:*", "Resource", "*")),
                statement(Map.of(
                        "Effect",
                        "Deny",
                        "NotAction",
                        List.of("dynamodb:GetItem", "dynamodb:Query"),
                        "Resource",
                        TABLE))));
        assertThat(policy.evaluate(call("dynamodb:GetItem", TABLE))).isEqualTo(Decision.ALLOW);
        assertThat(policy.evaluate(call("dynamodb:PutItem", TABLE))).isEqualTo(Decision.EXPLICIT_DENY);
        // NotResource too: the Deny does not reach another table
        Policy elsewhere = new Policy(List.of(
                statement(Map.of("Effect", "Allow", "Action", "dynamodb:*", "Resource", "*")),
                statement(Map.of("Effect", "Deny", "Action", "dynamodb:*", "NotResource", TABLE))));
        assertThat(elsewhere.evaluate(call("dynamodb:GetItem", TABLE))).isEqualTo(Decision.ALLOW);
        assertThat(elsewhere.evaluate(call("dynamodb:GetItem", PolicyValues.tableArn("other"))))
                .isEqualTo(Decision.EXPLICIT_DENY);
    }

    @Test
    void aConditionOperatorItCannotEvaluate_shouldBeRefusedWhenThePolicyIsRead() {
        // never silently true or false: a policy with an operator the local IAM does not know is an error
        assertThatThrownBy(() -> onTable(
                        "Allow", "dynamodb:GetItem", "DateGreaterThan", "aws:CurrentTime", "2026-01-01T00:00:00Z"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("DateGreaterThan");
    }
}
