package dev.oneread.local.cli;

import dev.oneread.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a running {@code start-api} tells the other commands of the same checkout, in a small JSON file
 * ({@code .oneread/start-api.json}, gitignored): its process, its engine, its table and its parameter
 * overrides. {@code invoke} and {@code seed} read it to work in the same local world as the server.
 *
 * <p>A file whose process is gone (killed, crashed) or is another process that reused the pid is stale:
 * {@link #read} still returns it, and {@link #isAlive()} tells.
 *
 * <pre>{@code StartApiState.read(StartApiState.defaultFile(root)).filter(StartApiState::isAlive)}</pre>
 */
public record StartApiState(
        long pid,
        Instant processStart,
        URI api,
        URI engine,
        String tableName,
        Path dataDir,
        Map<String, String> parameterOverrides,
        URI queues) {
    private static final int ENGINE_CHECK_MILLIS = 500;

    public StartApiState {
        parameterOverrides = Map.copyOf(parameterOverrides);
    }

    /** Where start-api writes its state unless told otherwise. */
    public static Path defaultFile(Path projectRoot) {
        return projectRoot.resolve(".oneread").resolve("start-api.json");
    }

    /** The state of a start-api running in this process. */
    static StartApiState ofThisProcess(
            URI api, URI engine, String tableName, Path dataDir, Map<String, String> parameterOverrides, URI queues) {
        ProcessHandle self = ProcessHandle.current();
        return new StartApiState(
                self.pid(),
                self.info().startInstant().orElse(null),
                api,
                engine,
                tableName,
                dataDir,
                parameterOverrides,
                queues);
    }

    /** The state in {@code file}; empty when there is none or it is unreadable (a half-written or foreign file). */
    public static Optional<StartApiState> read(Path file) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            Map<String, Object> json = Json.readObject(Files.readString(file, StandardCharsets.UTF_8));
            Map<String, String> overrides = new LinkedHashMap<>();
            if (json.get("parameterOverrides") instanceof Map<?, ?> given) {
                given.forEach((k, v) -> overrides.put(String.valueOf(k), String.valueOf(v)));
            }
            Object start = json.get("processStart");
            Object dataDir = json.get("dataDir");
            return Optional.of(new StartApiState(
                    ((Number) json.get("pid")).longValue(),
                    start == null ? null : Instant.parse((String) start),
                    URI.create((String) json.get("api")),
                    URI.create((String) json.get("engine")),
                    (String) json.get("table"),
                    dataDir == null ? null : Path.of((String) dataDir),
                    overrides,
                    json.get("queues") instanceof String queues ? URI.create(queues) : null));
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        }
    }

    /** Writes the file whole (a reader never sees half of it). */
    void write(Path file) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("pid", pid);
        json.put("processStart", processStart == null ? null : processStart.toString());
        json.put("api", api.toString());
        json.put("engine", engine.toString());
        json.put("table", tableName);
        json.put("dataDir", dataDir == null ? null : dataDir.toString());
        json.put("parameterOverrides", parameterOverrides);
        json.put("queues", queues == null ? null : queues.toString());
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path partial = file.resolveSibling(file.getFileName() + ".partial");
            Files.writeString(partial, Json.write(json) + "\n", StandardCharsets.UTF_8);
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /**
     * Deletes {@code file} if it still describes this run (another start-api may have taken it over); a redeploy may
     * have changed its overrides since.
     */
    void deleteIfStill(Path file) {
        if (read(file).filter(s -> s.pid == pid && s.api.equals(api)).isPresent()) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // a stale file is harmless: readers check isAlive()
            }
        }
    }

    /** Its process still runs (the same one, not a reuse of its pid) and its engine accepts connections. */
    public boolean isAlive() {
        Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        boolean same = process.isPresent()
                && (processStart == null
                        || process.get()
                                .info()
                                .startInstant()
                                .map(processStart::equals)
                                .orElse(true));
        return same && engineAnswers();
    }

    private boolean engineAnswers() {
        int port = engine.getPort() != -1 ? engine.getPort() : "https".equals(engine.getScheme()) ? 443 : 80;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(engine.getHost(), port), ENGINE_CHECK_MILLIS);
            return true;
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }
}
