package dev.oneread.priming;

import dev.oneread.keys.ProjectId;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectStatus;
import dev.oneread.model.Workspace;
import java.time.Instant;
import java.util.Map;

/**
 * What a function's {@link dev.oneread.function.HttpApiFunction#primingSuccess} reads: values in the priming
 * request's workspace, which cannot exist, never written, and read only from a client that answers with them
 * ({@link SampleStore}). They carry every field a stored one carries (settings, a description), so that priming
 * parses and renders all of them.
 */
public final class PrimingSamples {
    private static final Instant SOME_TIME = Instant.parse("2026-01-01T00:00:00Z");

    public static final Workspace WORKSPACE = new Workspace(
            WorkspaceId.of(PrimingRequest.WORKSPACE),
            "SnapStart priming",
            Map.of("plan", "team", "limits", Map.of("projects", 100)),
            SOME_TIME,
            SOME_TIME,
            1,
            null,
            100);

    public static final Project PROJECT = new Project(
            ProjectId.of(PrimingRequest.PROJECT),
            WorkspaceId.of(PrimingRequest.WORKSPACE),
            "SnapStart priming",
            "a sample that is never stored",
            ProjectStatus.ACTIVE,
            SOME_TIME,
            SOME_TIME,
            1);

    private PrimingSamples() {}
}
