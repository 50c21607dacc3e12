package dev.oneread.local.runner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Which jars of a function's artifact the runner already holds byte for byte, so that their classes come from the
 * runner's own loader: the SDK is then loaded, verified and compiled once per JVM, not once per function (a cold
 * {@code invoke} built it twice, once for the runner's table check and once for the function).
 *
 * <p>What a function sees does not change. A jar is shared only when every class in it is in the runner with the same
 * size and CRC-32, so a function still fails locally as on Lambda when its artifact lacks a jar or carries another
 * version of it. And only libraries that keep no state of a function's own are ever shared: the SDK and Jackson.
 * The project's own classes (the client holder, the environment overlay) and org.crac's global context stay in each
 * function's loader, as in separate execution environments.
 */
final class RunnerJars {
    private static final List<String> SHAREABLE_PACKAGES =
            List.of("software/amazon/awssdk/", "com/fasterxml/jackson/", "org/reactivestreams/");
    private static final String CLASS_SUFFIX = ".class";

    static final RunnerJars OF_THIS_RUNNER = new RunnerJars(RunnerJars.class.getClassLoader());

    private final ClassLoader runner;
    /** The runner's jars, opened once (by path), looked up entry by entry: a fat jar has tens of thousands. */
    private final Map<Path, ZipFile> runnerJars = new ConcurrentHashMap<>();
    /** A function jar's decision, by its name and size (every function's copy of a jar is the same). */
    private final Map<JarId, Set<String>> decisions = new ConcurrentHashMap<>();

    RunnerJars(ClassLoader runner) {
        this.runner = runner;
    }

    /** The runner's loader, which serves the shared classes. */
    ClassLoader runner() {
        return runner;
    }

    /** The binary names of {@code jar}'s classes the runner serves; empty when the jar is not shared. */
    Set<String> sharedClasses(Path jar) throws IOException {
        JarId id = new JarId(jar.getFileName().toString(), Files.size(jar));
        Set<String> known = decisions.get(id);
        if (known != null) {
            return known;
        }
        Set<String> decided = decide(jar);
        decisions.put(id, decided);
        return decided;
    }

    private Set<String> decide(Path jar) throws IOException {
        Set<String> names = new HashSet<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            ZipFile runnerJar = null;
            for (ZipEntry entry : Collections.list(zip.entries())) {
                String name = entry.getName();
                if (!name.endsWith(CLASS_SUFFIX)
                        || name.startsWith("META-INF/")
                        || name.endsWith("module-info.class")) {
                    continue;
                }
                if (SHAREABLE_PACKAGES.stream().noneMatch(name::startsWith)) {
                    return Set.of();
                }
                if (runnerJar == null) {
                    runnerJar = runnerJarHolding(name);
                    if (runnerJar == null) {
                        return Set.of();
                    }
                }
                if (!sameBytes(entry, runnerJar.getEntry(name))) {
                    return Set.of();
                }
                names.add(
                        name.substring(0, name.length() - CLASS_SUFFIX.length()).replace('/', '.'));
            }
        }
        return Set.copyOf(names);
    }

    /** Size and CRC-32 from the zip directories: the same bytes, without reading them. */
    private static boolean sameBytes(ZipEntry ours, ZipEntry theirs) {
        return theirs != null && theirs.getSize() == ours.getSize() && theirs.getCrc() == ours.getCrc();
    }

    /** The runner jar that holds {@code entry}; null when the runner has no jar with it. */
    private ZipFile runnerJarHolding(String entry) throws IOException {
        URL url = runner.getResource(entry);
        if (url == null || !url.getProtocol().equals("jar")) {
            return null;
        }
        JarURLConnection connection = (JarURLConnection) url.openConnection();
        connection.setUseCaches(false);
        Path runnerJar;
        try {
            runnerJar = Path.of(connection.getJarFileURL().toURI());
        } catch (URISyntaxException e) {
            return null;
        }
        try {
            return runnerJars.computeIfAbsent(runnerJar, RunnerJars::open);
        } catch (UncheckedIOException e) {
            return null; // an unreadable runner jar shares nothing
        }
    }

    private static ZipFile open(Path jar) {
        try {
            return new ZipFile(jar.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private record JarId(String fileName, long size) {}
}
