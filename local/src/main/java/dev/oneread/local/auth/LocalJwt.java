package dev.oneread.local.auth;

import dev.oneread.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The local stand-in for the HTTP API JWT authorizer: HS256 tokens signed with the run's {@link SigningKey}
 * (random, per data directory, readable by its owner only), checked as the authorizer checks them (signature, exp,
 * nbf, iat, iss, aud or else client_id), and turned into the claims map API Gateway passes to the function.
 *
 * <pre>{@code String token = jwt.issue("dev", List.of("acme"), false, Duration.ofHours(1));}</pre>
 */
public final class LocalJwt {
    public static final String DEFAULT_ISSUER = "https://oneread.local/";
    public static final String DEFAULT_AUDIENCE = "oneread";
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    private final String issuer;
    private final String audience;
    private final Clock clock;
    private final SecretKeySpec key;

    public LocalJwt(String issuer, String audience, byte[] signingKey, Clock clock) {
        this.issuer = issuer;
        this.audience = audience;
        this.key = new SecretKeySpec(signingKey, "HmacSHA256");
        this.clock = clock;
    }

    public String issue(String subject, List<String> workspaces, boolean operator, Duration ttl) {
        long now = clock.instant().getEpochSecond();
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("iss", issuer);
        claims.put("aud", audience);
        claims.put("sub", subject);
        claims.put("workspaces", String.join(" ", workspaces));
        // What an access token of the template's identity provider carries (Cognito's shape): the API's scopes,
        // space-separated, and token_use access.
        claims.put("scope", operator ? "openid oneread/api oneread/admin" : "openid oneread/api");
        claims.put("token_use", "access");
        claims.put("iat", now);
        claims.put("exp", now + ttl.toSeconds());
        return sign(claims);
    }

    /** Any claims, signed as this issuer signs: how tests make the tokens no real caller should have. */
    public String sign(Map<String, Object> claims) {
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("alg", "HS256");
        header.put("typ", "JWT");
        String signingInput = B64.encodeToString(Json.write(header).getBytes(StandardCharsets.UTF_8)) + "."
                + B64.encodeToString(Json.write(claims).getBytes(StandardCharsets.UTF_8));
        return signingInput + "." + B64.encodeToString(hmac(signingInput));
    }

    /** The verified authorizer context, or empty: the request is a 401. */
    public Optional<JwtAuthorizer> authorize(String authorizationHeader) {
        if (authorizationHeader == null || !authorizationHeader.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        String[] parts = authorizationHeader.substring(7).strip().split("\\.", -1);
        if (parts.length != 3) {
            return Optional.empty();
        }
        try {
            Map<String, Object> header =
                    Json.readObject(new String(Base64.getUrlDecoder().decode(parts[0]), StandardCharsets.UTF_8));
            byte[] signature = Base64.getUrlDecoder().decode(parts[2]);
            if (!"HS256".equals(header.get("alg"))
                    || !MessageDigest.isEqual(signature, hmac(parts[0] + "." + parts[1]))) {
                return Optional.empty();
            }
            Map<String, Object> claims =
                    Json.readObject(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8));
            double now = clock.millis() / 1000.0;
            if (!(claims.get("exp") instanceof Number exp)
                    || exp.doubleValue() <= now
                    || !notAfter(claims.get("nbf"), now)
                    || !notAfter(claims.get("iat"), now)
                    || !issuer.equals(claims.get("iss"))
                    || !audiences(audienceClaim(claims)).contains(audience)) {
                return Optional.empty();
            }
            Map<String, String> flattened = new LinkedHashMap<>();
            claims.forEach((k, v) -> flattened.put(k, flatten(v)));
            // The scopes as API Gateway reads them for AuthorizationScopes: "from the token's scope or scp claim"
            // (its JWT authorizer docs), space-separated. The functions read scope alone (Caller).
            Object scope = claims.containsKey("scope") ? claims.get("scope") : claims.get("scp");
            List<String> scopes = scope instanceof String text ? List.of(text.split(" ")) : null;
            return Optional.of(new JwtAuthorizer(flattened, scopes));
        } catch (RuntimeException malformed) {
            return Optional.empty();
        }
    }

    /**
     * A time claim that is absent, or a NumericDate not after {@code now}. API Gateway's JWT authorizer guide ("Control
     * access to HTTP APIs with JWT authorizers") lists the claims it validates: exp "must be after the current time in
     * UTC", nbf and iat "must be before the current time in UTC". It names no clock skew, so none is allowed here (the
     * runner signs and checks on one clock); "before" is read as "not after", so that a token made this second, as
     * {@code token} makes them, works at once.
     */
    private static boolean notAfter(Object claim, double now) {
        return claim == null || (claim instanceof Number time && time.doubleValue() <= now);
    }

    /** API Gateway passes every claim as a string; an array becomes {@code [a b]}. */
    private static String flatten(Object value) {
        if (value instanceof List<?> list) {
            List<String> items = new ArrayList<>();
            list.forEach(v -> items.add(String.valueOf(v)));
            return "[" + String.join(" ", items) + "]";
        }
        return String.valueOf(value);
    }

    /**
     * The claim the audience is checked against. API Gateway's JWT authorizer guide: "aud or client_id - Must match
     * one of the audience entries that's configured for the authorizer. API Gateway validates client_id only if aud
     * is not present. When both aud and client_id are present, API Gateway evaluates aud." A Cognito access token
     * carries client_id and no aud; its ID token carries aud.
     */
    private static Object audienceClaim(Map<String, Object> claims) {
        return claims.containsKey("aud") ? claims.get("aud") : claims.get("client_id");
    }

    private static List<String> audiences(Object aud) {
        if (aud instanceof List<?> list) {
            return list.stream().map(String::valueOf).toList();
        }
        return aud == null ? List.of() : List.of(String.valueOf(aud));
    }

    private byte[] hmac(String input) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(input.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
