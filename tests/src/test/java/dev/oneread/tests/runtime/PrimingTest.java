package dev.oneread.tests.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.function.HttpApiFunction;
import dev.oneread.http.ApiRequest;
import dev.oneread.http.HttpResponse;
import dev.oneread.http.Representations;
import dev.oneread.json.Json;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.runner.LocalQueues;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.model.ListPosition;
import dev.oneread.model.Page;
import dev.oneread.model.Project;
import dev.oneread.priming.PrimingRequest;
import dev.oneread.priming.PrimingSamples;
import dev.oneread.priming.PrimingSuccess;
import dev.oneread.priming.SampleStore;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.TestEngine;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/**
 * SnapStart priming: every route's function sends itself its priming request through the whole path (parsing,
 * authorization, the store, DynamoDB, the problem mapping), and changes nothing: reads name a workspace that does
 * not exist, writes carry a version no item has, and the two creates are refused by validation.
 */
class PrimingTest {
    @Test
    void everyRoute_shouldPrimeItsRealPath_andChangeNoData() {
        Api api = new Api(
                dev.oneread.keys.ShardPlan.none(),
                "priming-" + java.util.UUID.randomUUID().toString().substring(0, 8));
        api.createWorkspace("acme", "Acme");
        api.createProject("acme", "{\"name\":\"kept\"}");
        SamTemplate template = SamTemplate.load(TestEngine.get().root.resolve("template.yaml"));
        try (LocalQueues queues = LocalQueues.start(template, "priming", Duration.ofSeconds(30))) {
            api.withJobQueue(queues.client(), queues.url("JobQueue"), Duration.ofSeconds(12));
            List<Map<String, AttributeValue>> before = scan(api);
            // WHEN every function primes itself, twice (a second publish, a second load)
            Map<String, Integer> statuses = new TreeMap<>();
            for (int round = 0; round < 2; round++) {
                api.handlers.forEach((name, handler) -> statuses.put(name, ((HttpApiFunction) handler).prime()));
            }
            // THEN each went through its route to the answer a missing workspace, a version no item has, or a
            // refused body gets, and the operators' listings answered
            assertThat(statuses)
                    .containsEntry("GetWorkspace", 404)
                    .containsEntry("GetProject", 404)
                    .containsEntry("ListProjects", 200) // an empty page
                    .containsEntry("GetWorkspaceCollection", 404)
                    .containsEntry("UpdateWorkspace", 404)
                    .containsEntry("UpdateProject", 404)
                    .containsEntry("DeleteProject", 404)
                    .containsEntry("DeleteWorkspace", 404)
                    .containsEntry("CreateWorkspace", 400)
                    .containsEntry("CreateProject", 400)
                    .containsEntry("ListProjectsByStatus", 200)
                    .containsEntry("ListWorkspaces", 200)
                    .containsEntry("GetHotTenantReport", 200)
                    .hasSize(13);
            // AND no item of the table changed, and none was written for the priming workspace
            assertThat(scan(api)).isEqualTo(before);
            assertThat(scan(api)).noneMatch(item -> item.get("EntityRef").s().contains(PrimingRequest.WORKSPACE));
        }
    }

    @Test
    void primingSamples_shouldBeReadAsStored_throughTheWholeReadPath_withNothingSent() {
        // GIVEN a store on a table that does not exist: a call that reached the engine would fail
        ControlPlaneStore store = new ControlPlaneStore(TestEngine.get().client, "no-such-table");
        WorkspaceId workspace = PrimingSamples.WORKSPACE.id();

        // WHEN the samples that GetWorkspace's, GetProject's and ListProjects' priming reads go through the store's
        // own reads, on clients that answer with them as DynamoDB would had they been stored
        try (SampleStore workspaces = SampleStore.of(store, PrimingSamples.WORKSPACE);
                SampleStore projects = SampleStore.of(store, PrimingSamples.PROJECT)) {
            CallTally tally = new CallTally();
            // THEN each read returns its sample, every field parsed (a number in the settings comes back as
            // DynamoDB's number, the same JSON)
            assertThat(Json.write(Representations.workspace(workspaces.store().getWorkspace(workspace, tally))))
                    .isEqualTo(Json.write(Representations.workspace(PrimingSamples.WORKSPACE)))
                    .contains("\"limits\":{\"projects\":100}");
            assertThat(projects.store().getProject(workspace, PrimingSamples.PROJECT.id(), tally))
                    .isEqualTo(PrimingSamples.PROJECT);
            // AND ListProjects' page has the sample and a next position after it, which priming seals into a cursor
            Page<Project> page = projects.store().listProjects(workspace, 20, Optional.empty(), tally);
            assertThat(page.items()).containsExactly(PrimingSamples.PROJECT);
            assertThat(page.next()).hasValue(ListPosition.after(KeyCodec.projectSortKey(PrimingSamples.PROJECT.id())));
            // AND each was one call through the SDK and the audit, billed as DynamoDB bills a small read: 0.5, a
            // fraction, which the SDK parses as DynamoDB sends it
            assertThat(tally.operations()).containsExactly("GetItem", "GetItem", "Query");
            assertThat(tally.capacity()).isEqualByComparingTo("1.5");
        }
    }

    @Test
    void prime_shouldReportTheFramesStatus_andZeroWhenTheSuccessPathFails() {
        // GIVEN functions whose priming request is answered 404, and whose success path answers 200 or 500
        HttpApiFunction succeeding = primingFunction(200);
        HttpApiFunction failing = primingFunction(500);
        // WHEN each primes itself
        // THEN priming reports the status the frame returned for its request, unless its success path failed
        assertThat(succeeding.prime()).isEqualTo(404);
        assertThat(failing.prime()).isZero();
    }

    /** A function that answers its priming request 404, and its success path {@code successStatus}. */
    private static HttpApiFunction primingFunction(int successStatus) {
        ControlPlaneStore store = new ControlPlaneStore(TestEngine.get().client, "no-such-table");
        return new HttpApiFunction(new FunctionConfig("Priming", "no-such-table", false, null)) {
            @Override
            protected HttpResponse handle(ApiRequest request, CallTally tally) {
                return HttpResponse.json(404, Map.of("title", "Not Found"));
            }

            @Override
            protected Optional<PrimingRequest> primingRequest() {
                return Optional.of(PrimingRequest.tenant("GET", "/workspaces/{workspaceId}"));
            }

            @Override
            protected Optional<PrimingSuccess> primingSuccess() {
                return Optional.of(new PrimingSuccess(
                        SampleStore.of(store, PrimingSamples.WORKSPACE),
                        (request, tally) -> HttpResponse.json(successStatus, Map.of())));
            }
        };
    }

    private static List<Map<String, AttributeValue>> scan(Api api) {
        return TestEngine.get()
                .client
                .scan(ScanRequest.builder()
                        .tableName(api.table)
                        .consistentRead(true)
                        .build())
                .items();
    }
}
