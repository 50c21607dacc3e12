package dev.oneread.local.iam;

import dev.oneread.local.template.SamTemplate;
import dev.oneread.local.template.TemplateValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A policy's values as CloudFormation gives them to IAM, for one local run: {@link TemplateValues} first (parameters,
 * {@code Fn::If}, {@code AWS::NoValue}), then what only a policy needs: {@code Ref} and {@code Fn::GetAtt ... Arn}
 * of the template's tables, queues, log groups and roles, the pseudo parameters, and {@code Fn::Sub} over them. A
 * local run is one account in one region: {@link #ACCOUNT}, {@link #REGION}.
 */
public final class PolicyValues {
    /** The local run's account, as every local ARN names it (LocalStack's secret and redrive operators too). */
    public static final String ACCOUNT = "000000000000";

    public static final String REGION = "us-east-1";
    private static final Pattern SUB_VARIABLE = Pattern.compile("\\$\\{([^}!]+)}");

    private final SamTemplate template;
    private final TemplateValues values;
    private final Map<String, String> parameters;
    private final Map<String, String> physicalNames;

    /**
     * @param physicalNames a resource's local name by logical id: each table's name, each queue's name (the end of
     *     its URL); a resource not named keeps its logical id
     */
    public PolicyValues(SamTemplate template, Map<String, String> parameters, Map<String, String> physicalNames) {
        this.template = template;
        this.values = TemplateValues.of(template, parameters);
        Map<String, String> all = new LinkedHashMap<>();
        template.parameters().forEach((name, p) -> {
            if (p.get("Default") != null) {
                all.put(name, String.valueOf(p.get("Default")));
            }
        });
        all.putAll(parameters);
        this.parameters = all;
        this.physicalNames = Map.copyOf(physicalNames);
    }

    /** {@code value} with every intrinsic a policy uses resolved; null for {@code AWS::NoValue}. */
    public Object resolve(Object value) {
        return intrinsics(values.resolve(value));
    }

    private Object intrinsics(Object value) {
        if (value instanceof Map<?, ?> map && map.size() == 1) {
            Object ref = map.get("Ref");
            if (ref instanceof String name) {
                return ref(name);
            }
            if (map.get("Fn::GetAtt") instanceof List<?> getAtt && getAtt.size() == 2) {
                return attribute(String.valueOf(getAtt.get(0)), String.valueOf(getAtt.get(1)));
            }
            if (map.containsKey("Fn::Sub")) {
                return sub(map.get("Fn::Sub"));
            }
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), intrinsics(v)));
            return out;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            list.forEach(v -> out.add(intrinsics(v)));
            return out;
        }
        return value;
    }

    private String ref(String name) {
        return switch (name) {
            case "AWS::Region" -> REGION;
            case "AWS::AccountId" -> ACCOUNT;
            case "AWS::Partition" -> "aws";
            case "AWS::URLSuffix" -> "amazonaws.com";
            default -> parameters.containsKey(name) ? parameters.get(name) : physicalNames.getOrDefault(name, name);
        };
    }

    /** {@code Fn::GetAtt X.Arn} of the resource types a policy here names. */
    private String attribute(String logicalId, String attribute) {
        Map<String, Object> resource = template.resources().get(logicalId);
        if (resource == null || !"Arn".equals(attribute)) {
            throw new IllegalArgumentException(
                    "the local IAM cannot resolve Fn::GetAtt " + logicalId + "." + attribute);
        }
        String name = physicalNames.getOrDefault(logicalId, logicalId);
        String type = String.valueOf(resource.get("Type"));
        return switch (type) {
            case "AWS::DynamoDB::Table" -> tableArn(name);
            case "AWS::SQS::Queue" -> queueArn(name);
            case "AWS::Logs::LogGroup" -> arn("logs", REGION, String.join(":", "log-group", name, "*"));
            case "AWS::IAM::Role" -> arn("iam", "", "role/" + name);
            default -> throw new IllegalArgumentException("the local IAM cannot resolve the Arn of a " + type);
        };
    }

    /** {@code Fn::Sub}: a string, or a string and its own variables; {@code ${X}} and {@code ${X.Arn}}. */
    private String sub(Object argument) {
        String text;
        Map<String, Object> own = Map.of();
        if (argument instanceof List<?> list && list.size() == 2) {
            text = String.valueOf(list.get(0));
            own = SamTemplate.map(intrinsics(list.get(1)));
        } else {
            text = String.valueOf(argument);
        }
        Matcher variables = SUB_VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (variables.find()) {
            String variable = variables.group(1);
            String replacement;
            if (own.containsKey(variable)) {
                replacement = String.valueOf(own.get(variable));
            } else if (variable.contains(".")) {
                String[] parts = variable.split("\\.", 2);
                replacement = attribute(parts[0], parts[1]);
            } else {
                replacement = ref(variable);
            }
            variables.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        variables.appendTail(out);
        return out.toString();
    }

    /** A table's ARN in the local account and region. */
    public static String tableArn(String tableName) {
        return arn("dynamodb", REGION, "table/" + tableName);
    }

    /** A queue's ARN in the local account and region. */
    public static String queueArn(String queueName) {
        return arn("sqs", REGION, queueName);
    }

    /** An ARN of the local account: {@code arn:aws:<service>:<region>:000000000000:<resource>}. */
    public static String arn(String service, String region, String resource) {
        return String.join(":", "arn", "aws", service, region, ACCOUNT, resource);
    }
}
