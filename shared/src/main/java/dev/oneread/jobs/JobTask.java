package dev.oneread.jobs;

import dev.oneread.json.Json;
import dev.oneread.keys.WorkspaceId;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One task of a job run, as a message on the job queue: which job, for which workspace, in which run. The run id
 * is a ULID, so runs order by time: a worker applies a task only if its workspace has not seen this run (or a
 * later one) yet, which makes a redelivered task, or a rerun planner's duplicate, harmless.
 *
 * <pre>{@code String body = new JobTask("stats", WorkspaceId.of("acme"), runId).toJson();}</pre>
 */
public record JobTask(String job, WorkspaceId workspaceId, String runId) {
    /** The jobs a worker knows. */
    public static final String STATS = "stats";

    public JobTask {
        if (!STATS.equals(job)) {
            throw new IllegalArgumentException("unknown job " + job);
        }
        if (runId == null || !runId.matches("^[0-7][0-9A-HJKMNP-TV-Z]{25}$")) {
            throw new IllegalArgumentException("a run id is a ULID");
        }
    }

    public String toJson() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("job", job);
        body.put("workspaceId", workspaceId.value());
        body.put("runId", runId);
        return Json.write(body);
    }

    /** @throws IllegalArgumentException for a message that is not a task (it goes to the DLQ, not into the table) */
    public static JobTask fromJson(String body) {
        try {
            Map<String, Object> task = Json.readObject(body);
            return new JobTask(
                    String.valueOf(task.get("job")),
                    WorkspaceId.of(String.valueOf(task.get("workspaceId"))),
                    String.valueOf(task.get("runId")));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a job task", e);
        }
    }
}
