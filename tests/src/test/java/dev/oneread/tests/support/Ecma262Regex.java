package dev.oneread.tests.support;

import com.networknt.schema.regex.RegularExpression;
import com.networknt.schema.regex.RegularExpressionFactory;
import com.networknt.schema.regex.RegularExpressions;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JSON Schema {@code pattern} read as OpenAPI 3.0 says: ECMA-262 5.1, whose regular expressions see a string as
 * UTF-16 code units, so an astral character is two surrogates and {@code \uD83D[\uDE80-\uDEFF]} matches it. The
 * JDK's engine sees code points instead (a pair is one character there, and never matches a class of lone
 * surrogates), so each surrogate, in the pattern and in the text, is moved to a code point of its own
 * (U+F0000 + its offset from U+D800) before the JDK matches: then both engines take the same steps.
 *
 * <p>It covers what openapi.yaml uses (classes, {@code \}{@code uXXXX} escapes, groups, lookahead, quantifiers,
 * {@code ^} and {@code $}) and refuses what ECMA-262 5.1 reads otherwise than the JDK: {@code \p}, {@code \x{..}},
 * {@code .} (the JDK leaves out U+0085 too) and {@code \s} alone.
 *
 * <pre>{@code boolean ok = Ecma262Regex.compile("^[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]$").matches("\uD83D\uDE80");}</pre>
 */
public final class Ecma262Regex implements RegularExpression {
    /** For networknt's validator: every {@code pattern} of the document, read as ECMA-262 5.1. */
    public static final RegularExpressionFactory FACTORY = Ecma262Regex::compile;

    private static final Pattern SURROGATE_ESCAPE = Pattern.compile("\\\\u([dD][89a-fA-F][0-9a-fA-F]{2})");
    private static final Pattern RANGE = Pattern.compile("\\\\u([0-9a-fA-F]{4})-\\\\u([0-9a-fA-F]{4})");
    private static final Pattern UNSUPPORTED = Pattern.compile("\\\\[pPx]|(?<![\\\\\\[])\\.|\\\\s(?!\\\\S)");
    private static final int SURROGATE_SHIFT = 0xF0000 - 0xD800;

    private final Pattern pattern;

    private Ecma262Regex(Pattern pattern) {
        this.pattern = pattern;
    }

    public static Ecma262Regex compile(String ecma) {
        Matcher unsupported = UNSUPPORTED.matcher(ecma);
        if (unsupported.find()) {
            throw new IllegalArgumentException("not read alike by ECMA-262 5.1 and the JDK: " + unsupported.group());
        }
        // $ is the end of the text in ECMA-262 (no m flag), \z in the JDK, whose $ also matches before a last
        // line terminator; networknt makes the same change for its own JDK engine.
        String ranges = RANGE.matcher(RegularExpressions.replaceDollarAnchors(ecma))
                .replaceAll(range -> Matcher.quoteReplacement(
                        range(Integer.parseInt(range.group(1), 16), Integer.parseInt(range.group(2), 16))));
        String jdk = SURROGATE_ESCAPE
                .matcher(ranges)
                .replaceAll(
                        escape -> String.format("\\\\x{%X}", Integer.parseInt(escape.group(1), 16) + SURROGATE_SHIFT));
        return new Ecma262Regex(Pattern.compile(jdk));
    }

    /**
     * A class range as the JDK must read it: its surrogates moved as the text's are, so that {@code [^\u0000-\uFFFF]}
     * still holds every code unit, as in ECMA-262 5.1.
     */
    private static String range(int first, int last) {
        StringBuilder out = new StringBuilder();
        if (first < 0xD800) {
            out.append(String.format("\\u%04X-\\u%04X", first, Math.min(last, 0xD7FF)));
        }
        if (first <= 0xDFFF && last >= 0xD800) {
            out.append(String.format(
                    "\\x{%X}-\\x{%X}",
                    Math.max(first, 0xD800) + SURROGATE_SHIFT, Math.min(last, 0xDFFF) + SURROGATE_SHIFT));
        }
        if (last > 0xDFFF) {
            out.append(String.format("\\u%04X-\\u%04X", Math.max(first, 0xE000), last));
        }
        return out.toString();
    }

    /** Whether the pattern matches somewhere in {@code text}, as JSON Schema's {@code pattern} asks. */
    @Override
    public boolean matches(String text) {
        return pattern.matcher(codeUnits(text)).find();
    }

    private static String codeUnits(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char unit = text.charAt(i);
            if (Character.isSurrogate(unit)) {
                out.appendCodePoint(unit + SURROGATE_SHIFT);
            } else {
                out.append(unit);
            }
        }
        return out.toString();
    }
}
