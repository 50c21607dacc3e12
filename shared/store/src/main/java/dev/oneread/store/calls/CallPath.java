package dev.oneread.store.calls;

/**
 * Whom a DynamoDB client serves, which decides how it retries a throttle (see {@link Retries#of(CallPath)}).
 *
 * <ul>
 *   <li>{@link #REQUEST}: an API function answering a caller within API Gateway's 30 s cap and its own Timeout
 *       (template.yaml): a few quick retries, then a 503 with Retry-After, so the caller's own retry comes later.
 *   <li>{@link #JOB}: run-job, plan-jobs, the migration and the backfill, with minutes to spare: back off long and
 *       yield the partition's capacity to the requests, rather than give up a task that must be redone.
 * </ul>
 */
public enum CallPath {
    REQUEST,
    JOB
}
