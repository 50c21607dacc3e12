package dev.oneread.local.console;

import dev.oneread.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The console's recent reads (the last {@value #RECENT}) and the ones saved by name, kept beside the engine's data
 * in {@value #FILE_NAME}, so each data directory has its own and they outlive start-api; an engine in memory keeps
 * them in memory. Each is a read form as {@link TableReads} takes it, reduced to {@link TableReads#kept}: its known
 * fields, each bounded (a cursor is never kept: a saved read starts at its first page).
 *
 * <p>The file is bounded ({@value #MAX_FILE_BYTES} bytes: the oldest recent reads go first, and a save that would
 * pass it is refused), readable by its owner alone (a read names the table's keys and values), and replaced whole
 * by a rename, so that a reader or a crash sees the old file or the new one, never a part.
 */
final class SavedQueries {
    static final String FILE_NAME = "console-queries.json";
    static final int RECENT = 20;
    static final int MAX_SAVED = 100;
    /** The file's bound: far above 20 recent and 100 saved reads of a person's making, far below a disk's. */
    static final int MAX_FILE_BYTES = 1024 * 1024;
    /** Owner-only, from its creation on: the file is never readable by others, not even for a moment. */
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
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
                // One past its bound is no file this class wrote: not read at all (an old runner's could be huge).
                if (Files.size(queries.file) <= MAX_FILE_BYTES) {
                    Map<String, Object> kept = Json.readObject(Files.readString(queries.file, StandardCharsets.UTF_8));
                    if (kept.get("recent") instanceof List<?> list) {
                        list.stream()
                                .filter(Map.class::isInstance)
                                .limit(RECENT)
                                .forEach(q -> queries.recent.add(TableReads.kept((Map<String, Object>) q)));
                    }
                    if (kept.get("saved") instanceof Map<?, ?> map) {
                        map.forEach((name, q) -> {
                            if (name instanceof String n
                                    && NAME.matcher(n).matches()
                                    && q instanceof Map<?, ?>
                                    && queries.saved.size() < MAX_SAVED) {
                                queries.saved.put(n, TableReads.kept((Map<String, Object>) q));
                            }
                        });
                    }
                }
            } catch (IOException | RuntimeException e) {
                // A damaged file is started afresh (and overwritten by the next save): it holds only conveniences.
            }
        }
        return queries;
    }

    /** Remembers a read just run, newest first, once (a repeat moves to the front). */
    synchronized void ran(Map<String, Object> form) {
        Map<String, Object> kept = TableReads.kept(form);
        if (!recent.isEmpty() && recent.get(0).equals(kept)) {
            return; // the newest already: nothing to write
        }
        recent.remove(kept);
        recent.add(0, kept);
        while (recent.size() > RECENT) {
            recent.remove(recent.size() - 1);
        }
        byte[] all = serialized();
        // Down to none: with the saved reads near the bound, even the newest read may not fit beside them.
        while (all.length > MAX_FILE_BYTES && !recent.isEmpty()) {
            recent.remove(recent.size() - 1);
            all = serialized();
        }
        store(all);
    }

    /** Saves a read under a name, replacing one of that name. */
    synchronized Map<String, Object> save(String name, Map<String, Object> form) {
        requireName(name);
        if (!saved.containsKey(name) && saved.size() >= MAX_SAVED) {
            throw new BadRequest(422, "at most " + MAX_SAVED + " saved queries: delete one first");
        }
        Map<String, Object> before = saved.put(name, TableReads.kept(form));
        byte[] all = serialized();
        if (all.length > MAX_FILE_BYTES) {
            if (before == null) {
                saved.remove(name);
            } else {
                saved.put(name, before);
            }
            throw new BadRequest(422, "the saved queries would pass " + MAX_FILE_BYTES + " bytes: delete one first");
        }
        store(all);
        return Map.of("saved", name);
    }

    synchronized Map<String, Object> delete(String name) {
        requireName(name);
        if (saved.remove(name) == null) {
            throw new BadRequest(404, "no saved query has this name");
        }
        store(serialized());
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

    /** The file's content: the recent reads and the saved ones, as JSON in UTF-8. */
    private byte[] serialized() {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("recent", recent);
        all.put("saved", saved);
        return Json.write(all).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Writes a temporary file beside it, created owner-only, then renames it into place (atomically): a crash or a
     * reader sees the old file or the new one, and the file keeps the temporary one's permissions.
     */
    private void store(byte[] all) {
        if (file == null) {
            return;
        }
        Path temporary = null;
        try {
            temporary = ownerOnlyTemporary();
            Files.write(temporary, all);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            deleteQuietly(temporary);
            throw new UncheckedIOException("could not keep the console's queries in " + file, e);
        }
    }

    private Path ownerOnlyTemporary() throws IOException {
        try {
            return Files.createTempFile(
                    file.getParent(), FILE_NAME, ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (UnsupportedOperationException notPosix) {
            // A file system without POSIX permissions (Windows): its own defaults, those of the user's directory.
            return Files.createTempFile(file.getParent(), FILE_NAME, ".tmp");
        }
    }

    private static void deleteQuietly(Path temporary) {
        if (temporary == null) {
            return;
        }
        try {
            Files.deleteIfExists(temporary);
        } catch (IOException ignored) {
            // the failure that got here is the one to report
        }
    }
}
