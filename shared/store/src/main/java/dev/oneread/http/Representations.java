package dev.oneread.http;

import dev.oneread.model.HotPartition;
import dev.oneread.model.Page;
import dev.oneread.model.Project;
import dev.oneread.model.Workspace;
import dev.oneread.model.WorkspaceCollection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON shape of each model record: camelCase fields, ISO-8601 UTC timestamps, ids as plain strings. */
public final class Representations {
    private Representations() {}

    public static Map<String, Object> workspace(Workspace workspace) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", workspace.id().value());
        out.put("name", workspace.name());
        out.put("settings", workspace.settings());
        out.put("createdAt", workspace.createdAt().toString());
        out.put("updatedAt", workspace.updatedAt().toString());
        out.put("version", workspace.version());
        if (workspace.projectQuota() != null) {
            out.put("projectQuota", workspace.projectQuota());
        }
        if (workspace.stats() != null) {
            Map<String, Object> stats = new LinkedHashMap<>();
            stats.put("ACTIVE", workspace.stats().active());
            stats.put("PAUSED", workspace.stats().paused());
            stats.put("ARCHIVED", workspace.stats().archived());
            stats.put("total", workspace.stats().total());
            stats.put("asOf", workspace.stats().asOf().toString());
            out.put("stats", stats);
        }
        return out;
    }

    public static Map<String, Object> project(Project project) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", project.id().value());
        out.put("workspaceId", project.workspaceId().value());
        out.put("name", project.name());
        out.put("description", project.description());
        out.put("status", project.status().name());
        out.put("createdAt", project.createdAt().toString());
        out.put("updatedAt", project.updatedAt().toString());
        out.put("version", project.version());
        return out;
    }

    /** @param nextCursor the sealed cursor of the next page, null on the last */
    public static Map<String, Object> projectPage(Page<Project> page, String nextCursor) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("items", projects(page.items()));
        out.put("nextCursor", nextCursor);
        return out;
    }

    /** A page of workspaces (the operators' registry listing); {@code nextCursor} null on the last. */
    public static Map<String, Object> workspacePage(Page<Workspace> page, String nextCursor) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("items", page.items().stream().map(Representations::workspace).toList());
        out.put("nextCursor", nextCursor);
        return out;
    }

    /** A page of the hot-tenant report; {@code nextCursor} null on the last. */
    public static Map<String, Object> hotPartitionPage(Page<HotPartition> page, String nextCursor) {
        List<Map<String, Object>> items = new ArrayList<>();
        for (HotPartition entry : page.items()) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("workspaceId", entry.workspaceId().value());
            item.put("shard", entry.shard());
            item.put("projects", entry.projects());
            item.put("bytes", entry.bytes());
            item.put("currentShards", entry.currentShards());
            item.put("recommendedShards", entry.recommendedShards());
            item.put("runId", entry.runId());
            item.put("asOf", entry.asOf().toString());
            items.add(item);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("items", items);
        out.put("nextCursor", nextCursor);
        return out;
    }

    /** @param nextCursor the sealed cursor of the next page, null on the last */
    public static Map<String, Object> collection(WorkspaceCollection collection, String nextCursor) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put(
                "workspace",
                collection.workspace().map(Representations::workspace).orElse(null));
        out.put("projects", projects(collection.projects()));
        out.put("nextCursor", nextCursor);
        return out;
    }

    /** A strong ETag from the version: it changes exactly when the stored item does. */
    public static String etag(long version) {
        return "\"" + version + "\"";
    }

    private static List<Object> projects(List<Project> projects) {
        List<Object> out = new ArrayList<>(projects.size());
        projects.forEach(p -> out.add(project(p)));
        return out;
    }
}
