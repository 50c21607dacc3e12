package dev.oneread.store.purge;

import static dev.oneread.operations.RequestFixtures.ordered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.WorkspaceId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

class PurgeRequestsTest {
    private final PurgeRequests requests = new PurgeRequests("oneread");

    @Test
    void sweepPage_shouldReadAWholePartitionFromItsStart_stronglyConsistent() {
        QueryRequest expected = QueryRequest.builder()
                .tableName("oneread")
                .keyConditionExpression("#er = :er")
                .expressionAttributeNames(Map.of("#er", "EntityRef"))
                .expressionAttributeValues(Map.of(":er", AttributeValue.fromS("WS#acme#03")))
                .scanIndexForward(true)
                .limit(250)
                .consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        assertThat(requests.sweepPage("WS#acme#03")).isEqualTo(expected);
    }

    @Test
    void deleteAll_shouldDeleteUpTo25Keys_inOneBatch() {
        List<PrimaryKey> keys = List.of(new PrimaryKey("WS#acme", "PROJ#A"), new PrimaryKey("WS#acme", "IDEM#b"));
        List<WriteRequest> deletes = new ArrayList<>();
        keys.forEach(key -> deletes.add(WriteRequest.builder()
                .deleteRequest(DeleteRequest.builder()
                        .key(ordered(
                                "EntityRef",
                                AttributeValue.fromS(key.partition()),
                                "Detail",
                                AttributeValue.fromS(key.sort())))
                        .build())
                .build()));
        BatchWriteItemRequest expected = BatchWriteItemRequest.builder()
                .requestItems(Map.of("oneread", deletes))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        assertThat(requests.deleteAll(keys)).isEqualTo(expected);
        assertThatThrownBy(() -> requests.deleteAll(Collections.nCopies(26, keys.get(0))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void deleteWorkspace_shouldDeleteTheItemLast_onlyIfItIsStillThisPurges() {
        DeleteItemRequest expected = DeleteItemRequest.builder()
                .tableName("oneread")
                .key(ordered("EntityRef", AttributeValue.fromS("WS#acme"), "Detail", AttributeValue.fromS("META")))
                .conditionExpression("#pr = :pr")
                .expressionAttributeNames(Map.of("#pr", "purgeRun"))
                .expressionAttributeValues(Map.of(":pr", AttributeValue.fromS("01JDQ6V7K4N3M2P1R0S9T8V7Z0")))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        assertThat(requests.deleteWorkspace(WorkspaceId.of("acme"), "01JDQ6V7K4N3M2P1R0S9T8V7Z0"))
                .isEqualTo(expected);
    }
}
