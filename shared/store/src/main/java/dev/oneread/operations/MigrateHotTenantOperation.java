package dev.oneread.operations;

import java.util.List;

/**
 * The migration job ({@code MigrateHotTenant}, an operator's): moves a hot tenant's projects into its shards, live
 * (MigrationRequests).
 *
 * <pre>{@code MigrateHotTenantOperation.INSTANCE.descriptor().startedBy()}</pre>
 */
public final class MigrateHotTenantOperation extends JobOperation {
    public static final MigrateHotTenantOperation INSTANCE = new MigrateHotTenantOperation();

    private MigrateHotTenantOperation() {
        super(new JobDescriptor(
                "migration",
                "MigrateHotTenant",
                List.of(),
                "an operator",
                "moves a tenant's projects into its shards, live",
                List.of("MigrationRequests")));
    }
}
