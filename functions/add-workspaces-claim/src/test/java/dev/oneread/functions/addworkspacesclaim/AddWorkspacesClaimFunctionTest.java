package dev.oneread.functions.addworkspacesclaim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The trigger against a V2_0 pre-token-generation event as Cognito sends it (events/add-workspaces-claim.json, from
 * the Cognito developer guide's "Pre token generation Lambda trigger"), through the handler's streams.
 */
class AddWorkspacesClaimFunctionTest {
    @Test
    void handleRequest_shouldAddTheWorkspacesClaimToTheAccessToken_whenTheAttributeIsInTheGrammar() throws IOException {
        // GIVEN a user whose custom:workspaces is "acme globex"
        Map<String, Object> event = event();
        // WHEN Cognito calls the trigger
        Map<String, Object> answer = invoke(event);
        // THEN the access token gets workspaces = the attribute, and nothing else of the event changed
        assertThat(answer.get("response"))
                .isEqualTo(Map.of(
                        "claimsAndScopeOverrideDetails",
                        Map.of(
                                "accessTokenGeneration",
                                Map.of("claimsToAddOrOverride", Map.of("workspaces", "acme globex")))));
        Map<String, Object> rest = new LinkedHashMap<>(answer);
        rest.remove("response");
        Map<String, Object> sent = new LinkedHashMap<>(event);
        sent.remove("response");
        assertThat(rest).isEqualTo(sent);
    }

    @ParameterizedTest(name = "custom:workspaces \"{0}\"")
    @ValueSource(
            strings = {"acme,globex", "acme  globex", " acme", "acme ", "Acme", "acme\tglobex", "[acme globex]", ""})
    void handleRequest_shouldAddNothing_whenTheAttributeIsOutsideTheGrammar(String value) throws IOException {
        // GIVEN a value the API would not read as the admin meant it
        Map<String, Object> event = withAttribute(value);
        // WHEN
        Map<String, Object> answer = invoke(event);
        // THEN the event comes back as it came: no claim, a token that grants no workspace
        assertThat(answer).isEqualTo(event);
        assertThat(Json.write(answer)).doesNotContain("claimsToAddOrOverride");
    }

    @Test
    void handleRequest_shouldAddNothing_whenTheUserHasNoWorkspaces() throws IOException {
        // GIVEN a user without the attribute
        Map<String, Object> event = withAttribute(null);
        // WHEN / THEN
        assertThat(invoke(event)).isEqualTo(event);
    }

    private static Map<String, Object> invoke(Map<String, Object> event) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new AddWorkspacesClaimFunction()
                .handleRequest(new ByteArrayInputStream(Json.write(event).getBytes(StandardCharsets.UTF_8)), out, null);
        return Json.readObject(out.toString(StandardCharsets.UTF_8));
    }

    /** The fixture with custom:workspaces set to {@code value}, or removed when null. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> withAttribute(String value) throws IOException {
        Map<String, Object> event = event();
        Map<String, Object> attributes =
                (Map<String, Object>) ((Map<String, Object>) event.get("request")).get("userAttributes");
        if (value == null) {
            attributes.remove(AddWorkspacesClaimFunction.ATTRIBUTE);
        } else {
            attributes.put(AddWorkspacesClaimFunction.ATTRIBUTE, value);
        }
        return event;
    }

    private static Map<String, Object> event() throws IOException {
        try (InputStream in = AddWorkspacesClaimFunctionTest.class.getResourceAsStream("/add-workspaces-claim.json")) {
            return Json.readObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
