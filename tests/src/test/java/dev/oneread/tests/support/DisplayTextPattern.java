package dev.oneread.tests.support;

import dev.oneread.http.DisplayText;
import java.util.function.IntPredicate;

/**
 * openapi.yaml's patterns for text people read, generated from {@link DisplayText}, in a form every common regex
 * engine compiles: nothing but {@code \}{@code uXXXX} escapes of non-surrogates, so that engines which refuse a
 * surrogate escape (Rust's regex, which jsonschema-rs uses, and so drops the whole pattern) keep it. Property escapes
 * such as {@code \p{Cf}} are out too: ECMA-262 reads them with the u flag only, and Python's re refuses them.
 *
 * <p>The form: one class of the displayable BMP characters, and {@code [^\u0000-\uFFFF]} for every astral code
 * point. Its trade-off: an engine that reads code points (the JDK, Python, Rust, ECMA-262 with the u flag, as ajv
 * does) is exact on the BMP and on lone surrogates, and lenient beyond it (it lets through the astral characters the
 * API refuses: unassigned, private use, format, default-ignorable); ECMA-262 without the u flag (OpenAPI 3.0's
 * letter) sees an astral character as two surrogate units, which neither part matches, so it refuses every astral
 * character, emoji included, and is exact on the BMP.
 */
public final class DisplayTextPattern {
    private DisplayTextPattern() {}

    /** Every character displayable: the Description's pattern, and the Name's with {@link #padded()}. */
    public static String text() {
        String bmp = characterClass(DisplayText::displayable, 0, 0xFFFF);
        // BMP runs as one repeated class, not as a branch of the repeated group: a backtracking engine (the JDK's)
        // recurses once per repetition of a group, and a 2,000-character description overflowed its stack.
        return "^" + bmp + "*(?:[^\\u0000-\\uFFFF]" + bmp + "*)*$";
    }

    /** A name that begins or ends with a blank: what a Name must not match. */
    public static String padded() {
        String blank = characterClass(DisplayText::isBlank, 0, 0xFFFF);
        return "^" + blank + "|" + blank + "$";
    }

    /** The code units from {@code first} to {@code last} that {@code member} holds, as a class; empty if none. */
    private static String characterClass(IntPredicate member, int first, int last) {
        StringBuilder out = new StringBuilder();
        int unit = first;
        while (unit <= last) {
            if (!member.test(unit)) {
                unit++;
                continue;
            }
            int end = unit;
            while (end + 1 <= last && member.test(end + 1)) {
                end++;
            }
            out.append(escape(unit));
            if (end > unit) {
                out.append(end > unit + 1 ? "-" : "").append(escape(end));
            }
            unit = end + 1;
        }
        return out.isEmpty() ? "" : "[" + out + "]";
    }

    private static String escape(int unit) {
        return String.format("\\u%04X", unit);
    }
}
