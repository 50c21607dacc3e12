package dev.oneread.model;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * A number as DynamoDB stores it: at most 38 significant digits, zero or of magnitude 1E-130 to
 * 9.9999999999999999999999999999999999999E+125, leading and trailing zeros not significant (DynamoDB Developer
 * Guide, "Supported data types", Number). The text is read in one pass, in time linear in its length, before
 * anything parses it: {@code new BigDecimal("1e999999999")} is cheap, but what code then does with it
 * ({@code toPlainString}, {@code toBigInteger}, an {@code add} to a plain number) builds a billion digits. So every
 * number that comes from outside (a request body, a fixture file, a console edit or filter) passes here first.
 *
 * <p>Besides DynamoDB's rules, the text is at most {@link #MAX_TEXT_LENGTH} characters and its exponent at most
 * {@link #MAX_EXPONENT_DIGITS} significant digits: a longer one cannot give a number in range (nor does a zero
 * need one). The form is what both DynamoDB and {@link BigDecimal} read: an optional minus, digits with at most one
 * point, an optional exponent ({@code -12.5e3}, {@code .5}, {@code 007}).
 *
 * <pre>{@code DynamoDbNumber n = DynamoDbNumber.of("1e40").orElseThrow(); n.significantDigits(); // 1}</pre>
 */
public final class DynamoDbNumber {
    /** DynamoDB's limit on precision. */
    public static final int MAX_SIGNIFICANT_DIGITS = 38;
    /** The largest power of ten of a number's leading digit: 9.99...E+125. */
    public static final int MAX_MAGNITUDE = 125;
    /** The smallest power of ten of a number's leading digit: 1E-130. */
    public static final int MIN_MAGNITUDE = -130;
    /** Longer than any number in range needs, short enough to read at once: padding zeros have no other use. */
    public static final int MAX_TEXT_LENGTH = 4_096;
    /** An exponent of more digits (once its leading zeros are dropped) is out of range whatever the digits say. */
    public static final int MAX_EXPONENT_DIGITS = 4;

    /** The rule, in words, for error details. */
    public static final String RULE = "a number with at most " + MAX_SIGNIFICANT_DIGITS
            + " significant digits (leading and trailing zeros do not count), zero or of magnitude from 1E"
            + MIN_MAGNITUDE + " to 9.9999999999999999999999999999999999999E+" + MAX_MAGNITUDE
            + ", written in at most " + MAX_TEXT_LENGTH + " characters";

    private final String text;
    private final int significantDigits;
    private final int magnitude;

    private DynamoDbNumber(String text, int significantDigits, int magnitude) {
        this.text = text;
        this.significantDigits = significantDigits;
        this.magnitude = magnitude;
    }

    /** The number a text writes, when it is one DynamoDB stores; empty otherwise. Linear in the text's length. */
    public static Optional<DynamoDbNumber> of(String text) {
        if (text == null || text.isEmpty() || text.length() > MAX_TEXT_LENGTH) {
            return Optional.empty();
        }
        int i = 0;
        int n = text.length();
        if (text.charAt(i) == '-') {
            i++;
        }
        int digits = 0; // mantissa digits read, the point not counted
        int integerDigits = -1; // digits before the point, once the point is read
        int firstNonZero = -1;
        int lastNonZero = -1;
        for (; i < n; i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                if (c != '0') {
                    if (firstNonZero < 0) {
                        firstNonZero = digits;
                    }
                    lastNonZero = digits;
                }
                digits++;
            } else if (c == '.' && integerDigits < 0) {
                integerDigits = digits;
            } else {
                break;
            }
        }
        if (digits == 0) {
            return Optional.empty();
        }
        if (integerDigits < 0) {
            integerDigits = digits;
        }
        int exponent = 0;
        if (i < n) {
            char e = text.charAt(i++);
            if (e != 'e' && e != 'E' || i == n) {
                return Optional.empty();
            }
            boolean negative = false;
            if (text.charAt(i) == '+' || text.charAt(i) == '-') {
                negative = text.charAt(i) == '-';
                i++;
            }
            if (i == n) {
                return Optional.empty();
            }
            int significant = 0;
            for (; i < n; i++) {
                char c = text.charAt(i);
                if (c < '0' || c > '9') {
                    return Optional.empty();
                }
                if (significant > 0 || c != '0') {
                    if (++significant > MAX_EXPONENT_DIGITS) {
                        return Optional.empty();
                    }
                    exponent = exponent * 10 + (c - '0');
                }
            }
            exponent = negative ? -exponent : exponent;
        }
        if (firstNonZero < 0) {
            return Optional.of(new DynamoDbNumber(text, 0, 0));
        }
        int significantDigits = lastNonZero - firstNonZero + 1;
        int magnitude = exponent + integerDigits - 1 - firstNonZero;
        if (significantDigits > MAX_SIGNIFICANT_DIGITS || magnitude > MAX_MAGNITUDE || magnitude < MIN_MAGNITUDE) {
            return Optional.empty();
        }
        return Optional.of(new DynamoDbNumber(text, significantDigits, magnitude));
    }

    /** True when the text writes a number DynamoDB stores. */
    public static boolean isValid(String text) {
        return of(text).isPresent();
    }

    /** The text as given. */
    public String text() {
        return text;
    }

    /** Its significant digits, leading and trailing zeros left out: 0 for zero. */
    public int significantDigits() {
        return significantDigits;
    }

    /** The power of ten of its leading digit ({@code 1e40}: 40, {@code 0.05}: -2); 0 for zero. */
    public int magnitude() {
        return magnitude;
    }

    public boolean isZero() {
        return significantDigits == 0;
    }

    /** The number, parsed: safe to print plainly, at most 170 characters or so. */
    public BigDecimal decimal() {
        return new BigDecimal(text);
    }

    @Override
    public String toString() {
        return text;
    }
}
