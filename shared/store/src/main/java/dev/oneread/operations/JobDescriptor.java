package dev.oneread.operations;

import java.util.List;
import java.util.Objects;

/**
 * What a job operation is: its name, function, what starts it, what it does, and the route operations whose requests
 * it sends as they are. Its own requests are its operation class's methods. The README's job table is generated from
 * these, and template.yaml's functions are held to them (CatalogueTest).
 *
 * @param name what the README calls it ({@code plan})
 * @param function the template's logical id of its function ({@code PlanJobs})
 * @param events the types of its function's template events, in template order ({@code SQS}, {@code ScheduleV2}),
 *     none for a job an operator invokes
 * @param startedBy what starts it, in words
 * @param does what it does, in words
 * @param reads the route operations whose requests it sends unchanged (the plan job pages the index's registry as
 *     {@code GET /workspaces} does), none for a job whose requests are all its own
 */
public record JobDescriptor(
        String name, String function, List<String> events, String startedBy, String does, List<Operation> reads) {
    public JobDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(function, () -> name + ": function is not specified");
        Objects.requireNonNull(startedBy, () -> name + ": what starts it is not specified");
        Objects.requireNonNull(does, () -> name + ": what it does is not specified");
        events = List.copyOf(events);
        reads = List.copyOf(reads);
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** The folder of its function under {@code functions/}: the logical id in kebab case. */
    public String directory() {
        return Descriptor.directoryOf(function);
    }

    /** Builds a job's descriptor field by field, as {@link Descriptor.Builder} does a route's. */
    public static final class Builder {
        private final String name;
        private String function;
        private List<String> events = List.of();
        private String startedBy;
        private String does;
        private List<Operation> reads = List.of();

        private Builder(String name) {
            this.name = name;
        }

        public Builder function(String function) {
            this.function = function;
            return this;
        }

        /** The types of its function's template events; none for a job an operator invokes. */
        public Builder events(String... events) {
            this.events = List.of(events);
            return this;
        }

        public Builder startedBy(String startedBy) {
            this.startedBy = startedBy;
            return this;
        }

        public Builder does(String does) {
            this.does = does;
            return this;
        }

        /** The route operations whose requests it sends unchanged. */
        public Builder reads(Operation... reads) {
            this.reads = List.of(reads);
            return this;
        }

        public JobDescriptor build() {
            return new JobDescriptor(name, function, events, startedBy, does, reads);
        }
    }
}
