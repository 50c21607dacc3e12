package dev.oneread.operations;

/**
 * The migration job ({@code MigrateHotTenant}, an operator's): moves a hot tenant's projects into its shards, live
 * (MigrationRequests).
 *
 * <pre>{@code MigrateHotTenantOperation.INSTANCE.descriptor().startedBy()}</pre>
 */
public final class MigrateHotTenantOperation extends JobOperation {
    public static final MigrateHotTenantOperation INSTANCE = new MigrateHotTenantOperation();

    private MigrateHotTenantOperation() {
        super(JobDescriptor.builder("migration")
                .function("MigrateHotTenant")
                .startedBy("an operator")
                .does("moves a tenant's projects into its shards, live")
                .requests("MigrationRequests")
                .build());
    }
}
