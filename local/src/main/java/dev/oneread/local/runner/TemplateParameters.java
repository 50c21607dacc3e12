package dev.oneread.local.runner;

import dev.oneread.local.SamTemplate;
import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The template's constraints on its parameters (AllowedValues, AllowedPattern, MinValue/MaxValue of a Number), checked
 * as CloudFormation checks them before a deploy, with its wording: a deploy it would refuse is refused locally too.
 */
final class TemplateParameters {
    private TemplateParameters() {}

    /** @throws IllegalArgumentException naming the first parameter whose value the template does not allow */
    static void check(SamTemplate template, Map<String, String> parameters) {
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

    private static String refusal(Map<String, Object> definition, String value) {
        Object allowed = definition.get("AllowedValues");
        if (allowed != null
                && SamTemplate.list(allowed).stream().map(String::valueOf).noneMatch(value::equals)) {
            return "must be one of AllowedValues";
        }
        Object pattern = definition.get("AllowedPattern");
        if (pattern != null
                && !Pattern.compile(String.valueOf(pattern)).matcher(value).matches()) {
            return "must match pattern " + pattern;
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
