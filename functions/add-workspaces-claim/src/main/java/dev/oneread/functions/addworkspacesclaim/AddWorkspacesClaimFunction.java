package dev.oneread.functions.addworkspacesclaim;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.oneread.json.Json;
import dev.oneread.keys.WorkspaceId;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The user pool's pre-token-generation trigger (event version V2_0): copies the user's {@code custom:workspaces}
 * attribute, which only an administrator sets, into the access token as the claim {@code workspaces}, in the grammar
 * the API reads ({@code acme globex}: slugs separated by single spaces). A value outside that grammar is not copied,
 * so the user gets a token that grants no workspace (fail closed) rather than one the API would read differently.
 *
 * <pre>{@code
 * in:  {"version":"2", "request":{"userAttributes":{"custom:workspaces":"acme globex"}}, "response":{...}}
 * out: the same event, response.claimsAndScopeOverrideDetails.accessTokenGeneration.claimsToAddOrOverride
 *      = {"workspaces":"acme globex"}
 * }</pre>
 */
public final class AddWorkspacesClaimFunction implements RequestStreamHandler {
    static final String ATTRIBUTE = "custom:workspaces";
    static final String CLAIM = "workspaces";
    private static final Pattern WORKSPACES = Pattern.compile("^" + WorkspaceId.SLUG_LIST_SYNTAX + "$");

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        Map<String, Object> event = Json.readObject(new String(input.readAllBytes(), StandardCharsets.UTF_8));
        output.write(Json.write(withClaim(event)).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The event Cognito sent, answered: Cognito reads the trigger's answer from the event it gets back, and a
     * {@code response} left as it came changes no token.
     */
    static Map<String, Object> withClaim(Map<String, Object> event) {
        Object attributes = event.get("request") instanceof Map<?, ?> request ? request.get("userAttributes") : null;
        Object value = attributes instanceof Map<?, ?> map ? map.get(ATTRIBUTE) : null;
        if (!(value instanceof String workspaces)
                || !WORKSPACES.matcher(workspaces).matches()) {
            return event;
        }
        Map<String, Object> answered = new LinkedHashMap<>(event);
        answered.put(
                "response",
                Map.of(
                        "claimsAndScopeOverrideDetails",
                        Map.of("accessTokenGeneration", Map.of("claimsToAddOrOverride", Map.of(CLAIM, workspaces)))));
        return answered;
    }
}
