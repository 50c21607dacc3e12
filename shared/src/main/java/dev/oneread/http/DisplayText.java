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
 *   <li>Cc (controls) other than tab and line feed, as before.
 * </ul>
 *
 * <p>Cn is what the runtime's Unicode tables leave unassigned: JDK 17 has Unicode 13, the java21 Lambda runtime
 * Unicode 15, so a character assigned in between is refused by a build and test on 17 and accepted in Lambda.
 */
final class DisplayText {
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

    static boolean displayable(int codePoint) {
        if (codePoint == '\n' || codePoint == '\t') {
            return true;
        }
        if (isNoncharacter(codePoint)) {
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
