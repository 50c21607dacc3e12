package dev.oneread.local.runner;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * A local run's secret for its queues: the context path ElasticMQ serves under, and the end of each queue's name.
 * Only the front adds it to a request; ElasticMQ serves no action without it (see {@link LocalQueues}). Random per
 * run, 80 bits: a page cannot guess it, and never reads it (the front answers no page).
 *
 * <pre>{@code RunSecret secret = RunSecret.random(); secret.queueName("oneread", "JobQueue");}</pre>
 *
 * @param value lower-case hex: a path segment and a part of a queue name as they are
 */
record RunSecret(String value) {
    private static final int BYTES = 10;
    private static final SecureRandom RANDOM = new SecureRandom();

    RunSecret {
        if (!value.matches("^[0-9a-f]{" + 2 * BYTES + "}$")) {
            throw new IllegalArgumentException("a run secret is " + 2 * BYTES + " lower-case hex digits");
        }
    }

    static RunSecret random() {
        byte[] bytes = new byte[BYTES];
        RANDOM.nextBytes(bytes);
        return new RunSecret(HexFormat.of().formatHex(bytes));
    }

    /** The path ElasticMQ serves under: {@code /<secret>}. */
    String contextPath() {
        return "/" + value;
    }

    /** The name of the template's queue {@code logicalId} in this run: {@code <prefix>-<logicalId>-<secret>}. */
    String queueName(String prefix, String logicalId) {
        return queueNamePrefix(prefix, logicalId) + value;
    }

    /** What every run's name of that queue starts with: how a process beside start-api finds it. */
    static String queueNamePrefix(String prefix, String logicalId) {
        return prefix + "-" + logicalId + "-";
    }
}
