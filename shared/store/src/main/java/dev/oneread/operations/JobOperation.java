package dev.oneread.operations;

import java.util.Objects;

/**
 * A job's operation: one class per job function, listed in {@link Operations#jobs()}. Its class builds the job's
 * requests (pure static methods, as a route's {@code generateRequest}); the job's feature, above this package, makes
 * each call and paces it (see JobPace), since a job reads and writes across workspaces at its own pace.
 *
 * <pre>{@code Operations.jobs().get(0).descriptor().function()  // PlanJobs}</pre>
 */
public abstract class JobOperation {
    private final JobDescriptor descriptor;

    protected JobOperation(JobDescriptor descriptor) {
        this.descriptor = Objects.requireNonNull(descriptor, "descriptor");
    }

    /** Its name, function, what starts it, what it does, and the route operations whose requests it sends. */
    public final JobDescriptor descriptor() {
        return descriptor;
    }
}
