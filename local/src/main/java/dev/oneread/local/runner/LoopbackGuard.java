package dev.oneread.local.runner;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * What keeps web pages away from start-api and its console, and from the local queues. A page the developer opens
 * can send requests to 127.0.0.1, and through DNS rebinding it can even make them same-origin under a name of its
 * own. So only the loopback names of this very port are served ({@code Host} anything else: 421), and a request that
 * says it comes from a page of another origin ({@code Origin}) is refused (403). Tools (curl, the SDKs, the tests)
 * send the loopback Host and no Origin; the console's own page sends its own origin, which only start-api accepts.
 *
 * <pre>{@code Optional<LoopbackGuard.Refusal> refused = new LoopbackGuard(3000).check(host, origin);}</pre>
 *
 * @param port     the port the guarded server listens on
 * @param ownPages whether a page of this server's own origin may call it (the console); false: no Origin at all
 */
public record LoopbackGuard(int port, boolean ownPages) {
    /** start-api's guard: its console's page may call it. */
    public LoopbackGuard(int port) {
        this(port, true);
    }

    /** The guard of a server only tools call (the queues): any Origin is a page's, and refused. */
    public static LoopbackGuard toolsOnly(int port) {
        return new LoopbackGuard(port, false);
    }

    /** A request start-api will not serve: the status and what the problem says. */
    public record Refusal(int status, String detail) {}

    /**
     * Why the request is refused, or empty when it may be served.
     *
     * @param host   the Host header, null when absent
     * @param origin the Origin header, null when absent
     */
    public Optional<Refusal> check(String host, String origin) {
        if (host == null || !ownHosts().contains(host.toLowerCase(Locale.ROOT))) {
            return Optional.of(new Refusal(
                    421,
                    "this server serves 127.0.0.1:" + port + ", localhost:" + port + " and [::1]:" + port + " only"));
        }
        if (origin != null && (!ownPages || !ownOrigins().contains(origin.toLowerCase(Locale.ROOT)))) {
            return Optional.of(new Refusal(403, "requests from pages of another origin are refused"));
        }
        return Optional.empty();
    }

    private Set<String> ownHosts() {
        return Set.of("127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port);
    }

    private Set<String> ownOrigins() {
        return Set.of("http://127.0.0.1:" + port, "http://localhost:" + port, "http://[::1]:" + port);
    }
}
