package dev.oneread.keys;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

/**
 * A {@link SecureRandom} that SnapStart cannot clone. Every instance created during init lands in the snapshot,
 * and every copy restored from it would draw the same numbers (AWS, "Handling uniqueness with Lambda SnapStart"):
 * the same ULIDs, the same cursor nonces. After each restore this reseeds it from the operating system, through
 * CRaC's {@code afterRestore} (org.crac: a no-op where no CRaC runtime runs, as in tests and the runner).
 *
 * <pre>{@code private static final SecureRandom RANDOM = SnapshotSafeRandom.create();}</pre>
 */
public final class SnapshotSafeRandom {
    /** org.crac's global context may hold resources weakly: these keep them alive for the process. */
    private static final List<Resource> REGISTERED = new ArrayList<>();

    private SnapshotSafeRandom() {}

    public static SecureRandom create() {
        SecureRandom random = new SecureRandom();
        Resource reseed = new Resource() {
            @Override
            public void beforeCheckpoint(Context<? extends Resource> context) {}

            @Override
            public void afterRestore(Context<? extends Resource> context) {
                reseed(random);
            }
        };
        synchronized (REGISTERED) {
            REGISTERED.add(reseed);
        }
        Core.getGlobalContext().register(reseed);
        return random;
    }

    /** Mixes 32 fresh bytes from the operating system into {@code random}'s state: no two restored copies agree. */
    static void reseed(SecureRandom random) {
        random.setSeed(new SecureRandom().generateSeed(32));
    }
}
