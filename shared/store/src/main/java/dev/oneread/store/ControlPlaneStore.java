package dev.oneread.store;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ListPartitions;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ProjectLocation;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.CreationToken;
import dev.oneread.model.ExpectedVersion;
import dev.oneread.model.ListPosition;
import dev.oneread.model.NewProject;
import dev.oneread.model.NewWorkspace;
import dev.oneread.model.Page;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectPatch;
import dev.oneread.model.ProjectQuota;
import dev.oneread.model.ProjectStatus;
import dev.oneread.model.Workspace;
import dev.oneread.model.WorkspaceCollection;
import dev.oneread.model.WorkspacePatch;
import dev.oneread.operations.CreateProjectOperation;
import dev.oneread.operations.CreateWorkspaceOperation;
import dev.oneread.operations.DeleteProjectOperation;
import dev.oneread.operations.DeleteWorkspaceOperation;
import dev.oneread.operations.GetProjectOperation;
import dev.oneread.operations.GetWorkspaceCollectionOperation;
import dev.oneread.operations.GetWorkspaceOperation;
import dev.oneread.operations.ListProjectsByStatusOperation;
import dev.oneread.operations.ListProjectsOperation;
import dev.oneread.operations.ListWorkspacesOperation;
import dev.oneread.operations.OperationContext;
import dev.oneread.operations.UpdateProjectOperation;
import dev.oneread.operations.UpdateWorkspaceOperation;
import dev.oneread.operations.WriteConditions;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.calls.QueryPool;
import dev.oneread.store.exceptions.AlreadyExistsException;
import dev.oneread.store.exceptions.NotFoundException;
import dev.oneread.store.exceptions.PreconditionFailedException;
import dev.oneread.store.exceptions.QuotaExceededException;
import dev.oneread.store.internal.FanOut;
import dev.oneread.store.internal.StoreCalls;
import dev.oneread.store.internal.WriteOutcome;
import dev.oneread.store.items.Items;
import dev.oneread.store.purge.Purge;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * The facade of the routes' operations: one method per access pattern. Each builds its request with its operation
 * ({@code dev.oneread.operations}, pure: {@link GetWorkspaceOperation} and the others), makes exactly one DynamoDB
 * call through {@link StoreCalls} (one per shard, in parallel, for a hot workspace's lists), and maps the result
 * back with its operation. A project is looked for where its {@link ProjectLocation} says, key after
 * key, by one walk; a refused versioned write becomes a {@link Conflict}, and only here an exception.
 *
 * <pre>{@code Workspace ws = store.getWorkspace(WorkspaceId.of("acme"), tally);}</pre>
 */
public final class ControlPlaneStore {
    private final StoreCalls calls;
    private final FanOut fanOut;
    private final FanOut indexFanOut;
    private final ProjectQuota quota;
    private final RecentWorkspaces recentWorkspaces;
    private final OperationContext context;
    private final ShardPlan plan;
    private final QueryPool pool;
    private final String tableName;

    /** A store for unsharded workspaces only. */
    public ControlPlaneStore(DynamoDbClient client, String tableName) {
        this(client, null, tableName, ShardPlan.none());
    }

    /**
     * @param pool        for the parallel fan-out over a hot workspace's shards; null where the function
     *                    never lists (point reads and writes of a sharded workspace stay one sync call)
     * @param plan        which workspaces are sharded, and which are being migrated
     */
    public ControlPlaneStore(DynamoDbClient client, QueryPool pool, String tableName, ShardPlan plan) {
        this.calls = new StoreCalls(client, pool);
        this.fanOut = new FanOut(calls);
        this.indexFanOut = new FanOut(calls, KeyCodec.INDEX_SORT_KEY);
        this.context = OperationContext.of(tableName, plan);
        this.plan = plan;
        this.pool = pool;
        this.tableName = tableName;
        this.quota = new ProjectQuota(Integer.MAX_VALUE);
        this.recentWorkspaces = RecentWorkspaces.none();
    }

    /** {@code from} with another quota and cache of recent workspaces: the same client, pool, table and plan. */
    private ControlPlaneStore(ControlPlaneStore from, ProjectQuota quota, RecentWorkspaces recentWorkspaces) {
        this.calls = from.calls;
        this.fanOut = from.fanOut;
        this.indexFanOut = from.indexFanOut;
        this.context = from.context;
        this.plan = from.plan;
        this.pool = from.pool;
        this.tableName = from.tableName;
        this.quota = quota;
        this.recentWorkspaces = recentWorkspaces;
    }

    /**
     * A copy of this store that checks creates against {@code quota} (by the workspace's last counts, read with the
     * workspace item a create reads anyway: no extra call). Without it, a store sets no quota.
     */
    public ControlPlaneStore withProjectQuota(ProjectQuota quota) {
        return new ControlPlaneStore(this, quota, recentWorkspaces);
    }

    /**
     * A copy of this store whose {@link #createProject} reuses a recent read of its workspace
     * ({@link RecentWorkspaces}).
     */
    public ControlPlaneStore withRecentWorkspaces(RecentWorkspaces recent) {
        return new ControlPlaneStore(this, quota, recent);
    }

    /**
     * This store, with its table, plan, pool and quota, on another client: priming's sample store reads through one
     * that answers every call with a sample ({@link dev.oneread.priming.SampleStore}).
     */
    public ControlPlaneStore onClient(DynamoDbClient client) {
        return new ControlPlaneStore(client, pool, tableName, plan).withProjectQuota(quota);
    }

    public String tableName() {
        return tableName;
    }

    public ShardPlan plan() {
        return plan;
    }

    /** One workspace: 1 GetItem. One being purged is gone already (404). */
    public Workspace getWorkspace(WorkspaceId id, CallTally tally) {
        return GetWorkspaceOperation.transformResponse(
                calls.get(GetWorkspaceOperation.generateRequest(context, id), tally));
    }

    /**
     * Deletes a workspace (see {@link DeleteWorkspaceOperation}): 1 UpdateItem. Returns the purge that
     * will delete its items: this request's, or, when the workspace is being purged already, that purge, so a
     * second DELETE is answered as the first was and changes nothing. 404 when there is no such workspace; 412
     * when {@code expected} names another version (of a workspace being purged: another than the one its DELETE
     * deleted). A refusal is explained as for {@link #updateWorkspace}.
     */
    public Purge deleteWorkspace(
            WorkspaceId id, ExpectedVersion expected, String purgeRun, Instant now, CallTally tally) {
        PrimaryKey key = KeyCodec.workspaceKey(id);
        return calls.update(DeleteWorkspaceOperation.generateRequest(context, id, expected, purgeRun, now), tally)
                .then(written -> new Purge(id, purgeRun, now), refused -> {
                    Map<String, AttributeValue> current = refused.current()
                            .or(() -> calls.get(WriteConditions.readAfterConflict(context, key), tally))
                            .filter(item -> !Items.isTombstone(item))
                            .orElseThrow(() -> new NotFoundException("workspace"));
                    if (Items.isPurging(current)) {
                        // The DELETE that started the purge bumped the version (so every later versioned write is
                        // refused): a retry of that DELETE names the version before, any other version is stale.
                        long deletedVersion =
                                Long.parseLong(current.get(Items.VERSION).n()) - 1;
                        if (!expected.match(() -> true, version -> version == deletedVersion)) {
                            throw new PreconditionFailedException("workspace", refused.cause());
                        }
                        return Purge.of(id, current);
                    }
                    if (!current.containsKey(Items.VERSION)) {
                        throw new NotFoundException("workspace");
                    }
                    throw new PreconditionFailedException("workspace", refused.cause());
                });
    }

    /**
     * One project. 1 GetItem, in its shard for a hot workspace. While a workspace is being migrated, the
     * unsharded copy is read first (it is the current one as long as it exists), then the shard: 2 at most.
     */
    public Project getProject(WorkspaceId workspaceId, ProjectId projectId, CallTally tally) {
        ProjectLocation location = plan.locate(workspaceId, projectId);
        return GetProjectOperation.transformResponse(walk(
                        location,
                        key -> calls.get(
                                        GetProjectOperation.generateRequest(
                                                context, key, location.readConsistently(key)),
                                        tally)
                                .filter(item -> !Items.isTombstone(item)))
                .item());
    }

    /**
     * Creates a workspace at version 1. 1 conditional PutItem; 409 territory if the id is taken by another
     * request (a refusal by this request's own item, from an attempt whose answer was lost, is the success it
     * was: see {@link #create}).
     */
    public Workspace createWorkspace(NewWorkspace request, Instant now, CreationToken token, CallTally tally) {
        Workspace workspace = new Workspace(
                request.id(), request.name(), request.settings(), now, now, 1, null, request.projectQuota());
        PrimaryKey key = KeyCodec.workspaceKey(workspace.id());
        return create(
                        CreateWorkspaceOperation.generateRequest(context, workspace, token),
                        key,
                        token,
                        "workspace",
                        tally)
                .map(Items::workspace)
                .orElse(workspace);
    }

    /**
     * Creates a project in an existing workspace: 1 GetItem (the workspace must exist) then 1 conditional
     * PutItem. Two calls because the engine has no transactions; see docs/access-patterns.md for the cost. A project this
     * request already created (its answer lost) is returned as it stands.
     */
    public Project createProject(
            WorkspaceId workspaceId,
            ProjectId projectId,
            NewProject request,
            Instant now,
            CreationToken token,
            CallTally tally) {
        Workspace workspace = recentWorkspaces.get(workspaceId, () -> getWorkspace(workspaceId, tally));
        return createProjectIn(workspace, projectId, request, now, token, tally);
    }

    /**
     * The create of {@link #createProject} in {@code workspace}, which the caller has just read live: the quota
     * check and the 1 conditional PutItem, no read. For a caller that needs the workspace item itself before it
     * writes (the local console, which also minds a move's lease), so that its creates hold the same rules.
     */
    public Project createProjectIn(
            Workspace workspace,
            ProjectId projectId,
            NewProject request,
            Instant now,
            CreationToken token,
            CallTally tally) {
        WorkspaceId workspaceId = workspace.id();
        if (quota.exceededBy(workspace)) {
            throw new QuotaExceededException(
                    "the workspace has " + workspace.stats().total() + " projects (as of "
                            + workspace.stats().asOf() + "), its quota is " + quota.limitFor(workspace));
        }
        ProjectStatus status = request.status() == null ? ProjectStatus.ACTIVE : request.status();
        Project project =
                new Project(projectId, workspaceId, request.name(), request.description(), status, now, now, 1);
        PrimaryKey home = plan.locate(workspaceId, projectId).home();
        return create(CreateProjectOperation.generateRequest(context, project, token), home, token, "project", tally)
                .map(Items::project)
                .orElse(project);
    }

    /**
     * A conditional put that never overwrites. Written: empty. Refused by an item that carries {@code token}:
     * that item, for this request created it in an attempt whose answer was lost (DynamoDB can commit a write
     * and still answer 500 or time out; the SDK's retry, or the client's, then meets it). Refused by any other
     * item: an {@link AlreadyExistsException}. The item comes with the refusal from DynamoDB; an engine that
     * drops it (dynalite) costs 1 consistent GetItem more.
     */
    private Optional<Map<String, AttributeValue>> create(
            PutItemRequest put, PrimaryKey key, CreationToken token, String what, CallTally tally) {
        return calls.put(put, tally).then(written -> Optional.empty(), refused -> {
            Optional<Map<String, AttributeValue>> inTheWay =
                    refused.current().or(() -> calls.get(WriteConditions.readAfterConflict(context, key), tally));
            if (inTheWay.isPresent() && Items.createdBy(inTheWay.get(), token)) {
                return inTheWay;
            }
            throw new AlreadyExistsException(what, refused.cause());
        });
    }

    /**
     * Changes a workspace at the version the caller saw. 1 UpdateItem; when its condition fails, DynamoDB returns
     * the current item with the failure, and only an engine that does not (dynalite) costs 1 consistent GetItem
     * more to tell a missing workspace (404) from a changed one (412).
     */
    public Workspace updateWorkspace(
            WorkspaceId id, WorkspacePatch patch, ExpectedVersion expected, Instant now, CallTally tally) {
        PrimaryKey key = KeyCodec.workspaceKey(id);
        return Items.workspace(versioned(
                        calls.update(
                                UpdateWorkspaceOperation.generateRequest(context, id, patch, expected, now), tally),
                        key,
                        expected,
                        "workspace",
                        tally)
                .orElseThrow(() -> new NotFoundException("workspace")));
    }

    /**
     * Changes a project at the version the caller saw: as {@link #updateWorkspace}, at the first key of its
     * location that holds it. While its workspace is being migrated, that is the unsharded copy as long as it
     * exists (the move then copies the change on).
     */
    public Project updateProject(
            WorkspaceId workspaceId,
            ProjectId projectId,
            ProjectPatch patch,
            ExpectedVersion expected,
            Instant now,
            CallTally tally) {
        return Items.project(walk(
                        plan.locate(workspaceId, projectId),
                        key -> versioned(
                                calls.update(
                                        UpdateProjectOperation.generateRequest(context, key, patch, expected, now),
                                        tally),
                                key,
                                expected,
                                "project",
                                tally))
                .item());
    }

    /**
     * Deletes a project at the expected version. 1 DeleteItem; a refused one is explained as for
     * {@link #updateWorkspace} (without If-Match a refusal can only mean there is nothing to delete). Deleted
     * from its source during a migration, 1 consistent GetItem of the workspace item more, and, while a migration run
     * holds its lease, 1 PutItem that leaves a tombstone at its shard key.
     */
    public void deleteProject(
            WorkspaceId workspaceId, ProjectId projectId, ExpectedVersion expected, Instant now, CallTally tally) {
        ProjectLocation location = plan.locate(workspaceId, projectId);
        Located deleted = walk(
                location,
                key -> versioned(
                        calls.delete(DeleteProjectOperation.generateRequest(context, key, expected), tally),
                        key,
                        expected,
                        "project",
                        tally));
        List<PrimaryKey> copies = location.after(deleted.key());
        // Deleted where it was current during a move: a run that read the project before this delete may be about to
        // copy it, so its shard key gets a tombstone, which also replaces a copy the run made already, and refuses
        // the copy it is about to make. Only a run that holds the migration lease can copy, and one that takes it
        // later reads a source without this project, so without a lease held now no tombstone is needed (and none is
        // left for a purge to find after its sweep: a tombstone lands within this request's timeout of a moment the
        // lease was held, which the purge waits out). The source goes first: were the tombstone first and the
        // source's delete refused (412), the project would stay at its source with its move refused for good.
        if (!copies.isEmpty() && migrationRunHolds(workspaceId, now, tally)) {
            copies.forEach(copy -> calls.put(DeleteProjectOperation.tombstone(context, copy), tally));
        }
    }

    /** Whether a migration run holds the workspace's lease at {@code now}: 1 consistent GetItem. */
    private boolean migrationRunHolds(WorkspaceId workspaceId, Instant now, CallTally tally) {
        return calls.get(WriteConditions.readAfterConflict(context, KeyCodec.workspaceKey(workspaceId)), tally)
                .flatMap(Items::migrationLeaseUntil)
                .filter(until -> until.isAfter(now))
                .isPresent();
    }

    /** A project found at one of its keys: the item there, or what a write there returned. */
    private record Located(PrimaryKey key, Map<String, AttributeValue> item) {}

    /**
     * The one walk over where a project may be: each key of its location in turn, until one holds it. None
     * does: 404. Outside a migration the location is a single key, and this is a single call.
     */
    private Located walk(
            ProjectLocation location, Function<PrimaryKey, Optional<Map<String, AttributeValue>>> attempt) {
        for (PrimaryKey key : location.keys()) {
            Optional<Map<String, AttributeValue>> found = attempt.apply(key);
            if (found.isPresent()) {
                return new Located(key, found.get());
            }
        }
        throw new NotFoundException("project");
    }

    /**
     * A versioned write at one key: what it returned when it happened; empty when there is no item there; a
     * 412 when the item is there at another version.
     */
    private Optional<Map<String, AttributeValue>> versioned(
            WriteOutcome outcome, PrimaryKey key, ExpectedVersion expected, String what, CallTally tally) {
        return outcome.then(Optional::of, refused -> {
            if (conflict(refused, key, expected, tally).changed()) {
                throw new PreconditionFailedException(what, refused.cause());
            }
            return Optional.empty();
        });
    }

    /**
     * Tells a missing item from a changed one. At any version the condition only asked that the item exist; else
     * the item DynamoDB returned with the refusal says, or, from an engine that returns none, a consistent read.
     */
    private Conflict conflict(WriteOutcome.Refused refused, PrimaryKey key, ExpectedVersion expected, CallTally tally) {
        if (expected.isAny()) {
            return new Conflict.NotFound();
        }
        return Conflict.of(refused.current()
                .or(() -> calls.get(WriteConditions.readAfterConflict(context, key), tally))
                .filter(Items::isLive));
    }

    /**
     * Projects newest first. 1 Query per page; for a hot workspace, 1 per shard, all at once, each for its share
     * of the page and a margin, merged, and rarely a second round from the shards that can still reach the page
     * (see FanOut). While it is being migrated: 1 more for its unsharded partition, and one round of whole pages.
     */
    public Page<Project> listProjects(
            WorkspaceId workspaceId, int limit, Optional<ListPosition> position, CallTally tally) {
        FanOut.Page page = fanOut.run(
                plan.projectPartitions(workspaceId),
                position,
                KeyCodec::decodeProjectSortKey,
                limit,
                (partition, take, after) -> ListProjectsOperation.generateRequestIn(context, partition, take, after),
                Comparator.reverseOrder(),
                tally);
        return ListProjectsOperation.transformResponse(page);
    }

    /**
     * The workspace and its projects, in key order. 1 Query per page; for a hot workspace, its own partition
     * (for the workspace item) and every shard, all at once, merged in rounds as {@link #listProjects} is.
     */
    public WorkspaceCollection getWorkspaceCollection(
            WorkspaceId workspaceId, int limit, Optional<ListPosition> position, CallTally tally) {
        ListPartitions partitions = plan.collectionPartitions(workspaceId);
        FanOut.Page page = fanOut.run(
                partitions,
                position,
                KeyCodec::decodeSortKey,
                limit,
                (partition, take, after) ->
                        GetWorkspaceCollectionOperation.generateRequestIn(context, partition, take, after),
                Comparator.naturalOrder(),
                tally);
        return GetWorkspaceCollectionOperation.transformResponse(page, position);
    }

    /**
     * Projects with one status across every workspace, newest first: 1 Query per index shard, all at once, merged
     * in rounds as {@link #listProjects} is.
     * From the index, so eventually consistent: a project written a moment ago may be missing, or show its old
     * status, and one deleted a moment ago may still be listed, until the index catches up (within about a second;
     * it always does). Not checked against the table: that would read every listed item again.
     */
    public Page<Project> listProjectsByStatus(
            ProjectStatus status, int limit, Optional<ListPosition> position, CallTally tally) {
        FanOut.Page page = indexFanOut.run(
                plan.index().statusPartitions(status.name()),
                position,
                KeyCodec::decodeProjectSortKey,
                limit,
                (partition, take, before) ->
                        ListProjectsByStatusOperation.generateRequestIn(context, partition, take, before),
                Comparator.reverseOrder(),
                tally);
        return ListProjectsByStatusOperation.transformResponse(page);
    }

    /**
     * Every workspace, in id order: 1 Query per registry shard, all at once, merged. Eventually consistent: a
     * workspace created a moment ago may be missing, and one deleted a moment ago still listed, until the index
     * catches up (within about a second; the job planner rechecks for it, {@code JobPlanner}).
     */
    public Page<Workspace> listWorkspaces(int limit, Optional<ListPosition> position, CallTally tally) {
        FanOut.Page page = indexFanOut.run(
                plan.index().registryPartitions(),
                position,
                KeyCodec::decodeWorkspaceIndexSortKey,
                limit,
                (partition, take, after) -> ListWorkspacesOperation.generateRequestIn(context, partition, take, after),
                Comparator.naturalOrder(),
                tally);
        return ListWorkspacesOperation.transformResponse(page);
    }
}
