package dev.oneread.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** DynamoDB's number rules, read from the text before anything parses it. */
class DynamoDbNumberTest {
    private static final String MAX = "9.9999999999999999999999999999999999999E+125";

    @Test
    void of_shouldAccept_theRangeDynamoDbStores() {
        assertThat(DynamoDbNumber.isValid("0")).isTrue();
        assertThat(DynamoDbNumber.isValid("-0.000")).isTrue();
        assertThat(DynamoDbNumber.isValid(MAX)).isTrue();
        assertThat(DynamoDbNumber.isValid("-" + MAX)).isTrue();
        assertThat(DynamoDbNumber.isValid("1E-130")).isTrue();
        assertThat(DynamoDbNumber.isValid("-1e-130")).isTrue();
        assertThat(DynamoDbNumber.isValid("12345678901234567890123456789012345678"))
                .isTrue();
        assertThat(DynamoDbNumber.isValid(".5")).isTrue();
        assertThat(DynamoDbNumber.isValid("007")).isTrue();
        assertThat(DynamoDbNumber.isValid("1e+0125")).isTrue();
    }

    @Test
    void of_shouldRefuse_outsideTheRange() {
        assertThat(DynamoDbNumber.isValid("1e126")).isFalse();
        assertThat(DynamoDbNumber.isValid("10.0E+125")).isFalse();
        assertThat(DynamoDbNumber.isValid("1e-131")).isFalse();
        assertThat(DynamoDbNumber.isValid("0.1e-130")).isFalse();
        assertThat(DynamoDbNumber.isValid("123456789012345678901234567890123456789"))
                .isFalse();
        assertThat(DynamoDbNumber.isValid("1.00000000000000000000000000000000000001"))
                .isFalse();
    }

    /** A past bug: the precision of 1e40's plain form (41 digits) was counted, so what the API stores was refused. */
    @Test
    void of_shouldNotCount_trailingOrLeadingZeros() {
        String plain = new BigDecimal("1e40").toPlainString();

        assertThat(DynamoDbNumber.of(plain).orElseThrow().significantDigits()).isEqualTo(1);
        assertThat(DynamoDbNumber.of(plain).orElseThrow().magnitude()).isEqualTo(40);
        assertThat(DynamoDbNumber.of("0.000120").orElseThrow().significantDigits())
                .isEqualTo(2);
        assertThat(DynamoDbNumber.of("0.000120").orElseThrow().magnitude()).isEqualTo(-4);
        assertThat(DynamoDbNumber.of("1" + "0".repeat(125)).orElseThrow().magnitude())
                .isEqualTo(125);
    }

    @Test
    void of_shouldRefuse_whatIsNotANumber() {
        for (String text : new String[] {
            "",
            "-",
            ".",
            "e5",
            "1e",
            "1e+",
            "+1",
            "1.2.3",
            " 1",
            "1 ",
            "NaN",
            "Infinity",
            "0x10",
            "1e5.0",
            "--1",
            "1_000"
        }) {
            assertThat(DynamoDbNumber.isValid(text)).as(text).isFalse();
        }
        assertThat(DynamoDbNumber.isValid(null)).isFalse();
    }

    /** The inputs: each refused by its exponent's length, before its value is ever built. */
    @Test
    void of_shouldRefuse_longExponentsAndLongTexts_withoutParsing() {
        assertThat(DynamoDbNumber.isValid("1e999999999")).isFalse();
        assertThat(DynamoDbNumber.isValid("1e10000000")).isFalse();
        assertThat(DynamoDbNumber.isValid("0e99999")).isFalse();
        assertThat(DynamoDbNumber.isValid("1" + "0".repeat(DynamoDbNumber.MAX_TEXT_LENGTH)))
                .isFalse();
        assertThat(DynamoDbNumber.isValid("0." + "0".repeat(120) + "1")).isTrue();
    }

    /** Seeded: whatever passes agrees with BigDecimal's reading of the same text. */
    @Test
    void of_shouldAgreeWithBigDecimal_onRandomNumbers() {
        Random random = new Random(37);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder text = new StringBuilder(random.nextBoolean() ? "-" : "");
            int before = random.nextInt(45);
            int after = random.nextInt(45);
            for (int d = 0; d < before; d++) {
                text.append(random.nextInt(4) == 0 ? '0' : (char) ('0' + random.nextInt(10)));
            }
            if (after > 0 || before == 0) {
                text.append('.');
                for (int d = 0; d < Math.max(after, 1); d++) {
                    text.append(random.nextInt(4) == 0 ? '0' : (char) ('0' + random.nextInt(10)));
                }
            }
            if (random.nextBoolean()) {
                text.append('e').append(random.nextInt(300) - 150);
            }
            BigDecimal decimal = new BigDecimal(text.toString());
            boolean expected = decimal.signum() == 0
                    || decimal.stripTrailingZeros().precision() <= 38
                            && decimal.precision() - decimal.scale() - 1 <= 125
                            && decimal.precision() - decimal.scale() - 1 >= -130;
            assertThat(DynamoDbNumber.isValid(text.toString()))
                    .as(text.toString())
                    .isEqualTo(expected);
        }
    }
}
