package dev.oneread.jobs;

import dev.oneread.json.Json;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ProjectStatus;
import dev.oneread.store.stats.StatsRollup;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One task of a job run, as a message on the job queue: which job, for which workspace (and which of its shards,
 * for a sharded tenant's stats; 0 for the whole workspace), in which run. The run id
 * is a ULID, so runs order by time: a worker applies a task only if its workspace has not seen this run (or a
 * later one) yet, which makes a redelivered task, or a rerun planner's duplicate, harmless.
 *
 * <p>A stats task that ran out of time sends itself again with {@code from}: where its count stopped and what it
 * had counted, so that its continuation goes on from there (a purge needs none: it sweeps what is left). A task is
 * input like any other: every field is checked here, and against the plan by {@link TaskAdmission}.
 *
 * <pre>{@code String body = new JobTask("stats", WorkspaceId.of("acme"), runId).toJson();}</pre>
 */
public record JobTask(String job, WorkspaceId workspaceId, int shard, String runId, StatsRollup.Partial from) {
    /** The jobs a worker knows: the stats rollup, and the purge of a deleted workspace. */
    public static final String STATS = "stats";

    public static final String PURGE = "purge";

    public JobTask {
        if (!STATS.equals(job) && !PURGE.equals(job)) {
            throw new IllegalArgumentException("unknown job " + job);
        }
        if (shard < 0 || shard > KeyCodec.MAX_SHARDS) {
            throw new IllegalArgumentException("a shard is 0 (the whole workspace) or 1.." + KeyCodec.MAX_SHARDS);
        }
        if (runId == null || !runId.matches("^[0-7][0-9A-HJKMNP-TV-Z]{25}$")) {
            throw new IllegalArgumentException("a run id is a ULID");
        }
        if (from == null || (!STATS.equals(job) && !from.equals(StatsRollup.Partial.START))) {
            throw new IllegalArgumentException("only a stats task goes on from a partial count");
        }
    }

    /** A task from its start. */
    public JobTask(String job, WorkspaceId workspaceId, int shard, String runId) {
        this(job, workspaceId, shard, runId, StatsRollup.Partial.START);
    }

    /** This task, going on from {@code partial}: its continuation. */
    public JobTask continuedFrom(StatsRollup.Partial partial) {
        return new JobTask(job, workspaceId, shard, runId, partial);
    }

    /** This task as the planner sent it, before any continuation. */
    public JobTask asPlanned() {
        return new JobTask(job, workspaceId, shard, runId);
    }

    /** A task over the whole workspace. */
    public JobTask(String job, WorkspaceId workspaceId, String runId) {
        this(job, workspaceId, 0, runId);
    }

    public String toJson() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("job", job);
        body.put("workspaceId", workspaceId.value());
        if (shard > 0) {
            body.put("shard", shard);
        }
        body.put("runId", runId);
        if (!from.equals(StatsRollup.Partial.START)) {
            Map<String, Object> partial = new LinkedHashMap<>();
            partial.put("partition", from.partition());
            from.after().ifPresent(id -> partial.put("after", id.value()));
            Map<String, Object> counts = new LinkedHashMap<>();
            from.counts().forEach((status, n) -> counts.put(status.name(), n));
            partial.put("counts", counts);
            partial.put("bytes", from.bytes());
            body.put("from", partial);
        }
        return Json.write(body);
    }

    /** @throws IllegalArgumentException for a message that is not a task (it goes to the DLQ, not into the table) */
    public static JobTask fromJson(String body) {
        try {
            Map<String, Object> task = Json.readObject(body);
            Object shard = task.getOrDefault("shard", 0);
            if (!(shard instanceof Integer n)) {
                throw new IllegalArgumentException("shard is not a number");
            }
            return new JobTask(
                    String.valueOf(task.get("job")),
                    WorkspaceId.of(String.valueOf(task.get("workspaceId"))),
                    n,
                    String.valueOf(task.get("runId")),
                    task.containsKey("from") ? partial(task.get("from")) : StatsRollup.Partial.START);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a job task", e);
        }
    }

    private static StatsRollup.Partial partial(Object value) {
        if (!(value instanceof Map<?, ?> from)
                || !(from.get("partition") instanceof Integer partition)
                || !(from.get("bytes") instanceof Integer || from.get("bytes") instanceof Long)
                || !(from.get("counts") instanceof Map<?, ?> counted)) {
            throw new IllegalArgumentException("from is not a partial count");
        }
        Map<ProjectStatus, Integer> counts = new EnumMap<>(ProjectStatus.class);
        counted.forEach((status, n) -> {
            if (!(n instanceof Integer count)) {
                throw new IllegalArgumentException("a count is not a number");
            }
            counts.put(ProjectStatus.valueOf(String.valueOf(status)), count);
        });
        Optional<ProjectId> after = from.get("after") == null
                ? Optional.empty()
                : Optional.of(ProjectId.of(String.valueOf(from.get("after"))));
        return new StatsRollup.Partial(partition, after, counts, ((Number) from.get("bytes")).longValue());
    }
}
