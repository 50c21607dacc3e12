package dev.oneread.local.console;

import dev.oneread.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The console's recent reads (the last {@value #RECENT}) and the ones saved by name, kept beside the engine's data
 * in {@value #FILE_NAME}, so each data directory has its own and they outlive start-api; an engine in memory keeps
 * them in memory. Each is a read form as {@link TableReads} takes it (a cursor is never kept: a saved read starts
 * at its first page).
 */
final class SavedQueries {
    static final String FILE_NAME = "console-queries.json";
    static final int RECENT = 20;
    static final int MAX_SAVED = 100;
    /** A name a person gives: shown as text and used as a key, so plain words, digits and a few marks. */
    private static final Pattern NAME = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$");

    private final Path file;
    private final List<Map<String, Object>> recent = new ArrayList<>();
    private final Map<String, Map<String, Object>> saved = new TreeMap<>();

    private SavedQueries(Path file) {
        this.file = file;
    }

    /** Kept in {@code dataDir}'s {@value #FILE_NAME} (read now if it is there), or in memory when it is null. */
    @SuppressWarnings("unchecked")
    static SavedQueries in(Path dataDir) {
        SavedQueries queries = new SavedQueries(dataDir == null ? null : dataDir.resolve(FILE_NAME));
        if (queries.file != null && Files.isRegularFile(queries.file)) {
            try {
                Map<String, Object> kept = Json.readObject(Files.readString(queries.file, StandardCharsets.UTF_8));
                if (kept.get("recent") instanceof List<?> list) {
                    list.stream()
                            .filter(Map.class::isInstance)
                            .limit(RECENT)
                            .forEach(q -> queries.recent.add((Map<String, Object>) q));
                }
                if (kept.get("saved") instanceof Map<?, ?> map) {
                    map.forEach((name, q) -> {
                        if (name instanceof String n && NAME.matcher(n).matches() && q instanceof Map<?, ?>) {
                            queries.saved.put(n, (Map<String, Object>) q);
                        }
                    });
                }
            } catch (IOException | RuntimeException e) {
                // A damaged file is started afresh (and overwritten by the next save): it holds only conveniences.
            }
        }
        return queries;
    }

    /** Remembers a read just run, newest first, once (a repeat moves to the front). */
    synchronized void ran(Map<String, Object> form) {
        Map<String, Object> kept = withoutCursor(form);
        recent.remove(kept);
        recent.add(0, kept);
        while (recent.size() > RECENT) {
            recent.remove(recent.size() - 1);
        }
        store();
    }

    /** Saves a read under a name, replacing one of that name. */
    synchronized Map<String, Object> save(String name, Map<String, Object> form) {
        requireName(name);
        if (!saved.containsKey(name) && saved.size() >= MAX_SAVED) {
            throw new BadRequest(422, "at most " + MAX_SAVED + " saved queries: delete one first");
        }
        saved.put(name, withoutCursor(form));
        store();
        return Map.of("saved", name);
    }

    synchronized Map<String, Object> delete(String name) {
        requireName(name);
        if (saved.remove(name) == null) {
            throw new BadRequest(404, "no saved query has this name");
        }
        store();
        return Map.of("deleted", name);
    }

    /** The recent reads, newest first, and the saved ones by name. */
    synchronized Map<String, Object> list() {
        List<Map<String, Object>> named = new ArrayList<>();
        saved.forEach((name, form) -> named.add(Map.of("name", name, "query", form)));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("recent", List.copyOf(recent));
        out.put("saved", named);
        out.put("kept", file == null ? "in memory (the engine has no data directory)" : file.toString());
        return out;
    }

    static void requireName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new BadRequest(
                    "name must be 1-64 letters, digits, spaces, _ . or -, starting with a letter or digit");
        }
    }

    private static Map<String, Object> withoutCursor(Map<String, Object> form) {
        Map<String, Object> kept = new TreeMap<>(form);
        kept.remove("cursor");
        return kept;
    }

    /** Writes the file whole, then moves it into place: a crash leaves the old file or the new one. */
    private void store() {
        if (file == null) {
            return;
        }
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("recent", recent);
        all.put("saved", saved);
        try {
            Path temporary = file.resolveSibling(FILE_NAME + ".tmp");
            Files.writeString(temporary, Json.write(all), StandardCharsets.UTF_8);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("could not keep the console's queries in " + file, e);
        }
    }
}
