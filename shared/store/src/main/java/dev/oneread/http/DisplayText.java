package dev.oneread.http;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.Optional;

/**
 * Text that people read: names, descriptions, settings keys and string values, which a console shows side by
 * side. Stored in NFC, so that two spellings of one name are one name, and refused when it holds a code point a
 * reader cannot see or trust:
 *
 * <ul>
 *   <li>Cf (format: U+202E RIGHT-TO-LEFT OVERRIDE, U+200B ZERO WIDTH SPACE, ...), Zl (U+2028), Zp (U+2029): they
 *       reorder or hide text, so one project could pass for another;
 *   <li>Co (private use), Cn (unassigned), Cs (a lone surrogate): nothing a font shows the same everywhere;
 *   <li>noncharacters (U+FDD0..U+FDEF and U+xxFFFE, U+xxFFFF): reserved for internal use by Unicode itself;
 *   <li>Cc (controls) other than tab and line feed, as before;
 *   <li>Default_Ignorable_Code_Point: what a renderer shows as nothing when it cannot show it, so
 *       {@code "Billing\u3164"} (a HANGUL FILLER) passed for {@code "Billing"}. Most are Cf already; the others
 *       are fillers, variation selectors, U+034F COMBINING GRAPHEME JOINER and the tag block.
 * </ul>
 *
 * <p>A name (and a settings key) must also not be blank or padded: see {@link #isBlank(int)}. Blanks stay allowed
 * inside a name, and anywhere in a description or a settings value, where a space is text like any other.
 *
 * <p>Cn is what the runtime's Unicode tables leave unassigned: JDK 17 has Unicode 13, the java21 Lambda runtime
 * Unicode 15, so a character assigned in between is refused by a build and test on 17 and accepted in Lambda.
 */
public final class DisplayText {
    /**
     * Default_Ignorable_Code_Point, as first and last code point of each range, from DerivedCoreProperties.txt of
     * Unicode 15.0 (https://www.unicode.org/Public/15.0.0/ucd/DerivedCoreProperties.txt; unchanged in 15.1 and
     * 16.0). Java has no property for it. It is derived as Other_Default_Ignorable_Code_Point + Cf +
     * Variation_Selector - White_Space - FFF9..FFFB (annotation characters) - 13430..1343F (Egyptian hieroglyph
     * format controls) - Prepended_Concatenation_Mark, so the ranges below are that file's, not a guess; the Cf
     * among them and the excluded Cf are refused anyway, as Cf.
     */
    private static final int[][] DEFAULT_IGNORABLE = {
        {0x00AD, 0x00AD}, // SOFT HYPHEN
        {0x034F, 0x034F}, // COMBINING GRAPHEME JOINER
        {0x061C, 0x061C}, // ARABIC LETTER MARK
        {0x115F, 0x1160}, // HANGUL CHOSEONG FILLER..HANGUL JUNGSEONG FILLER
        {0x17B4, 0x17B5}, // KHMER VOWEL INHERENT AQ..KHMER VOWEL INHERENT AA
        {0x180B, 0x180F}, // MONGOLIAN FREE VARIATION SELECTORS and VOWEL SEPARATOR
        {0x200B, 0x200F}, // ZERO WIDTH SPACE..RIGHT-TO-LEFT MARK
        {0x202A, 0x202E}, // LEFT-TO-RIGHT EMBEDDING..RIGHT-TO-LEFT OVERRIDE
        {0x2060, 0x206F}, // WORD JOINER..NOMINAL DIGIT SHAPES (U+2065 reserved)
        {0x3164, 0x3164}, // HANGUL FILLER
        {0xFE00, 0xFE0F}, // VARIATION SELECTOR-1..VARIATION SELECTOR-16
        {0xFEFF, 0xFEFF}, // ZERO WIDTH NO-BREAK SPACE
        {0xFFA0, 0xFFA0}, // HALFWIDTH HANGUL FILLER
        {0xFFF0, 0xFFF8}, // reserved
        {0x1BCA0, 0x1BCA3}, // SHORTHAND FORMAT LETTER OVERLAP..SHORTHAND FORMAT UP STEP
        {0x1D173, 0x1D17A}, // MUSICAL SYMBOL BEGIN BEAM..MUSICAL SYMBOL END PHRASE
        {0xE0000, 0xE0FFF}, // tags, VARIATION SELECTOR-17..256 and reserved
    };

    /** U+2800 BRAILLE PATTERN BLANK: a symbol (So), but a font shows it as an empty cell. */
    private static final int BRAILLE_PATTERN_BLANK = 0x2800;

    private DisplayText() {}

    /** {@code text} in NFC, or empty when it holds a code point that is refused. */
    static Optional<String> normalized(String text) {
        // Check before normalising too: NFC of a lone surrogate or an unassigned code point keeps it anyway, but
        // the check must not depend on that.
        if (!displayable(text)) {
            return Optional.empty();
        }
        String nfc = Normalizer.normalize(text, Normalizer.Form.NFC);
        return displayable(nfc) ? Optional.of(nfc) : Optional.empty();
    }

    static boolean displayable(String text) {
        return text.codePoints().allMatch(DisplayText::displayable);
    }

    /** Whether text people read may hold {@code codePoint}; openapi.yaml's pattern is generated from this. */
    public static boolean displayable(int codePoint) {
        if (codePoint == '\n' || codePoint == '\t') {
            return true;
        }
        if (isNoncharacter(codePoint) || isDefaultIgnorable(codePoint)) {
            return false;
        }
        return switch (Character.getType(codePoint)) {
            case Character.CONTROL,
                    Character.FORMAT,
                    Character.LINE_SEPARATOR,
                    Character.PARAGRAPH_SEPARATOR,
                    Character.PRIVATE_USE,
                    Character.UNASSIGNED,
                    Character.SURROGATE -> false;
            default -> true;
        };
    }

    /** Default_Ignorable_Code_Point (see {@link #DEFAULT_IGNORABLE}). */
    public static boolean isDefaultIgnorable(int codePoint) {
        for (int[] range : DEFAULT_IGNORABLE) {
            if (codePoint >= range[0] && codePoint <= range[1]) {
                return true;
            }
        }
        return false;
    }

    /**
     * A code point that shows as empty space: a space separator (Zs: U+0020, U+00A0, U+1680, U+2000..U+200A,
     * U+202F, U+205F, U+3000), U+2800 BRAILLE PATTERN BLANK, and the tab and line feed that text may hold. A name
     * made only of these looks empty, and one that begins or ends with one looks like the name without it.
     */
    public static boolean isBlank(int codePoint) {
        return Character.getType(codePoint) == Character.SPACE_SEPARATOR
                || codePoint == BRAILLE_PATTERN_BLANK
                || codePoint == '\n'
                || codePoint == '\t';
    }

    /** Empty, or nothing but blanks ({@link #isBlank(int)}). */
    static boolean isBlank(String text) {
        return text.codePoints().allMatch(DisplayText::isBlank);
    }

    /** Begins or ends with a blank ({@link #isBlank(int)}), so that it would pass for the text without it. */
    static boolean isPadded(String text) {
        return !text.isEmpty() && (isBlank(text.codePointAt(0)) || isBlank(text.codePointBefore(text.length())));
    }

    /** U+FDD0..U+FDEF, and the last two code points of every plane. */
    static boolean isNoncharacter(int codePoint) {
        return (codePoint >= 0xFDD0 && codePoint <= 0xFDEF) || (codePoint & 0xFFFE) == 0xFFFE;
    }

    /** UTF-8 bytes as text; bytes that are not UTF-8 (a stray byte, an overlong form, a surrogate) are a 400. */
    static String decodeUtf8(byte[] bytes) {
        try {
            CharBuffer text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return text.toString();
        } catch (CharacterCodingException e) {
            throw HttpProblemException.badRequest("body is not valid UTF-8");
        }
    }
}
