package dev.oneread.operations;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What a job operation is: its name, function, what starts it, what it does, and where its requests are built. The
 * README's job table is generated from these, and template.yaml's functions are held to them (CatalogueTest).
 *
 * @param name what the README calls it ({@code plan})
 * @param function the template's logical id of its function ({@code PlanJobs})
 * @param events the types of its function's template events, in template order ({@code SQS}, {@code ScheduleV2}),
 *     none for a job an operator invokes
 * @param startedBy what starts it, in words
 * @param does what it does, in words
 * @param requests the feature classes that build its requests (a job's requests stay with its feature: a job reads
 *     and writes across workspaces with its own pacing, see JobPace)
 */
public record JobDescriptor(
        String name, String function, List<String> events, String startedBy, String does, List<String> requests) {
    public JobDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(function, () -> name + ": function is not specified");
        Objects.requireNonNull(startedBy, () -> name + ": what starts it is not specified");
        Objects.requireNonNull(does, () -> name + ": what it does is not specified");
        events = List.copyOf(events);
        requests = List.copyOf(requests);
    }

    /** The folder of its function under {@code functions/}: the logical id in kebab case. */
    public String directory() {
        return function.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }
}
