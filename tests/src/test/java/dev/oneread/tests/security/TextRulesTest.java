package dev.oneread.tests.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.http.DisplayText;
import dev.oneread.json.Json;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.DisplayTextPattern;
import dev.oneread.tests.support.Ecma262Regex;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Text a person reads (names, descriptions, settings keys and strings) refuses what a reader cannot see or
 * trust, is stored in NFC, and arrives as valid UTF-8 or not at all; openapi.yaml states the same rule.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TextRulesTest {
    private final Api api = new Api();
    private final TestEngine engine = TestEngine.get();
    private final String ws = Api.freshWorkspaceId("text");
    private String project;

    /** One refused code point of each kind, as the JSON escape a client would send. */
    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("Cf RIGHT-TO-LEFT OVERRIDE", "\\u202e"),
                Arguments.of("Cf ZERO WIDTH SPACE", "\\u200b"),
                Arguments.of("Zl LINE SEPARATOR", "\\u2028"),
                Arguments.of("Zp PARAGRAPH SEPARATOR", "\\u2029"),
                Arguments.of("Co private use", "\\ue000"),
                Arguments.of("Cn unassigned U+0378", "\\u0378"),
                Arguments.of("Cs lone surrogate", "\\ud800"),
                Arguments.of("noncharacter U+FFFE", "\\ufffe"),
                Arguments.of("noncharacter U+FDD0", "\\ufdd0"),
                Arguments.of("noncharacter U+1FFFF", "\\ud83f\\udfff"),
                Arguments.of("Cc ESCAPE", "\\u001b"),
                // Default_Ignorable_Code_Point that is not Cf: invisible, so "Billing" plus one passed for "Billing"
                Arguments.of("DI HANGUL FILLER", "\\u3164"),
                Arguments.of("DI HANGUL CHOSEONG FILLER", "\\u115f"),
                Arguments.of("DI HANGUL JUNGSEONG FILLER", "\\u1160"),
                Arguments.of("DI HALFWIDTH HANGUL FILLER", "\\uffa0"),
                Arguments.of("DI COMBINING GRAPHEME JOINER", "\\u034f"),
                Arguments.of("DI VARIATION SELECTOR-16", "\\ufe0f"),
                Arguments.of("DI VARIATION SELECTOR-17 U+E0100", "\\udb40\\udd00"),
                Arguments.of("DI KHMER VOWEL INHERENT AQ", "\\u17b4"));
    }

    /** Characters that show as nothing but take a place: a space separator (Zs), or the blank braille pattern. */
    static Stream<Arguments> blanks() {
        return Stream.of(
                Arguments.of("Zs SPACE", "\\u0020"),
                Arguments.of("Zs NO-BREAK SPACE", "\\u00a0"),
                Arguments.of("Zs OGHAM SPACE MARK", "\\u1680"),
                Arguments.of("Zs FIGURE SPACE", "\\u2007"),
                Arguments.of("Zs NARROW NO-BREAK SPACE", "\\u202f"),
                Arguments.of("Zs MEDIUM MATHEMATICAL SPACE", "\\u205f"),
                Arguments.of("Zs IDEOGRAPHIC SPACE", "\\u3000"),
                Arguments.of("BRAILLE PATTERN BLANK", "\\u2800"),
                Arguments.of("TAB", "\\t"));
    }

    @BeforeAll
    void workspaceAndProject() {
        api.createWorkspace(ws, "Text");
        project = (String) api.createProject(ws, "{\"name\":\"Plain\"}").json().get("id");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void everyTextField_shouldRefuseTheCharacter_andChangeNothing(String kind, String escaped) {
        String text = "a" + escaped + "b";
        // WHEN it is sent in each field a person reads, on create and on PATCH
        List<Lambda.Response> responses = List.of(
                api.createProject(ws, "{\"name\":\"" + text + "\"}"),
                api.createProject(ws, "{\"name\":\"ok\",\"description\":\"" + text + "\"}"),
                api.createWorkspace("{\"id\":\"" + Api.freshWorkspaceId("t") + "\",\"name\":\"" + text + "\"}"),
                api.createWorkspace("{\"id\":\"" + Api.freshWorkspaceId("t") + "\",\"name\":\"ok\",\"settings\":{\""
                        + text + "\":1}}"),
                api.createWorkspace("{\"id\":\"" + Api.freshWorkspaceId("t") + "\",\"name\":\"ok\",\"settings\":{\"k\":"
                        + "{\"deep\":[\"" + text + "\"]}}}"),
                api.patchWorkspace(ws, "\"1\"", "{\"name\":\"" + text + "\"}"),
                api.patchProject(ws, project, "\"1\"", "{\"description\":\"" + text + "\"}"));
        // THEN each is a 400 problem that made no DynamoDB call, so nothing changed
        assertRefusedAndNothingChanged(kind, responses, ws, project);
    }

    /** Each response a 400 problem that made no DynamoDB call, and the workspace and project as created. */
    private void assertRefusedAndNothingChanged(
            String what, List<Lambda.Response> responses, String workspace, String project) {
        assertThat(responses).allSatisfy(response -> {
            assertThat(response.status()).as(what + ": " + response.body()).isEqualTo(400);
            assertThat(response.contentType()).isEqualTo("application/problem+json");
            assertThat(response.dynamoCalls()).isZero();
            assertThat(response.body()).doesNotContain("Exception", "WS#");
        });
        assertThat(api.getProject(workspace, project).json())
                .containsEntry("name", "Plain")
                .containsEntry("version", 1);
        assertThat(api.getWorkspace(workspace).json())
                .containsEntry("name", "Text")
                .containsEntry("version", 1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("blanks")
    void namesAndSettingsKeys_shouldRefuseTheBlank_whenAloneOrAtAnEnd(String kind, String blank) {
        // GIVEN a workspace and a project of this case's own (a PATCH that wrongly succeeds must not change the
        // shared ones), and a name or settings key that looks empty or looks like "Billing"
        String ws = Api.freshWorkspaceId("blank");
        api.createWorkspace(ws, "Text");
        String project =
                (String) api.createProject(ws, "{\"name\":\"Plain\"}").json().get("id");
        List<String> names = List.of(blank, blank + blank, "Billing" + blank, blank + "Billing");
        for (String name : names) {
            // WHEN it is sent where a name or a key is read
            List<Lambda.Response> responses = List.of(
                    api.createProject(ws, "{\"name\":\"" + name + "\"}"),
                    api.createWorkspace("{\"id\":\"" + Api.freshWorkspaceId("t") + "\",\"name\":\"" + name + "\"}"),
                    api.createWorkspace("{\"id\":\"" + Api.freshWorkspaceId("t") + "\",\"name\":\"ok\",\"settings\":{\""
                            + name + "\":1}}"),
                    api.patchWorkspace(ws, "\"1\"", "{\"name\":\"" + name + "\"}"),
                    api.patchWorkspace(ws, "\"1\"", "{\"settings\":{\"k\":{\"" + name + "\":1}}}"),
                    api.patchProject(ws, project, "\"1\"", "{\"name\":\"" + name + "\"}"));
            // THEN each is a 400 that made no DynamoDB call, so nothing changed
            assertRefusedAndNothingChanged(kind + " in \"" + name + "\"", responses, ws, project);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("blanks")
    void blanks_shouldBeKept_insideANameAndAnywhereInADescriptionOrSettingsValue(String kind, String blank) {
        // WHEN a blank stands between words of a name, and at the ends of a description and a settings value
        Lambda.Response created = api.createProject(
                ws, "{\"name\":\"Billing" + blank + "Team\",\"description\":\"" + blank + "indented" + blank + "\"}");
        Lambda.Response workspace = api.createWorkspace("{\"id\":\"" + Api.freshWorkspaceId("t")
                + "\",\"name\":\"ok\",\"settings\":{\"k\":\"" + blank + "\"}}");
        // THEN they are text like any other: only a name's (or key's) ends, or a name of nothing else, are refused
        assertThat(created.status()).as(kind + ": " + created.body()).isEqualTo(201);
        assertThat(workspace.status()).as(kind + ": " + workspace.body()).isEqualTo(201);
    }

    /**
     * The code points the issue found in invisible names, each with the status the API gives it, from what the
     * API answers: alone, after "Billing", and between two letters, as a project name. Printed as the markdown
     * table of the closing note, and written to {@code target/text-rules-table.md}.
     */
    @Test
    void invisibleCodePoints_shouldEachBeRefusedOrBlank() throws IOException {
        Map<Integer, String> expected = new java.util.LinkedHashMap<>();
        for (int codePoint : new int[] {0x3164, 0x115F, 0x1160, 0xFFA0, 0x034F, 0xFE0F, 0xE0100, 0x17B4}) {
            expected.put(codePoint, "refused as ignorable");
        }
        for (int codePoint : new int[] {0x2800, 0x00A0, 0x2007, 0x202F}) {
            expected.put(codePoint, "treated as blank");
        }
        StringBuilder table =
                new StringBuilder("| code point | name | alone | after Billing | between letters | status |\n"
                        + "| --- | --- | --- | --- | --- | --- |\n");
        Map<Integer, String> actual = new java.util.LinkedHashMap<>();
        for (int codePoint : expected.keySet()) {
            String c = Json.write(new String(Character.toChars(codePoint)));
            c = c.substring(1, c.length() - 1);
            int alone = api.createProject(ws, "{\"name\":\"" + c + "\"}").status();
            int after = api.createProject(ws, "{\"name\":\"Billing" + c + "\"}").status();
            int between = api.createProject(ws, "{\"name\":\"a" + c + "b\"}").status();
            String status = between == 400 && alone == 400 && after == 400
                    ? "refused as ignorable"
                    : between == 201 && alone == 400 && after == 400 ? "treated as blank" : "accepted";
            actual.put(codePoint, status);
            table.append(String.format(
                    "| U+%04X | %s | %d | %d | %d | %s |%n",
                    codePoint, Character.getName(codePoint), alone, after, between, status));
        }
        System.out.print(table);
        Files.writeString(engine.root.resolve("tests/target/text-rules-table.md"), table);
        assertThat(actual).as(table.toString()).isEqualTo(expected);
    }

    /**
     * DisplayText's Default_Ignorable_Code_Point table is typed in from Unicode's file; this checks it against the
     * JDK's own data where the two can be compared: the derivation takes in every Cf but a few named ones.
     */
    @Test
    void defaultIgnorable_shouldHoldEveryFormatCharacter_butTheOnesUnicodeLeavesOut() {
        for (int codePoint = 0; codePoint <= Character.MAX_CODE_POINT; codePoint++) {
            boolean leftOut = Character.isWhitespace(codePoint)
                    || (codePoint >= 0xFFF9 && codePoint <= 0xFFFB) // annotation characters
                    || (codePoint >= 0x13430 && codePoint <= 0x1343F) // Egyptian hieroglyph format controls
                    || List.of(0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06DD, 0x070F, 0x0890, 0x0891)
                            .contains(codePoint) // Prepended_Concatenation_Mark
                    || List.of(0x08E2, 0x110BD, 0x110CD).contains(codePoint);
            if (Character.getType(codePoint) == Character.FORMAT && !leftOut) {
                assertThat(DisplayText.isDefaultIgnorable(codePoint))
                        .as("U+%04X", codePoint)
                        .isTrue();
            }
        }
        // and the fillers and selectors the issue found, which are not Cf
        for (int codePoint : new int[] {0x3164, 0x115F, 0x1160, 0xFFA0, 0x034F, 0xFE0F, 0xE0100, 0x17B4, 0x17B5}) {
            assertThat(DisplayText.isDefaultIgnorable(codePoint))
                    .as("U+%04X", codePoint)
                    .isTrue();
        }
        // while a blank is not ignorable: it takes a place
        assertThat(DisplayText.isDefaultIgnorable(0x2800)).isFalse();
        assertThat(DisplayText.isDefaultIgnorable(0x00A0)).isFalse();
    }

    @Test
    void text_shouldBeStoredInNfc() {
        // WHEN a name, a description and a settings key and value are sent decomposed: e + COMBINING ACUTE
        String created = (String) api.createProject(
                        ws,
                        "{\"name\":\"caf" + "e\\u0301" + "\",\"description\":\"r" + "e\\u0301" + "sum" + "e\\u0301"
                                + "\"}")
                .json()
                .get("id");
        String other = Api.freshWorkspaceId("nfc");
        api.createWorkspace("{\"id\":\"" + other + "\",\"name\":\"N\",\"settings\":{\"cl" + "e\\u0301" + "\":\"caf"
                + "e\\u0301" + "\"}}");
        // THEN they are stored composed
        assertThat(api.getProject(ws, created).json())
                .containsEntry("name", "caf\u00e9")
                .containsEntry("description", "r\u00e9sum\u00e9");
        assertThat(api.getWorkspace(other).json()).containsEntry("settings", Map.of("cl\u00e9", "caf\u00e9"));
    }

    @Test
    void settingsKeys_thatAreEqualInNfc_shouldBeRefused() {
        Lambda.Response response = api.createWorkspace("{\"id\":\"" + Api.freshWorkspaceId("t")
                + "\",\"name\":\"ok\",\"settings\":{\"\\u00e9\":1,\"e\\u0301\":2}}");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.dynamoCalls()).isZero();
    }

    /** Byte sequences that are not UTF-8: a lead byte without its continuation, an overlong '/', a surrogate. */
    static Stream<Arguments> notUtf8() {
        return Stream.of(
                Arguments.of("7b226e616d65223a22c328227d"), // {"name":"<C3 28>"}
                Arguments.of("7b226e616d65223a22c0af227d"), // {"name":"<C0 AF>"}, overlong
                Arguments.of("7b226e616d65223a22eda080227d")); // {"name":"<ED A0 80>"}, U+D800 encoded
    }

    @ParameterizedTest
    @MethodSource("notUtf8")
    void invalidUtf8_shouldBe400_notReplaced(String hex) {
        // GIVEN a body API Gateway passed base64-encoded, whose bytes are not UTF-8
        String encoded = Base64.getEncoder().encodeToString(HexFormat.of().parseHex(hex));
        // WHEN
        Lambda.Response response = api.call(
                "CreateProject",
                ApiEvent.of("POST", ApiEvent.PROJECTS).path("workspaceId", ws).base64Body(encoded));
        // THEN
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json()).containsEntry("detail", "body is not valid UTF-8");
        assertThat(response.dynamoCalls()).isZero();
    }

    @Test
    void invalidUtf8_throughStartApi_shouldArriveAsBytesAndBe400() throws Exception {
        // GIVEN start-api on the engine
        try (LocalApi server = LocalApi.start(engine)) {
            String token = server.stack().authorizer().issue("dev", List.of(ws), false, Duration.ofMinutes(5));
            // WHEN a JSON body with the bytes C3 28 is posted
            HttpResponse<String> response = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(
                                            "http://127.0.0.1:" + server.port() + "/workspaces/" + ws + "/projects"))
                                    .header("Authorization", "Bearer " + token)
                                    .header("Content-Type", "application/json")
                                    .POST(HttpRequest.BodyPublishers.ofByteArray(
                                            HexFormat.of().parseHex("7b226e616d65223a22c328227d")))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            // THEN the function saw the bytes (base64, as API Gateway passes what is not text) and refused them
            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(response.body()).contains("body is not valid UTF-8");
            assertThat(response.headers().firstValue("x-dynamo-calls")).hasValue("0");
        }
    }

    /**
     * Samples the rule accepts, and the refused ones above as text: openapi.yaml must agree on each, read by code
     * points (Rust, Python, the JDK, ECMA-262 with the u flag) and, but for astral characters, by UTF-16 units.
     */
    @Test
    void openApiPattern_shouldStateTheSameRule() throws IOException {
        // GIVEN the pattern openapi.yaml gives names and descriptions, read both ways
        Pattern byCodePoints = byCodePoints(statedPattern("displayText"));
        Ecma262Regex byUnits = Ecma262Regex.compile(statedPattern("displayText"));
        // THEN it accepts what the API accepts
        for (String ok : List.of("Acme", "caf\u00e9", "line\nbreak\ttab", "\u65e5\u672c", "go \uD83D\uDE80", "a-b_c")) {
            assertThat(byCodePoints.matcher(ok).matches()).as(ok).isTrue();
            // (read by UTF-16 units, every astral character is refused: the stated trade-off)
            assertThat(byUnits.matches(ok)).as(ok).isEqualTo(ok.codePoints().allMatch(c -> c <= 0xFFFF));
            assertThat(api.createProject(ws, Json.write(Map.of("name", ok))).status())
                    .isEqualTo(201);
        }
        // and refuses what the API refuses, on the BMP and lone surrogates
        for (String bad : List.of(
                "a\u202eb",
                "a\u200bb",
                "a\u2028b",
                "a\u2029b",
                "a\ue000b",
                "a\u0378b",
                "a\ud800b",
                "a\udc00b",
                "a\udc00\ud800b",
                "a\ufffeb",
                "a\ufdd0b",
                "a\u001bb")) {
            assertThat(byCodePoints.matcher(bad).matches()).as(bad).isFalse();
            assertThat(byUnits.matches(bad)).as(bad).isFalse();
        }
        // while an astral character the API refuses (U+1FFFF, U+E0001, U+F0000) passes it when read by code points
        for (String lenient : List.of("a\uD83F\uDFFFb", "a\uDB40\uDC01b", "a\uDB80\uDC00b")) {
            assertThat(byCodePoints.matcher(lenient).matches()).as(lenient).isTrue();
            assertThat(byUnits.matches(lenient)).as(lenient).isFalse();
            assertThat(lenient.codePoints().allMatch(DisplayText::displayable))
                    .as(lenient)
                    .isFalse();
        }
    }

    /** A JSON Schema pattern as an engine that reads code points reads it ({@code $} the end of the text). */
    private static Pattern byCodePoints(String pattern) {
        return Pattern.compile(pattern.endsWith("$") ? pattern.substring(0, pattern.length() - 1) + "\\z" : pattern);
    }

    /** openapi.yaml's pattern under a YAML anchor ({@code &displayText}) or a Name's {@code not} pattern. */
    private String statedPattern(String anchor) throws IOException {
        String yaml = Files.readString(engine.root.resolve("openapi.yaml"));
        Matcher pattern =
                Pattern.compile("(?m)^ *pattern: &" + anchor + " '(.*)'$").matcher(yaml);
        assertThat(pattern.find()).as("pattern &" + anchor + " in openapi.yaml").isTrue();
        return pattern.group(1).replace("''", "'");
    }

    /**
     * openapi.yaml's patterns are the ones generated from the code (the Unicode of the JDK that builds), so that a
     * change of the rule cannot leave them behind. On a difference, the generated ones are written to
     * {@code tests/target/display-text-patterns.txt}, to be pasted in.
     */
    @Test
    void openApiPatterns_shouldBeTheOnesGeneratedFromTheCode() throws IOException {
        String text = DisplayTextPattern.text();
        String padded = DisplayTextPattern.padded();
        Files.writeString(
                engine.root.resolve("tests/target/display-text-patterns.txt"),
                "displayText: " + text + "\nblankEnds: " + padded + "\n");
        assertThat(statedPattern("displayText")).isEqualTo(text);
        assertThat(statedPattern("descriptionText")).isEqualTo(text);
        assertThat(statedPattern("blankEnds")).isEqualTo(padded);
    }

    /**
     * The pattern, read as ECMA-262 5.1 (OpenAPI 3.0's dialect, by UTF-16 units), gives the code's verdict on every
     * BMP code point, alone and in a name: displayable or not, and for a name, blank at an end or not; every astral
     * character it refuses (two surrogate units, which its astral class never matches: the stated trade-off).
     */
    @Test
    void openApiPatterns_shouldAgreeWithTheCode_onEveryCodePoint() throws IOException {
        Ecma262Regex text = Ecma262Regex.compile(statedPattern("displayText"));
        Ecma262Regex blankEnds = Ecma262Regex.compile(statedPattern("blankEnds"));
        List<String> disagreements = new java.util.ArrayList<>();
        for (int codePoint = 0; codePoint <= Character.MAX_CODE_POINT; codePoint++) {
            String alone = new String(Character.toChars(codePoint));
            boolean displayable = codePoint <= 0xFFFF && DisplayText.displayable(codePoint);
            boolean blank = DisplayText.isBlank(codePoint);
            if (text.matches(alone) != displayable || text.matches("a" + alone + "b") != displayable) {
                disagreements.add(String.format("U+%04X displayable=%s", codePoint, displayable));
            }
            if (blankEnds.matches(alone + "a") != blank
                    || blankEnds.matches("a" + alone) != blank
                    || blankEnds.matches("a" + alone + "b")) {
                disagreements.add(String.format("U+%04X blank=%s", codePoint, blank));
            }
        }
        assertThat(disagreements).isEmpty();
    }

    /**
     * Where a tool reads the pattern by code points (the JDK, Python, ECMA-262 with the u flag) it is exact on the
     * BMP and accepts every astral character (see DisplayTextPattern): it never refuses what the API accepts.
     */
    @Test
    void openApiPattern_readByCodePoints_shouldBeExactOnTheBmp_andAcceptEveryAstralCharacter() throws IOException {
        Pattern byCodePoints = byCodePoints(statedPattern("displayText"));
        for (int codePoint = 0; codePoint <= Character.MAX_CODE_POINT; codePoint++) {
            boolean expected = codePoint > 0xFFFF || DisplayText.displayable(codePoint);
            assertThat(byCodePoints
                            .matcher(new String(Character.toChars(codePoint)))
                            .matches())
                    .as("U+%04X", codePoint)
                    .isEqualTo(expected);
        }
    }
}
