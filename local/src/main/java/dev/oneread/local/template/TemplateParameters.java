package dev.oneread.local.template;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The template's constraints on its parameters (AllowedValues, AllowedPattern, MinLength/MaxLength, MinValue/MaxValue of a
 * Number), checked
 * as CloudFormation checks them before a deploy, with its wording: a deploy it would refuse is refused locally too.
 */
public final class TemplateParameters {
    private TemplateParameters() {}

    /** @throws IllegalArgumentException naming the first parameter whose value the template does not allow */
    public static void check(SamTemplate template, Map<String, String> parameters) {
        template.parameters().forEach((name, definition) -> {
            String value = parameters.getOrDefault(name, "");
            String because = refusal(SamTemplate.map(definition), value);
            if (because != null) {
                Object description = SamTemplate.map(definition).get("ConstraintDescription");
                throw new IllegalArgumentException(
                        "Parameter '" + name + "' " + because + (description == null ? "" : " (" + description + ")"));
            }
        });
    }

    /**
     * Why CloudFormation would refuse {@code value} for the template's parameter {@code name}, or null when it would
     * take it. A CommaDelimitedList's AllowedPattern applies to each of its values.
     */
    public static String refusal(SamTemplate template, String name, String value) {
        Map<String, Object> definition = template.parameters().get(name);
        if (definition == null) {
            return "is not declared";
        }
        return refusal(definition, value);
    }

    private static String refusal(Map<String, Object> definition, String value) {
        Object allowed = definition.get("AllowedValues");
        if (allowed != null
                && SamTemplate.list(allowed).stream().map(String::valueOf).noneMatch(value::equals)) {
            return "must be one of AllowedValues";
        }
        Object pattern = definition.get("AllowedPattern");
        if (pattern != null) {
            Pattern compiled = Pattern.compile(String.valueOf(pattern));
            List<String> values = "CommaDelimitedList".equals(definition.get("Type"))
                    ? Arrays.asList(value.split(",", -1))
                    : List.of(value);
            if (!values.stream().allMatch(v -> compiled.matcher(v).matches())) {
                return "must match pattern " + pattern;
            }
        }
        // Lengths in characters (code points), as CloudFormation counts them; its own wording.
        Object minLength = definition.get("MinLength");
        if (minLength != null
                && value.codePointCount(0, value.length()) < Integer.parseInt(String.valueOf(minLength))) {
            return "must contain at least " + minLength + " characters";
        }
        Object maxLength = definition.get("MaxLength");
        if (maxLength != null
                && value.codePointCount(0, value.length()) > Integer.parseInt(String.valueOf(maxLength))) {
            return "must contain at most " + maxLength + " characters";
        }
        if ("Number".equals(definition.get("Type"))) {
            BigDecimal number;
            try {
                number = new BigDecimal(value.strip());
            } catch (NumberFormatException e) {
                return "must be a number";
            }
            Object min = definition.get("MinValue");
            if (min != null && number.compareTo(new BigDecimal(String.valueOf(min))) < 0) {
                return "must be a number not less than " + min;
            }
            Object max = definition.get("MaxValue");
            if (max != null && number.compareTo(new BigDecimal(String.valueOf(max))) > 0) {
                return "must be a number not greater than " + max;
            }
        }
        return null;
    }
}
