package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.ACME;
import static dev.oneread.operations.RequestFixtures.CONTEXT;
import static dev.oneread.operations.RequestFixtures.CREATED;
import static dev.oneread.operations.RequestFixtures.NOW;
import static dev.oneread.operations.RequestFixtures.PROJECT;
import static dev.oneread.operations.RequestFixtures.SHARDED;
import static dev.oneread.operations.RequestFixtures.TOKEN;
import static dev.oneread.operations.RequestFixtures.createPut;
import static dev.oneread.operations.RequestFixtures.ordered;
import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.model.Project;
import dev.oneread.model.ProjectStatus;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * {@link CreateProjectOperation}'s requests, built in full by hand and compared whole (moved from
 * ControlPlaneRequestsTest).
 */
class CreateProjectOperationTest {
    @Test
    void createProject_shouldPutConditionallySoItNeverOverwrites() {
        Project project = new Project(PROJECT, ACME, "Site", null, ProjectStatus.ACTIVE, NOW, NOW, 1);

        assertThat(CreateProjectOperation.generateRequest(CONTEXT, project, TOKEN))
                .isEqualTo(expectedProjectPut("WS#acme"));
    }

    @Test
    void createProject_shouldWriteIntoTheProjectsShard_whenTheWorkspaceIsSharded() {
        Project project = new Project(PROJECT, ACME, "Site", null, ProjectStatus.ACTIVE, NOW, NOW, 1);

        assertThat(CreateProjectOperation.generateRequest(SHARDED, project, TOKEN))
                .isEqualTo(expectedProjectPut("WS#acme#03"));
    }

    private static PutItemRequest expectedProjectPut(String partition) {
        return createPut(ordered(
                "EntityRef",
                AttributeValue.fromS(partition),
                "Detail",
                AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"),
                "name",
                AttributeValue.fromS("Site"),
                "status",
                AttributeValue.fromS("ACTIVE"),
                "GSI1PK", // listed by status across workspaces, in index shard crc32(id) mod 8 + 1
                AttributeValue.fromS("STATUS#ACTIVE#03"),
                "GSI1SK",
                AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"),
                CREATED));
    }
}
