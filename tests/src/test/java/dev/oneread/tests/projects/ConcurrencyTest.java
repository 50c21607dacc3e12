package dev.oneread.tests.projects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Partitions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Races against the real engine: concurrent creates, one Idempotency-Key from 50 clients, racing PATCHes. */
class ConcurrencyTest {
    private final Api api = new Api();
    private final ExecutorService pool = Executors.newFixedThreadPool(16);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private <T> List<T> all(List<Callable<T>> tasks) throws Exception {
        List<T> results = new ArrayList<>();
        for (Future<T> f : pool.invokeAll(tasks)) {
            results.add(f.get());
        }
        return results;
    }

    @Test
    void concurrentCreates_shouldGive200DistinctProjects_allListed() throws Exception {
        // GIVEN
        String ws = Api.freshWorkspaceId("race");
        api.createWorkspace(ws, "Race");
        List<Callable<Lambda.Response>> creates = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String body = "{\"name\":\"p" + i + "\"}";
            creates.add(() -> api.createProject(ws, body));
        }
        // WHEN
        List<Lambda.Response> responses = all(creates);
        // THEN
        assertThat(responses).allSatisfy(r -> assertThat(r.status()).isEqualTo(201));
        HashSet<String> ids = new HashSet<>();
        responses.forEach(r -> ids.add((String) r.json().get("id")));
        assertThat(ids).hasSize(200);
        List<String> listed = api.listAllProjects(ws);
        assertThat(listed).hasSize(200).containsExactlyInAnyOrderElementsOf(ids);
    }

    @Test
    void oneIdempotencyKeyFrom50Clients_shouldCreateOneProject_andAnswerAllTheSame() throws Exception {
        // GIVEN 50 clients sending the same create with the same key at once; each, as a client should,
        // retries while the first is in flight (409 + Retry-After)
        String ws = Api.freshWorkspaceId("idem");
        api.createWorkspace(ws, "Idem");
        CyclicBarrier start = new CyclicBarrier(50);
        List<Callable<Lambda.Response>> clients = new ArrayList<>();
        List<Integer> conflicts = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < 50; i++) {
            clients.add(() -> {
                start.await();
                for (int attempt = 0; attempt < 200; attempt++) {
                    Lambda.Response r = api.createProject(ws, "{\"name\":\"exactly once\"}", "the-one-key");
                    if (r.status() != 409) {
                        return r;
                    }
                    assertThat(r.headers()).containsKey("retry-after");
                    conflicts.add(1);
                    // The client's pause before it retries (shorter than Retry-After, to keep the test short);
                    // the barrier above orders the race, not this
                    Thread.sleep(20);
                }
                throw new AssertionError("still in progress after 200 attempts");
            });
        }
        // WHEN
        List<Lambda.Response> responses = new ArrayList<>();
        ExecutorService wide = Executors.newFixedThreadPool(50);
        try {
            for (Future<Lambda.Response> f : wide.invokeAll(clients)) {
                responses.add(f.get());
            }
        } finally {
            wide.shutdownNow();
        }
        // THEN one project, and 50 identical 201 bodies
        assertThat(responses).allSatisfy(r -> assertThat(r.status()).isEqualTo(201));
        assertThat(responses.stream().map(Lambda.Response::body).distinct()).hasSize(1);
        assertThat(Partitions.items(api.engine.client, "WS#" + ws).stream()
                        .filter(i -> i.get("Detail").s().startsWith("PROJ#")))
                .hasSize(1);
        System.out.println("idempotency: 50 clients, " + conflicts.size() + " in-flight 409s retried");
    }

    @Test
    void twoPatchesOnOneVersion_shouldGiveExactlyOne200AndOne412() throws Exception {
        String ws = Api.freshWorkspaceId("patch");
        api.createWorkspace(ws, "Patch");
        for (int round = 0; round < 10; round++) {
            // GIVEN a project at version 1, and two writers who both read it
            String id = (String) api.createProject(ws, "{\"name\":\"r" + round + "\"}")
                    .json()
                    .get("id");
            CyclicBarrier together = new CyclicBarrier(2);
            List<Callable<Lambda.Response>> writers = List.of(
                    () -> {
                        together.await();
                        return api.patchProject(ws, id, "\"1\"", "{\"status\":\"PAUSED\"}");
                    },
                    () -> {
                        together.await();
                        return api.patchProject(ws, id, "\"1\"", "{\"status\":\"ARCHIVED\"}");
                    });
            // WHEN they write at once
            List<Integer> statuses =
                    all(writers).stream().map(Lambda.Response::status).sorted().toList();
            // THEN one wins, one is told it lost
            assertThat(statuses).as("round " + round).containsExactly(200, 412);
            assertThat(api.getProject(ws, id).json()).containsEntry("version", 2);
        }
    }
}
