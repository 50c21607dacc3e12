package dev.oneread.tests.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.http.Cursors;
import dev.oneread.json.Json;
import dev.oneread.model.ListPosition;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Partitions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Hostile input on every route: ids, bodies, headers, cursors, limits and methods. Each gets a 4xx
 * problem+json (never a 5xx, never a stack trace or an internal name) and nothing changes in any partition
 * a case names.
 */
class HostileInputTest {
    private static final String ULID = "01JDQ6V7K4N3M2P1R0S9T8V7W6";
    private final Api api = new Api();
    /** Every workspace id the cases send, valid or not: their partitions are the ones a case could write. */
    private final Set<String> namedWorkspaces = new HashSet<>();

    private record Case(String name, Supplier<Lambda.Response> call) {}

    @Test
    void everyHostileInput_shouldGetA4xxProblem_andChangeNothing() {
        // GIVEN a workspace with a project, and a real cursor to tamper with
        String ws = Api.freshWorkspaceId("hostile");
        api.createWorkspace(ws, "Target");
        String project =
                (String) api.createProject(ws, "{\"name\":\"p1\"}").json().get("id");
        api.createProject(ws, "{\"name\":\"p2\"}");
        String cursor = api.listProjects(ws, Map.of("limit", "1")).nextCursor();
        String collectionCursor = api.collection(ws, Map.of("limit", "1")).nextCursor();
        namedWorkspaces.add(ws);
        List<Case> cases = new ArrayList<>();
        addIdCases(cases, ws);
        addBodyCases(cases, ws, project);
        addHeaderCases(cases, ws, project);
        addCursorCases(cases, ws, cursor, collectionCursor);
        addLimitCases(cases, ws);
        addMethodCases(cases, ws, project);
        Map<String, List<Map<String, AttributeValue>>> before =
                Partitions.snapshot(api.engine.client, Partitions.reachableFrom(namedWorkspaces));
        // WHEN each is sent
        SoftAssertions softly = new SoftAssertions();
        for (Case c : cases) {
            Lambda.Response response = c.call().get();
            softly.assertThat(response.status()).as(c.name()).isBetween(400, 499);
            softly.assertThat(response.contentType()).as(c.name()).isEqualTo("application/problem+json");
            Map<String, Object> problem = Json.readObject(response.body());
            softly.assertThat(problem).as(c.name()).containsKeys("type", "title", "status");
            softly.assertThat(response.body())
                    .as(c.name())
                    .doesNotContain(
                            "WS#", "PROJ#", "IDEM#", "EntityRef", "Detail", "Exception", "dev.oneread", "\tat ");
        }
        softly.assertAll();
        // THEN
        System.out.println("hostile inputs sent: " + cases.size());
        assertThat(cases.size()).isGreaterThanOrEqualTo(150);
        assertThat(before).containsKey("WS#" + ws);
        assertThat(Partitions.snapshot(api.engine.client, before.keySet())).isEqualTo(before);
    }

    private void addIdCases(List<Case> cases, String ws) {
        List<String> badWorkspaces = List.of(
                "acme#01",
                "ACME",
                "a".repeat(64),
                "",
                "%23",
                "acme%2301",
                "-a",
                "a-",
                "a_b",
                "a b",
                "../etc",
                "a/b",
                "ácme",
                "acme\u0000",
                "WS#acme",
                "NULL",
                "a".repeat(10_000));
        namedWorkspaces.addAll(badWorkspaces);
        for (String id : badWorkspaces) {
            cases.add(new Case("GetWorkspace id=" + id, () -> api.getWorkspace(id)));
            cases.add(new Case("ListProjects id=" + id, () -> api.listProjects(id, Map.of())));
            cases.add(new Case("PATCH workspace id=" + id, () -> api.patchWorkspace(id, "\"1\"", "{\"name\":\"x\"}")));
            cases.add(new Case("CreateProject id=" + id, () -> api.createProject(id, "{\"name\":\"x\"}")));
            cases.add(new Case(
                    "CreateWorkspace id=" + id, () -> api.createWorkspace(Json.write(Map.of("id", id, "name", "x")))));
            cases.add(new Case(
                    "Collection id=" + id,
                    () -> api.call(
                            "GetWorkspaceCollection",
                            ApiEvent.of("GET", ApiEvent.COLLECTION)
                                    .path("workspaceId", id)
                                    .claims(Map.of("workspaces", id)))));
        }
        List<String> badProjects = List.of(
                ULID.toLowerCase(),
                ULID.substring(1),
                ULID + "0",
                "8" + ULID.substring(1),
                ULID.substring(0, 25) + "U",
                ULID.substring(0, 25) + "#",
                "",
                "PROJ#" + ULID,
                "META",
                "%00");
        for (String id : badProjects) {
            cases.add(new Case("GetProject id=" + id, () -> api.getProject(ws, id)));
            cases.add(new Case("PATCH project id=" + id, () -> api.patchProject(ws, id, "\"1\"", "{\"name\":\"x\"}")));
            cases.add(new Case("DELETE project id=" + id, () -> api.deleteProject(ws, id, null)));
        }
    }

    private void addBodyCases(List<Case> cases, String ws, String project) {
        List<String> badBodies = List.of(
                "",
                " ",
                "{",
                "[]",
                "[{\"name\":\"x\"}]",
                "\"x\"",
                "42",
                "null",
                "true",
                "{\"name\":\"x\"",
                "{\"name\":\"x\",}",
                "{'name':'x'}",
                "{\"name\":\"x\",\"name\":\"y\"}",
                "{\"name\":null}",
                "{\"name\":\"\"}",
                "{\"name\":\"   \"}",
                "{\"name\":42}",
                "{\"name\":[\"x\"]}",
                "{\"name\":\"" + "x".repeat(201) + "\"}",
                "{\"name\":\"bad\\u0000name\"}",
                "{\"name\":\"x\",\"id\":\"y\"}",
                "{\"name\":\"x\",\"status\":\"DELETED\"}",
                "{\"name\":\"x\",\"status\":\"active\"}",
                "{\"name\":\"x\",\"status\":1}",
                "{\"name\":\"x\",\"description\":" + "\"" + "d".repeat(2001) + "\"}",
                "{\"name\":\"x\",\"workspaceId\":\"other\"}",
                "{\"name\":\"x\",\"version\":99}",
                "{\"name\":\"x\",\"createdAt\":\"2020-01-01T00:00:00Z\"}",
                "{\"Name\":\"x\"}",
                "{\"name\":\"x\"}garbage");
        for (String body : badBodies) {
            cases.add(new Case("CreateProject body=" + abbreviate(body), () -> api.createProject(ws, body)));
        }
        String deep = "{\"a\":".repeat(7) + "1" + "}".repeat(7);
        StringBuilder wide = new StringBuilder("{");
        for (int i = 0; i < 101; i++) {
            wide.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":1");
        }
        wide.append('}');
        List<String> badWorkspaceBodies = List.of(
                "{\"id\":\"ok-id\"}",
                "{\"name\":\"x\"}",
                "{\"id\":7,\"name\":\"x\"}",
                "{\"id\":\"ok-id\",\"name\":\"x\",\"settings\":[]}",
                "{\"id\":\"ok-id\",\"name\":\"x\",\"settings\":\"s\"}",
                "{\"id\":\"ok-id\",\"name\":\"x\",\"settings\":" + deep + "}",
                "{\"id\":\"ok-id\",\"name\":\"x\",\"settings\":" + wide + "}",
                "{\"id\":\"ok-id\",\"name\":\"x\",\"settings\":{\"\":1}}",
                "{\"id\":\"ok-id\",\"name\":\"x\",\"settings\":{\"n\":1e400}}",
                "{\"id\":\"ok-id\",\"name\":\"x\",\"settings\":{\"n\":123456789012345678901234567890123456789}}",
                "{\"id\":\"ok-id\",\"name\":\"x\",\"settings\":{\"s\":\"" + "s".repeat(4001) + "\"}}",
                "{\"id\":\"ok-id\",\"name\":\"x\",\"extra\":true}",
                "{\"id\":\"ok-id\",\"name\":\"" + "n".repeat(70_000) + "\"}");
        namedWorkspaces.addAll(List.of("ok-id", "other"));
        for (String body : badWorkspaceBodies) {
            cases.add(new Case("CreateWorkspace body=" + abbreviate(body), () -> api.createWorkspace(body)));
        }
        List<String> badPatches = List.of(
                "{}",
                "{\"name\":null}",
                "{\"settings\":null}",
                "{\"version\":2}",
                "{\"id\":\"other\"}",
                "{\"name\":\"\"}",
                "[]");
        for (String body : badPatches) {
            cases.add(new Case("PATCH workspace body=" + body, () -> api.patchWorkspace(ws, "\"1\"", body)));
            cases.add(new Case("PATCH project body=" + body, () -> api.patchProject(ws, project, "\"1\"", body)));
        }
        cases.add(new Case(
                "PATCH project status null", () -> api.patchProject(ws, project, "\"1\"", "{\"status\":null}")));
    }

    private void addHeaderCases(List<Case> cases, String ws, String project) {
        ApiEvent create =
                ApiEvent.of("POST", ApiEvent.PROJECTS).path("workspaceId", ws).claims(Map.of("workspaces", ws));
        for (String type : List.of(
                "text/plain",
                "application/xml",
                "application/x-www-form-urlencoded",
                "multipart/form-data",
                "application/jsonp",
                "json",
                "")) {
            cases.add(new Case(
                    "content-type=" + type,
                    () -> api.call(
                            "CreateProject", create.body("{\"name\":\"x\"}").header("content-type", type))));
        }
        for (String key : List.of("x".repeat(256), "has space", "tab\tkey", "ünïcode", "")) {
            cases.add(new Case(
                    "Idempotency-Key=" + abbreviate(key),
                    () -> api.call(
                            "CreateProject", create.body("{\"name\":\"x\"}").header("Idempotency-Key", key))));
        }
        for (String tag :
                List.of("1", "\"0\"", "\"-1\"", "\"abc\"", "W/\"1\"", "\"1\", \"2\"", "\"99999999999999999999\"", "")) {
            cases.add(new Case("If-Match=" + tag, () -> api.patchProject(ws, project, tag, "{\"name\":\"x\"}")));
        }
        cases.add(new Case("no If-Match", () -> api.patchProject(ws, project, null, "{\"name\":\"x\"}")));
        ApiEvent ordinaryCreate = ApiEvent.of("POST", ApiEvent.PROJECTS).path("workspaceId", ws);
        cases.add(new Case(
                "not base64 body", () -> api.call("CreateProject", ordinaryCreate.base64Body("{\"name\":\"x\"}"))));
        String notJsonObject = Base64.getEncoder().encodeToString(new byte[] {(byte) 0xff, (byte) 0xfe, 0});
        cases.add(new Case("binary body", () -> api.call("CreateProject", ordinaryCreate.base64Body(notJsonObject))));
    }

    private void addCursorCases(List<Case> cases, String ws, String cursor, String collectionCursor) {
        char flipped = cursor.charAt(20) == 'A' ? 'B' : 'A';
        String tampered = cursor.substring(0, 20) + flipped + cursor.substring(21);
        String other = Api.freshWorkspaceId("other");
        namedWorkspaces.add(other);
        api.createWorkspace(other, "Other");
        api.createProject(other, "{\"name\":\"o1\"}");
        api.createProject(other, "{\"name\":\"o2\"}");
        String otherCursor = api.listProjects(other, Map.of("limit", "1")).nextCursor();
        String route = "GET /workspaces/{workspaceId}/projects";
        String expired = new Cursors(Api.CURSOR_KEY, Clock.offset(Clock.systemUTC(), Duration.ofHours(-2)))
                .seal(ListPosition.after("PROJ#" + ULID), ws, route);
        String wrongKey = new Cursors("another-key-of-thirty-two-bytes!".getBytes(), Clock.systemUTC())
                .seal(ListPosition.after("PROJ#" + ULID), ws, route);
        String forgedPosition =
                new Cursors(Api.CURSOR_KEY, Clock.systemUTC()).seal(ListPosition.after("META"), ws, route);
        List<String> badCursors = List.of(
                tampered,
                cursor.substring(0, cursor.length() - 2),
                cursor + "A",
                otherCursor,
                collectionCursor,
                expired,
                wrongKey,
                forgedPosition,
                "",
                "not-a-cursor",
                "%%%",
                "A".repeat(2000),
                Base64.getUrlEncoder().encodeToString("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6".getBytes()),
                "eyJFbnRpdHlSZWYiOiJXUyNvdGhlciJ9");
        for (String c : badCursors) {
            cases.add(new Case("cursor=" + abbreviate(c), () -> api.listProjects(ws, Map.of("cursor", c))));
        }
        cases.add(new Case("list cursor on collection", () -> api.collection(ws, Map.of("cursor", cursor))));
    }

    private void addLimitCases(List<Case> cases, String ws) {
        for (String limit : List.of(
                "0", "-1", "101", "1000", "abc", "1.5", "1e2", "", " 5", "5 ", "99999999999", "0x10", "2,3", "+5")) {
            cases.add(new Case("limit=" + limit, () -> api.listProjects(ws, Map.of("limit", limit))));
            cases.add(new Case("collection limit=" + limit, () -> api.collection(ws, Map.of("limit", limit))));
        }
    }

    private void addMethodCases(List<Case> cases, String ws, String project) {
        // An event whose method is not the function's route method (a catch-all route, a hand-made event).
        ApiEvent get = ApiEvent.of("GET", ApiEvent.PROJECT).path(Map.of("workspaceId", ws, "projectId", project));
        for (String method : List.of("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE")) {
            cases.add(new Case("GetProject via " + method, () -> api.call("GetProject", get.sentWithMethod(method))));
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "...(" + s.length() + ")" : s;
    }
}
