package dev.oneread.tests.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.auth.LocalJwt;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.CognitoTokens;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Tokens shaped exactly as the template's Cognito user pool issues them, through start-api's authorizer (run with a
 * Cognito issuer and an app client as its audience, as the deployed authorizer is) and the functions: the machine
 * client's client-credentials token and a user's access token work, the ID token and another client's token do
 * not. API Gateway's JWT authorizer guide gives the answers: a token that fails validation is 401 Unauthorized
 * (audience: aud, or client_id when aud is absent), one without any of the route's scopes 403 Forbidden.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CognitoTokensTest {
    private static final String ISSUER = "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Ab12Cd34E";
    /** The app clients' ids: Cognito's are 26 lower-case letters and digits. */
    private static final String CLIENT = "4vq2k9m1c8d7e6f5g4h3i2j1ka";

    private static final String OTHER_CLIENT = "1a2b3c4d5e6f7g8h9i0j1k2l3m";

    private final Api api = new Api();
    private final TestEngine engine = TestEngine.get();
    private final String acme = Api.freshWorkspaceId("acme");
    private final String globex = Api.freshWorkspaceId("globex");
    private final LocalJwt jwt = new LocalJwt(ISSUER, CLIENT, LocalApi.signingKey(engine), Clock.systemUTC());
    private final CognitoTokens cognito = new CognitoTokens(ISSUER, Clock.systemUTC());
    private LocalApi server;

    @BeforeAll
    void start() throws IOException {
        api.createWorkspace(acme, "Acme");
        api.createWorkspace(globex, "Globex");
        server = LocalApi.start(engine, TestEngine.TABLE, Map.of("JwtIssuer", ISSUER, "JwtAudience", CLIENT));
    }

    @AfterAll
    void stop() {
        server.close();
    }

    @Test
    void clientCredentialsToken_shouldWorkOnTheOperatorRoute() throws Exception {
        // GIVEN the machine client's token: client_id and no aud, scope oneread/admin
        String token = jwt.sign(cognito.clientCredentials(CLIENT, "oneread/admin"));
        String id = Api.freshWorkspaceId("machine");
        // WHEN it creates a workspace (operators only) and reads another
        HttpResponse<String> created = send("POST", "/workspaces", token, "{\"id\":\"" + id + "\",\"name\":\"M\"}");
        HttpResponse<String> read = send("GET", "/workspaces/" + acme, token, null);
        // THEN both work: the authorizer took client_id as the audience, the route's scope and the functions too
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
    }

    @Test
    void clientCredentialsToken_withTheApiScopeOnly_shouldNotBeAnOperator() throws Exception {
        // GIVEN a machine token that asked for oneread/api alone
        String token = jwt.sign(cognito.clientCredentials(CLIENT, "oneread/api"));
        // WHEN it asks for the operator route
        HttpResponse<String> response = send("POST", "/workspaces", token, "{\"id\":\"x\",\"name\":\"X\"}");
        // THEN the route's scope refuses it
        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.body()).isEqualTo("{\"message\":\"Forbidden\"}");
    }

    @Test
    void userAccessToken_shouldWorkOnItsWorkspace_andNoOther() throws Exception {
        // GIVEN a user's access token whose workspaces claim the trigger set from custom:workspaces
        String token = jwt.sign(cognito.userAccess(CLIENT, "ana", acme));
        // WHEN it reads its workspace, and another
        HttpResponse<String> own = send("GET", "/workspaces/" + acme, token, null);
        HttpResponse<String> other = send("GET", "/workspaces/" + globex, token, null);
        HttpResponse<String> operatorRoute = send("POST", "/workspaces", token, "{\"id\":\"y\",\"name\":\"Y\"}");
        // THEN its own answers; another's is refused by the function as if it did not exist (404, the API's
        // answer to a workspace the caller may not see), and the operator route by the authorizer
        assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
        assertThat(other.statusCode()).as(other.body()).isEqualTo(404);
        assertThat(operatorRoute.statusCode()).isEqualTo(403);
    }

    @Test
    void idToken_shouldBeRefused() throws Exception {
        // GIVEN the same user's ID token: aud is the app client (so it passes the audience check), no scope
        String token = jwt.sign(cognito.id(CLIENT, "ana", acme));
        // WHEN it reads the user's own workspace
        HttpResponse<String> response = send("GET", "/workspaces/" + acme, token, null);
        // THEN the authorizer refuses it for want of the route's scopes, as API Gateway does: 403 Forbidden
        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.body()).isEqualTo("{\"message\":\"Forbidden\"}");
    }

    @Test
    void anotherClientsToken_shouldBeUnauthorized() throws Exception {
        // GIVEN access tokens of a client the authorizer does not list (by client_id, with no aud)
        String machine = jwt.sign(cognito.clientCredentials(OTHER_CLIENT, "oneread/admin"));
        String user = jwt.sign(cognito.userAccess(OTHER_CLIENT, "ana", acme));
        // WHEN they call
        // THEN 401: the token is not for this API
        assertThat(send("GET", "/workspaces/" + acme, machine, null).statusCode())
                .isEqualTo(401);
        assertThat(send("GET", "/workspaces/" + acme, user, null).statusCode()).isEqualTo(401);
    }

    @Test
    void audThatDoesNotMatch_shouldWinOverAMatchingClientId() throws Exception {
        // GIVEN an access token of this client that also carries another audience in aud
        Map<String, Object> claims = new LinkedHashMap<>(cognito.userAccess(CLIENT, "ana", acme));
        claims.put("aud", OTHER_CLIENT);
        // WHEN it calls
        HttpResponse<String> response = send("GET", "/workspaces/" + acme, jwt.sign(claims), null);
        // THEN API Gateway evaluates aud when both are present: 401
        assertThat(response.statusCode()).isEqualTo(401);
    }

    private HttpResponse<String> send(String method, String path, String token, String body) throws Exception {
        return server.sendWithToken(method, path, body, token);
    }
}
