package dev.oneread.local;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the checkout's root (the folder with template.yaml) from the working directory upwards. */
public final class ProjectRoot {
    private ProjectRoot() {}

    public static Path find() {
        String override = System.getProperty("oneread.root", System.getenv("ONEREAD_ROOT"));
        if (override != null && !override.isBlank()) {
            return Path.of(override).toAbsolutePath().normalize();
        }
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("template.yaml")) && Files.isDirectory(p.resolve("local"))) {
                return p;
            }
        }
        throw new IllegalStateException("template.yaml not found above " + dir + "; run from the checkout");
    }
}
