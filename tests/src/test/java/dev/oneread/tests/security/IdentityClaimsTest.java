package dev.oneread.tests.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.local.auth.LocalJwt;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Claims and what they grant, each by its standard grammar and nothing looser: in the functions (the claims as
 * the HTTP API hands them over) and in start-api's authorizer (the route's AuthorizationScopes, as API Gateway
 * checks them). Anything outside the grammar grants nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IdentityClaimsTest {
    private final Api api = new Api();
    private final TestEngine engine = TestEngine.get();
    /** Two workspaces that exist: the caller of each row is, or is not, a member of {@link #globex}. */
    private final String acme = Api.freshWorkspaceId("acme");

    private final String globex = Api.freshWorkspaceId("globex");

    private LocalApi server;
    private final HttpClient http = HttpClient.newHttpClient();
    private final LocalJwt jwt = new LocalJwt(
            LocalJwt.DEFAULT_ISSUER, LocalJwt.DEFAULT_AUDIENCE, LocalApi.signingKey(engine), Clock.systemUTC());

    @BeforeAll
    void start() throws IOException {
        api.createWorkspace(acme, "Acme");
        api.createWorkspace(globex, "Globex");
        server = LocalApi.start(engine);
    }

    @AfterAll
    void stop() {
        server.close();
    }

    /** Scope claims against the operator route: only the exact scope token counts. */
    Stream<Arguments> operatorScopes() {
        return Stream.of(
                Arguments.of("openid,oneread/admin", 403), // one scope token, not two (RFC 6749 §3.3)
                Arguments.of("[oneread/admin]", 403), // brackets are part of the token
                Arguments.of("oneread/admin-readonly", 403), // another scope
                Arguments.of("openid  oneread/admin", 403), // two spaces: not the grammar
                Arguments.of("openid oneread/admin", 201));
    }

    @ParameterizedTest(name = "scope \"{0}\" -> {1}")
    @MethodSource("operatorScopes")
    void createWorkspace_shouldNeedTheExactOperatorScope(String scope, int expected) {
        // GIVEN a token with this scope claim and no other privilege
        String id = Api.freshWorkspaceId("scoped");
        ApiEvent create = ApiEvent.of("POST", ApiEvent.WORKSPACES)
                .body(Json.write(Map.of("id", id, "name", "Scoped")))
                .claims(Map.of("sub", "op", "scope", scope, "token_use", "access"));
        // WHEN
        Lambda.Response response = api.call("CreateWorkspace", create);
        // THEN
        assertThat(response.status()).isEqualTo(expected);
        assertThat(response.dynamoCalls()).isEqualTo(expected == 201 ? 1 : 0);
    }

    /** Workspaces claims against GET /workspaces/globex, each as the function receives it. */
    Stream<Arguments> workspaceClaims() {
        return Stream.of(
                // API Gateway's flattening of ["acme,globex"]: a comma is no slug, so nothing
                Arguments.of("[" + acme + "," + globex + "]", 404),
                // ["team acme","globex corp"] as a typed array: elements that are not slugs, so nothing
                Arguments.of(List.of("team " + acme, globex + " corp"), 404),
                // a list with separators other than one space
                Arguments.of(acme + "," + globex, 404),
                Arguments.of(acme + "  " + globex, 404),
                Arguments.of(acme + "\t" + globex, 404),
                Arguments.of("[" + acme + " " + globex, 404),
                Arguments.of(acme + " " + globex, 200),
                Arguments.of("[" + acme + " " + globex + "]", 200),
                Arguments.of(List.of(acme, globex), 200));
    }

    @ParameterizedTest(name = "workspaces {0} -> {1}")
    @MethodSource("workspaceClaims")
    void getWorkspace_shouldGrantOnlyWhatTheClaimsGrammarNames(Object workspaces, int expected) {
        // GIVEN a member token whose workspaces claim is this value
        ApiEvent get = ApiEvent.of("GET", ApiEvent.WORKSPACE)
                .path("workspaceId", globex)
                .claims(Map.of("sub", "member", "scope", "openid oneread/api", "workspaces", workspaces));
        // WHEN
        Lambda.Response response = api.call("GetWorkspace", get);
        // THEN globex is visible only to a claim in the grammar that names it; otherwise a 404 with no call
        assertThat(response.status()).isEqualTo(expected);
        assertThat(response.dynamoCalls()).isEqualTo(expected == 200 ? 1 : 0);
    }

    /** Token kinds against a member route. */
    Stream<Arguments> tokenKinds() {
        return Stream.of(
                Arguments.of("an ID token", Map.of("token_use", "id"), 403),
                Arguments.of(
                        "an ID token that claims the scope", Map.of("token_use", "id", "scope", "oneread/api"), 403),
                Arguments.of("a token without scopes", Map.of("token_use", "access"), 403),
                Arguments.of("scp instead of scope", Map.of("scp", "oneread/api"), 403),
                Arguments.of("an access token", Map.of("token_use", "access", "scope", "oneread/api"), 200),
                Arguments.of("a token without token_use", Map.of("scope", "openid oneread/api"), 200));
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("tokenKinds")
    void memberRoute_shouldTakeAccessTokensOnly_inTheFunction(String kind, Map<String, Object> claims, int expected) {
        // GIVEN a member of acme with this kind of token
        Map<String, Object> all = new LinkedHashMap<>(claims);
        all.put("sub", "member");
        all.put("workspaces", acme);
        // WHEN
        Lambda.Response response = api.call(
                "GetWorkspace",
                ApiEvent.of("GET", ApiEvent.WORKSPACE).path("workspaceId", acme).claims(all));
        // THEN
        assertThat(response.status()).as(kind).isEqualTo(expected);
        assertThat(response.dynamoCalls()).isEqualTo(expected == 200 ? 1 : 0);
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("tokenKinds")
    void memberRoute_shouldTakeAccessTokensOnly_inStartApisAuthorizer(
            String kind, Map<String, Object> claims, int expected) throws Exception {
        // GIVEN a signed token of this kind, for a member of acme
        HttpResponse<String> response = get("/workspaces/" + acme, token(claims));
        // THEN the authorizer refuses a token with neither of the route's scopes, as API Gateway does (403
        // Forbidden, before any function runs); the function refuses the rest (an ID token with a scope, scp)
        assertThat(response.statusCode()).as(kind).isEqualTo(expected);
        if (!claims.containsKey("scope") && !claims.containsKey("scp")) {
            assertThat(response.body()).isEqualTo("{\"message\":\"Forbidden\"}");
        }
    }

    @Test
    void operatorRoute_shouldNeedTheOperatorScope_inStartApisAuthorizer() throws Exception {
        // GIVEN a member's access token (scope oneread/api only)
        String member = token(Map.of("token_use", "access", "scope", "openid oneread/api"));
        // WHEN it asks for the operator route
        HttpResponse<String> response = send("POST", "/workspaces", member, "{\"id\":\"x\",\"name\":\"X\"}");
        // THEN API Gateway's answer: the route wants oneread/admin
        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.body()).isEqualTo("{\"message\":\"Forbidden\"}");
    }

    @Test
    void tokenCommandsTokens_shouldBeAccessTokensWithTheApisScopes() {
        // GIVEN what `token` mints (through LocalJwt.issue)
        String member = jwt.issue("dev", List.of(acme), false, java.time.Duration.ofMinutes(5));
        String operator = jwt.issue("dev", List.of(), true, java.time.Duration.ofMinutes(5));
        // THEN
        assertThat(jwt.authorize("Bearer " + member).orElseThrow().claims())
                .containsEntry("token_use", "access")
                .containsEntry("scope", "openid oneread/api");
        assertThat(jwt.authorize("Bearer " + operator).orElseThrow().scopes()).contains("oneread/api", "oneread/admin");
    }

    /**
     * Time claims against the authorizer at a fixed instant. API Gateway's JWT authorizer documents: exp "must be
     * after the current time in UTC", nbf and iat "must be before the current time in UTC", and no clock skew.
     */
    Stream<Arguments> timeClaims() {
        return Stream.of(
                Arguments.of("nbf in a minute", Map.of("nbf", NOW + 60), false),
                Arguments.of("nbf a second ahead", Map.of("nbf", NOW + 1), false),
                Arguments.of("iat in a minute", Map.of("iat", NOW + 60), false),
                Arguments.of("iat a second ahead", Map.of("iat", NOW + 1), false),
                Arguments.of("nbf that is no number", Map.of("nbf", "0"), false),
                Arguments.of("iat that is no number", Map.of("iat", "0"), false),
                Arguments.of("exp now", Map.of("exp", NOW), false),
                Arguments.of("nbf and iat now", Map.of("nbf", NOW, "iat", NOW), true),
                Arguments.of("nbf and iat past", Map.of("nbf", NOW - 60, "iat", NOW - 60), true),
                Arguments.of("neither nbf nor iat", Map.of(), true));
    }

    private static final long NOW = 1_800_000_000L;

    @ParameterizedTest(name = "{0} -> accepted {2}")
    @MethodSource("timeClaims")
    void authorizer_shouldCheckTimeClaimsAsApiGatewayDoes(String kind, Map<String, Object> time, boolean accepted) {
        // GIVEN start-api's authorizer at a fixed instant, and a well-signed token with these time claims
        LocalJwt atNow = new LocalJwt(
                LocalJwt.DEFAULT_ISSUER,
                LocalJwt.DEFAULT_AUDIENCE,
                LocalApi.signingKey(engine),
                Clock.fixed(Instant.ofEpochSecond(NOW), java.time.ZoneOffset.UTC));
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("iss", LocalJwt.DEFAULT_ISSUER);
        claims.put("aud", LocalJwt.DEFAULT_AUDIENCE);
        claims.put("sub", "member");
        claims.put("scope", "openid oneread/api");
        claims.put("exp", NOW + 300);
        claims.putAll(time);
        // WHEN / THEN
        assertThat(atNow.authorize("Bearer " + atNow.sign(claims)).isPresent())
                .as(kind)
                .isEqualTo(accepted);
    }

    private String token(Map<String, Object> claims) {
        long now = Instant.now().getEpochSecond();
        Map<String, Object> all = new LinkedHashMap<>(claims);
        all.put("iss", LocalJwt.DEFAULT_ISSUER);
        all.put("aud", LocalJwt.DEFAULT_AUDIENCE);
        all.put("sub", "member");
        all.put("workspaces", acme);
        all.put("iat", now);
        all.put("exp", now + 300);
        return jwt.sign(all);
    }

    private HttpResponse<String> get(String path, String token) throws Exception {
        return send("GET", path, token, null);
    }

    private HttpResponse<String> send(String method, String path, String token, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("Authorization", "Bearer " + token);
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        request.method(
                method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
