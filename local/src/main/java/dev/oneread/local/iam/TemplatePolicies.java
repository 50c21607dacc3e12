package dev.oneread.local.iam;

import dev.oneread.json.Json;
import dev.oneread.local.template.SamTemplate;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Each function's role, read from template.yaml as SAM and CloudFormation would create it: a function with
 * {@code Policies} gets SAM's role {@code <Function>Role}, with its inline statements and its SAM policy templates
 * expanded as SAM expands them (the definitions vendored in {@code iam/sam-policy-templates.json}); a function with
 * {@code Role} gets that role's inline policies. Values are resolved for one local run ({@link PolicyValues}).
 *
 * <pre>{@code Map<String, FunctionRole> roles = TemplatePolicies.read(template, values);}</pre>
 */
public final class TemplatePolicies {
    static final String SAM_TEMPLATES = "/iam/sam-policy-templates.json";

    private TemplatePolicies() {}

    /** Every function's role, by function logical id. */
    public static Map<String, FunctionRole> read(SamTemplate template, PolicyValues values) {
        Map<String, Object> samTemplates = samTemplates();
        Map<String, FunctionRole> roles = new LinkedHashMap<>();
        template.resourcesOfType("AWS::Serverless::Function").forEach((id, resource) -> {
            Map<String, Object> properties = SamTemplate.map(resource.get("Properties"));
            Object role = properties.get("Role");
            if (role != null) {
                String roleId = roleLogicalId(id, role);
                roles.put(id, new FunctionRole(id, roleId, new Policy(roleStatements(template, roleId, values))));
            } else {
                roles.put(
                        id,
                        new FunctionRole(
                                id,
                                id + "Role",
                                new Policy(samStatements(id, properties.get("Policies"), samTemplates, values))));
            }
        });
        return roles;
    }

    /** The logical ids of the SAM policy templates a function of {@code template} uses. */
    public static List<String> templatesUsed(SamTemplate template) {
        List<String> used = new ArrayList<>();
        template.resourcesOfType("AWS::Serverless::Function")
                .values()
                .forEach(resource -> SamTemplate.list(
                                SamTemplate.map(resource.get("Properties")).get("Policies"))
                        .forEach(entry -> {
                            Map<String, Object> policy = SamTemplate.map(entry);
                            if (!policy.containsKey("Statement")) {
                                used.addAll(policy.keySet());
                            }
                        }));
        return used.stream().distinct().toList();
    }

    /** The vendored SAM policy templates, by name. */
    public static Map<String, Object> samTemplates() {
        try (InputStream in = TemplatePolicies.class.getResourceAsStream(SAM_TEMPLATES)) {
            if (in == null) {
                throw new IllegalStateException(SAM_TEMPLATES + " is not on the runner's class path");
            }
            return SamTemplate.map(Json.readObject(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                    .get("Templates"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String roleLogicalId(String function, Object role) {
        if (role instanceof Map<?, ?> map && map.get("Fn::GetAtt") instanceof List<?> getAtt && getAtt.size() == 2) {
            return String.valueOf(getAtt.get(0));
        }
        throw new IllegalArgumentException(
                function + ": the local IAM reads a Role given as !GetAtt <Role>.Arn of this template, not " + role);
    }

    private static List<Statement> roleStatements(SamTemplate template, String roleId, PolicyValues values) {
        Map<String, Object> role = SamTemplate.map(template.resources().get(roleId));
        if (!"AWS::IAM::Role".equals(role.get("Type"))) {
            throw new IllegalArgumentException(roleId + " is not an AWS::IAM::Role of template.yaml");
        }
        List<Statement> statements = new ArrayList<>();
        for (Object entry :
                SamTemplate.list(SamTemplate.map(role.get("Properties")).get("Policies"))) {
            Map<String, Object> policy = SamTemplate.map(entry);
            String name = roleId + " " + policy.get("PolicyName");
            statements.addAll(statementsOf(name, SamTemplate.map(policy.get("PolicyDocument")), values));
        }
        return statements;
    }

    private static List<Statement> samStatements(
            String function, Object policies, Map<String, Object> samTemplates, PolicyValues values) {
        List<Statement> statements = new ArrayList<>();
        List<Object> entries = SamTemplate.list(policies);
        for (int i = 0; i < entries.size(); i++) {
            Object entry = entries.get(i);
            Map<String, Object> policy = SamTemplate.map(entry);
            if (policy.containsKey("Statement")) {
                statements.addAll(statementsOf(function + " policy " + (i + 1), policy, values));
            } else if (policy.size() == 1) {
                String name = policy.keySet().iterator().next();
                statements.addAll(
                        statementsOf(function + " " + name, expand(name, policy.get(name), samTemplates), values));
            } else {
                throw new IllegalArgumentException(function + ": the local IAM reads inline policies and SAM policy "
                        + "templates, not " + entry + " (a managed policy has no definition here)");
            }
        }
        return statements;
    }

    /** A SAM policy template's Definition with its parameters' values in place, as SAM's translator puts them. */
    static Map<String, Object> expand(String name, Object given, Map<String, Object> samTemplates) {
        Map<String, Object> definition = SamTemplate.map(samTemplates.get(name));
        if (definition.isEmpty()) {
            throw new IllegalArgumentException("template.yaml uses the SAM policy template " + name
                    + ", which is not vendored in " + SAM_TEMPLATES + ": copy it from SAM's policy_templates.json");
        }
        Map<String, Object> parameters = SamTemplate.map(given);
        for (String parameter : SamTemplate.map(definition.get("Parameters")).keySet()) {
            if (!parameters.containsKey(parameter)) {
                throw new IllegalArgumentException(name + " needs its parameter " + parameter);
            }
        }
        return SamTemplate.map(substitute(definition.get("Definition"), parameters));
    }

    /** SAM's own step: {@code {Ref: P}} of a template parameter becomes the value the function gave for it. */
    private static Object substitute(Object value, Map<String, Object> parameters) {
        if (value instanceof Map<?, ?> map) {
            if (map.size() == 1 && map.get("Ref") instanceof String ref && parameters.containsKey(ref)) {
                return parameters.get(ref);
            }
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), substitute(v, parameters)));
            return out;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(v -> substitute(v, parameters)).toList();
        }
        return value;
    }

    private static List<Statement> statementsOf(String label, Map<String, Object> document, PolicyValues values) {
        Map<String, Object> resolved = SamTemplate.map(values.resolve(document));
        Object statement = resolved.get("Statement");
        List<Object> entries = statement instanceof List<?> ? SamTemplate.list(statement) : List.of(statement);
        List<Statement> out = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            out.add(Statement.parse(label + " statement " + (i + 1), SamTemplate.map(entries.get(i))));
        }
        return out;
    }
}
