package dev.oneread.local.iam;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the functions of this process did under their roles, in the spirit of IAM Access Analyzer's policy generation
 * from activity: per function, each action on each resource it used, each grant that allowed it, and each call that
 * was refused. Resources are written as the template writes them ({@code ${Table.Arn}/index/GSI1}), whichever
 * table a run used. One ledger per process, so that a suite's many runs and engines add up to one report.
 *
 * <pre>{@code IamLedger.process().denials();}</pre>
 */
public final class IamLedger {
    private static final IamLedger PROCESS = new IamLedger();

    private final Map<String, FunctionRole> roles = new ConcurrentHashMap<>();
    private final Map<String, Set<Use>> used = new ConcurrentHashMap<>();
    private final Map<String, Set<Statement.Grant>> grantsUsed = new ConcurrentHashMap<>();
    private final List<Denial> denials = new ArrayList<>();

    /** The ledger every front of this process writes to. */
    public static IamLedger process() {
        return PROCESS;
    }

    /** One action on one resource, and the partition keys' shapes it named ({@code WS#*}). */
    public record Use(String action, String resource, String leadingKeys) implements Comparable<Use> {
        @Override
        public int compareTo(Use other) {
            return toString().compareTo(other.toString());
        }
    }

    /** A refused call: the function, and AWS's message for it. */
    public record Denial(String function, String message) {}

    /** A function's role, as written in the template (resources in the template's words). */
    public void known(FunctionRole role) {
        roles.putIfAbsent(role.function(), role);
    }

    public void allowed(String function, Use use, List<Statement.Grant> grants) {
        used.computeIfAbsent(function, f -> ConcurrentHashMap.newKeySet()).add(use);
        grantsUsed.computeIfAbsent(function, f -> ConcurrentHashMap.newKeySet()).addAll(grants);
    }

    public synchronized void denied(Denial denial) {
        denials.add(denial);
    }

    /** Every refusal so far, in order. */
    public synchronized List<Denial> denials() {
        return List.copyOf(denials);
    }

    /** The functions known, by name, with their roles. */
    public Map<String, FunctionRole> roles() {
        return new TreeMap<>(roles);
    }

    /** What {@code function} used, sorted. */
    public Set<Use> used(String function) {
        return new TreeSet<>(used.getOrDefault(function, Set.of()));
    }

    /** The grants of {@code function}'s role that allowed at least one of its calls. */
    public Set<Statement.Grant> grantsUsed(String function) {
        return Set.copyOf(grantsUsed.getOrDefault(function, Set.of()));
    }
}
