package dev.oneread.local.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Set;

/**
 * The key start-api's authorizer checks tokens with, and {@code token} signs them with: 32 random bytes made the
 * first time a data directory (or, for an engine in memory, the project's {@code .oneread/}) is used, in a file only
 * its owner can read. A public constant key let any web page that reached start-api (DNS rebinding) sign itself an
 * operator token; this one never leaves the developer's machine.
 *
 * <pre>{@code byte[] key = SigningKey.loadOrCreate(SigningKey.fileFor(root, dataDir));}</pre>
 */
public final class SigningKey {
    /** The file name, in the data directory or in {@code .oneread/}. */
    public static final String FILE_NAME = "signing-key";

    private static final int KEY_BYTES = 32;
    private static final Set<PosixFilePermission> OWNER_ONLY =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

    private SigningKey() {}

    /** Where the key of a run lives: in its data directory, or in the project's {@code .oneread/} for memory. */
    public static Path fileFor(Path projectRoot, Path dataDir) {
        return (dataDir != null ? dataDir : projectRoot.resolve(".oneread")).resolve(FILE_NAME);
    }

    /**
     * The key in {@code file}, made first if there is none.
     *
     * @throws IllegalStateException when the file can be read by others (a key anyone may read guards nothing), or
     *     does not hold a key
     */
    public static byte[] loadOrCreate(Path file) {
        try {
            if (!Files.exists(file)) {
                createUnlessPresent(file);
            }
            if (posix(file) && !Files.getPosixFilePermissions(file).equals(OWNER_ONLY)) {
                throw new IllegalStateException(file + " can be read by others than its owner: run chmod 600 " + file
                        + ", or delete it to have a new key made (tokens signed with the old one stop working)");
            }
            byte[] key = Base64.getDecoder()
                    .decode(Files.readString(file, StandardCharsets.US_ASCII).strip());
            if (key.length != KEY_BYTES) {
                throw new IllegalStateException(file + " does not hold a signing key: delete it to have one made");
            }
            return key;
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(file + " does not hold a signing key: delete it to have one made");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write the signing key " + file, e);
        }
    }

    /**
     * Writes a new key into a file made owner-only from the start, then links it into place unless a key is there
     * already: the step two first runs both reach when each saw no file, and exactly one of them wins. A hard link
     * is made atomically and fails when the name exists (a move, even ATOMIC_MOVE, replaces the file on Linux), and
     * it links a file that is already whole, so the loser never reads a key half written.
     */
    public static void createUnlessPresent(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        byte[] key = new byte[KEY_BYTES];
        new SecureRandom().nextBytes(key);
        Path temp = posix(dir)
                ? Files.createTempFile(dir, FILE_NAME, ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY))
                : Files.createTempFile(dir, FILE_NAME, ".tmp");
        try {
            Files.writeString(temp, Base64.getEncoder().encodeToString(key) + "\n", StandardCharsets.US_ASCII);
            try {
                Files.createLink(file, temp);
            } catch (UnsupportedOperationException noHardLinks) {
                Files.move(temp, file); // no replace either, though not atomic: a file system without links
            }
        } catch (FileAlreadyExistsException e) {
            // Another run made it first: its key stays, and this run reads it.
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static boolean posix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
