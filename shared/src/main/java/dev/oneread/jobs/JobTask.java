package dev.oneread.jobs;

import dev.oneread.json.Json;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.WorkspaceId;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One task of a job run, as a message on the job queue: which job, for which workspace (and which of its shards,
 * for a sharded tenant's stats; 0 for the whole workspace), in which run. The run id
 * is a ULID, so runs order by time: a worker applies a task only if its workspace has not seen this run (or a
 * later one) yet, which makes a redelivered task, or a rerun planner's duplicate, harmless.
 *
 * <pre>{@code String body = new JobTask("stats", WorkspaceId.of("acme"), runId).toJson();}</pre>
 */
public record JobTask(String job, WorkspaceId workspaceId, int shard, String runId) {
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
                    String.valueOf(task.get("runId")));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a job task", e);
        }
    }
}
