package dev.oneread.jobs;

/**
 * A task that is well formed but that nothing of this deployment could have sent: a shard its workspace's plan does
 * not give it, or a run from the future. The worker reports it as a failed batch item and changes nothing, so it
 * goes to the dead-letter queue, where an operator sees it.
 */
public final class RefusedTaskException extends IllegalArgumentException {
    public RefusedTaskException(String reason) {
        super(reason);
    }
}
