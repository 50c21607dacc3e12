package dev.oneread.operations;

import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * What an operation is, apart from its requests: its name, route, function, scope, key condition and cost. Each
 * operation class declares its own with {@link #builder}; the catalogue, the budgets, priming, {@code expr}, the
 * console's builder and the README's and runbook's tables all read it from {@link Operations#all()}.
 *
 * <pre>{@code
 * Descriptor.builder("workspace")
 *         .route("GET", "/workspaces/{workspaceId}")
 *         .function("GetWorkspace")
 *         .scope(Scope.TENANT)
 *         .inputs(Input.WORKSPACE)
 *         .keyCondition("EntityRef = WS#<id> AND Detail = META")
 *         .calls("1 GetItem")
 *         .budget(CostBudget.of("1 GetItem", 1, CostBudget.Fan.NONE, 0, "0.5"))
 *         .build();
 * }</pre>
 *
 * @param name what {@code expr} and the console call it ({@code list-projects})
 * @param function the template's logical id of its function ({@code ListProjects})
 * @param keyCondition the keys it reads or writes, in DynamoDB's words, as the runbook lists them
 * @param calls its DynamoDB calls, in words, as the README's table gives them
 * @param inputs what a sample of it needs besides the table
 */
public record Descriptor(
        String name,
        Route route,
        String function,
        Scope scope,
        String keyCondition,
        String calls,
        Set<Input> inputs,
        CostBudget budget) {
    public Descriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(route, () -> name + ": route is not specified");
        Objects.requireNonNull(function, () -> name + ": function is not specified");
        Objects.requireNonNull(scope, () -> name + ": scope is not specified");
        Objects.requireNonNull(keyCondition, () -> name + ": key condition is not specified");
        Objects.requireNonNull(calls, () -> name + ": calls are not specified");
        Objects.requireNonNull(budget, () -> name + ": budget is not specified");
        inputs = Set.copyOf(inputs);
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** Whether only operators may call it (its route requires the {@code oneread/admin} scope alone). */
    public boolean operators() {
        return scope == Scope.OPERATOR;
    }

    /** The folder of its function under {@code functions/}: the logical id in kebab case. */
    public String directory() {
        return directoryOf(function);
    }

    /** The folder of a function under {@code functions/}: its logical id in kebab case ({@code list-projects}). */
    static String directoryOf(String function) {
        return function.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /** Its openapi.yaml {@code operationId}: the function's logical id in lower camel case. */
    public String operationId() {
        return Character.toLowerCase(function.charAt(0)) + function.substring(1);
    }

    /** Builds a descriptor field by field, so that no declaration is a row of positional arguments. */
    public static final class Builder {
        private final String name;
        private Route route;
        private String function;
        private Scope scope;
        private String keyCondition;
        private String calls;
        private Set<Input> inputs = Set.of();
        private CostBudget budget;

        private Builder(String name) {
            this.name = name;
        }

        public Builder route(String method, String path) {
            return route(method, path, "");
        }

        /** @param query how the README shows its query parameters ({@code ?status=}) */
        public Builder route(String method, String path, String query) {
            this.route = new Route(method, path, query);
            return this;
        }

        public Builder function(String function) {
            this.function = function;
            return this;
        }

        public Builder scope(Scope scope) {
            this.scope = scope;
            return this;
        }

        public Builder keyCondition(String keyCondition) {
            this.keyCondition = keyCondition;
            return this;
        }

        public Builder calls(String calls) {
            this.calls = calls;
            return this;
        }

        public Builder inputs(Input... inputs) {
            this.inputs = Set.of(inputs);
            return this;
        }

        public Builder budget(CostBudget budget) {
            this.budget = budget;
            return this;
        }

        public Descriptor build() {
            return new Descriptor(name, route, function, scope, keyCondition, calls, inputs, budget);
        }
    }
}
