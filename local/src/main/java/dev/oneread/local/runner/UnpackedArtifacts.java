package dev.oneread.local.runner;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * A function's zip unpacked once per build of it, as Lambda unpacks it into /var/task, and shared read-only by every
 * runner process and every function instance after that: unpacking 10 MB took about 0.17 s of every cold
 * {@code invoke}.
 *
 * <p>A build is known by the zip's path, size and modification time, so a rebuilt zip is unpacked afresh and the older
 * unpacking of the same zip is removed. A directory appears whole or not at all: each process unpacks into a directory
 * of its own and renames it into place, and the loser of a race uses the winner's. Nothing of a run is written here;
 * the environment overlay goes to a directory of the instance's own.
 */
final class UnpackedArtifacts {
    private static final Path ROOT = Path.of(System.getProperty("java.io.tmpdir"), "oneread-artifacts");

    private UnpackedArtifacts() {}

    /** The directory holding {@code zip}'s contents, unpacked now if this build of it never was. */
    static Path of(String logicalId, Path zip) throws IOException {
        Path absolute = zip.toAbsolutePath().normalize();
        Path builds = ROOT.resolve(
                logicalId + "-" + Integer.toHexString(absolute.toString().hashCode()));
        Path build = builds.resolve(
                Files.size(absolute) + "-" + Files.getLastModifiedTime(absolute).toMillis());
        if (Files.isDirectory(build)) {
            return build;
        }
        Files.createDirectories(builds);
        Path partial = Files.createTempDirectory(builds, ".partial-");
        try {
            unzip(absolute, partial);
            Files.move(partial, build, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileSystemException e) {
            deleteTree(partial);
            // Renaming onto a directory another process renamed into place first fails (ENOTEMPTY on Linux, which
            // the JDK reports as a plain FileSystemException): theirs is the same build, whole.
            if (!Files.isDirectory(build)) {
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            deleteTree(partial);
            throw e;
        }
        removeOlderBuilds(builds, build);
        return build;
    }

    private static void unzip(Path zip, Path target) throws IOException {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                Path destination = target.resolve(entry.getName()).normalize();
                if (!destination.startsWith(target)) {
                    throw new IOException("zip entry outside the target: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(destination);
                } else {
                    Files.createDirectories(destination.getParent());
                    Files.copy(in, destination);
                }
            }
        }
    }

    /** Earlier builds of the same zip: a function loaded from one keeps its jars open, so removing them is safe. */
    private static void removeOlderBuilds(Path builds, Path current) {
        try (Stream<Path> all = Files.list(builds)) {
            for (Path other : all.filter(p ->
                            !p.equals(current) && !p.getFileName().toString().startsWith(".partial-"))
                    .toList()) {
                deleteTree(other);
            }
        } catch (IOException e) {
            // best effort: an older unpacking left behind costs disk, not correctness
        }
    }

    static void deleteTree(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // best effort: a temp dir left behind is harmless
        }
    }
}
