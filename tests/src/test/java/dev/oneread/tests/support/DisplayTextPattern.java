package dev.oneread.tests.support;

import dev.oneread.http.DisplayText;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * openapi.yaml's patterns for text people read, generated from {@link DisplayText}, in a form every common OpenAPI
 * tool compiles: ECMA-262 5.1 (OpenAPI 3.0's dialect) with nothing but {@code \}{@code uXXXX} escapes, over UTF-16
 * code units, an astral character written as its surrogate pair. Property escapes such as {@code \p{Cf}} are
 * ECMA-262 2018 with the u flag only; Python's re, which fuzzers use, refuses them.
 *
 * <p>One branch, {@code [^\u0000-\uFFFF]}, matches nothing over code units, but any astral character in an engine
 * that reads code points (the JDK, Python, ECMA-262 with the u flag): those engines see a pair as one character,
 * which no surrogate class matches, and would otherwise refuse every emoji. They are exact on the BMP and lenient
 * beyond it.
 */
public final class DisplayTextPattern {
    private DisplayTextPattern() {}

    /** Every character displayable: the Description's pattern, and the Name's with {@link #padded()}. */
    public static String text() {
        String bmp = characterClass(DisplayText::displayable, 0, 0xFFFF);
        List<String> branches = new ArrayList<>();
        // Astral characters: each run of high surrogates that allow the same low surrogates.
        int high = 0xD800;
        while (high <= 0xDBFF) {
            String lows = lowsOf(high);
            int last = high;
            while (last + 1 <= 0xDBFF && lowsOf(last + 1).equals(lows)) {
                last++;
            }
            if (!lows.isEmpty()) {
                branches.add((high == last ? escape(high) : "[" + escape(high) + "-" + escape(last) + "]") + lows);
            }
            high = last + 1;
        }
        branches.add("[^\\u0000-\\uFFFF]");
        // BMP runs as one repeated class, not as a branch of the repeated group: a backtracking engine (the JDK's)
        // recurses once per repetition of a group, and a 2,000-character description overflowed its stack.
        return "^" + bmp + "*(?:(?:" + String.join("|", branches) + ")" + bmp + "*)*$";
    }

    /** A name that begins or ends with a blank: what a Name must not match. */
    public static String padded() {
        String blank = characterClass(DisplayText::isBlank, 0, 0xFFFF);
        return "^" + blank + "|" + blank + "$";
    }

    private static String lowsOf(int high) {
        return characterClass(
                low -> DisplayText.displayable(Character.toCodePoint((char) high, (char) low)), 0xDC00, 0xDFFF);
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
