package dev.oneread.operations;

import java.util.Objects;

/**
 * A job's operation: one class per job function, listed in {@link Operations#jobs()}. Its requests are built by its
 * feature's {@code *Requests} classes (named in its descriptor), above this package, since a job's work is its
 * feature's.
 *
 * <pre>{@code Operations.jobs().get(0).descriptor().function()  // PlanJobs}</pre>
 */
public abstract class JobOperation {
    private final JobDescriptor descriptor;

    protected JobOperation(JobDescriptor descriptor) {
        this.descriptor = Objects.requireNonNull(descriptor, "descriptor");
    }

    /** Its name, function, what starts it, what it does, and where its requests are built. */
    public final JobDescriptor descriptor() {
        return descriptor;
    }
}
