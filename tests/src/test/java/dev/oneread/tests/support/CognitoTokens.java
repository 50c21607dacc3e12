package dev.oneread.tests.support;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The claims of the tokens the template's Cognito user pool issues, each shape in one place, as Cognito's developer
 * guide ("Understanding the access token", "Understanding the identity (ID) token") lists them: an access token
 * carries {@code client_id} and no {@code aud}, {@code token_use} access, {@code scope}, {@code version} 2; an ID
 * token carries {@code aud} (the app client), {@code token_use} id, the user's attributes and no scope. Sign them
 * with the run's key ({@code LocalJwt.sign}) to send them through start-api.
 *
 * <pre>{@code
 * String token = jwt.sign(new CognitoTokens(issuer, clock).clientCredentials(clientId, "oneread/admin"));
 * }</pre>
 */
public final class CognitoTokens {
    private static final long LIFETIME_SECONDS = 3600;

    private final String issuer;
    private final Clock clock;

    /** @param issuer the pool's issuer, {@code https://cognito-idp.<region>.amazonaws.com/<pool id>} */
    public CognitoTokens(String issuer, Clock clock) {
        this.issuer = issuer;
        this.clock = clock;
    }

    /** An access token from the client-credentials grant: the machine client is its own subject; no user claims. */
    public Map<String, Object> clientCredentials(String clientId, String scope) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("sub", clientId);
        claims.put("token_use", "access");
        claims.put("scope", scope);
        times(claims);
        claims.put("iss", issuer);
        claims.put("version", 2);
        claims.put("jti", UUID.randomUUID().toString());
        claims.put("client_id", clientId);
        return claims;
    }

    /**
     * A user's access token from the authorization-code grant, with the {@code workspaces} claim as the pool's
     * pre-token-generation trigger (AddWorkspacesClaim) adds it: the user's custom:workspaces, space-separated slugs.
     */
    public Map<String, Object> userAccess(String clientId, String username, String workspaces) {
        Map<String, Object> claims = signIn(username);
        claims.put("version", 2);
        claims.put("client_id", clientId);
        claims.put("token_use", "access");
        claims.put("scope", "openid oneread/api");
        claims.put("username", username);
        claims.put("workspaces", workspaces);
        return claims;
    }

    /** The same sign-in's ID token: for the client application, never a credential for the API. */
    public Map<String, Object> id(String clientId, String username, String workspaces) {
        Map<String, Object> claims = signIn(username);
        claims.put("email_verified", true);
        claims.put("cognito:username", username);
        claims.put("aud", clientId);
        claims.put("token_use", "id");
        claims.put("email", username + "@example.com");
        claims.put("custom:workspaces", workspaces);
        return claims;
    }

    /** What both tokens of one user's sign-in carry: the user's sub, the issuer, the sign-in's ids and times. */
    private Map<String, Object> signIn(String username) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put(
                "sub",
                UUID.nameUUIDFromBytes(username.getBytes(StandardCharsets.UTF_8))
                        .toString());
        claims.put("iss", issuer);
        claims.put("origin_jti", UUID.randomUUID().toString());
        claims.put("event_id", UUID.randomUUID().toString());
        claims.put("jti", UUID.randomUUID().toString());
        times(claims);
        return claims;
    }

    /** auth_time, iat and exp as Cognito sets them: signed in now, valid for the pool's default hour. */
    private void times(Map<String, Object> claims) {
        long now = clock.instant().getEpochSecond();
        claims.put("auth_time", now);
        claims.put("exp", now + LIFETIME_SECONDS);
        claims.put("iat", now);
    }
}
