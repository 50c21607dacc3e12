import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * A build step of every function: rewrites each jar in a directory (the function's runtime dependencies, before
 * they go into the zip's {@code lib/}) with its entries stored, that is uncompressed.
 *
 * <p>Why: the Lambda Java runtime loads classes from {@code lib/*.jar} as they are, and a class in a deflated jar is
 * inflated when it loads. A cold start loads about 2,500 classes from these jars, and inflating them was a tenth of
 * its wall time here (bench/cold-start, before and after). The zip that Lambda downloads is deflated as a whole, so
 * it gets smaller, not bigger: a stored jar compresses better as one stream than entry by entry.
 *
 * <p>Entries keep their order, names, times, extra fields and bytes, so the build stays reproducible and a signed
 * jar's signatures still hold. Compiled once by functions/pom.xml and run by each function's build: {@code java -cp functions/target/build-tools StoredJars <directory>}.
 */
public final class StoredJars {
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: java -cp functions/target/build-tools StoredJars <directory of jars>");
        }
        Path directory = Path.of(args[0]);
        if (!Files.isDirectory(directory)) {
            return; // no runtime dependencies, nothing to store
        }
        List<Path> jars = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            files.filter(f -> f.getFileName().toString().endsWith(".jar")).forEach(jars::add);
        }
        for (Path jar : jars) {
            store(jar);
        }
    }

    /** Rewrites {@code jar} in place, through a temporary file, so that a failed build leaves no half-written jar. */
    private static void store(Path jar) throws IOException {
        Path stored = jar.resolveSibling(jar.getFileName() + ".stored");
        try (ZipFile in = new ZipFile(jar.toFile());
                OutputStream file = Files.newOutputStream(stored);
                ZipOutputStream out = new ZipOutputStream(file)) {
            for (Enumeration<? extends ZipEntry> entries = in.entries(); entries.hasMoreElements(); ) {
                ZipEntry entry = entries.nextElement();
                // The copy keeps the time, extra field, comment, size and CRC; a stored entry needs its size and
                // CRC before its bytes, and they are known from the original's central directory.
                ZipEntry copy = new ZipEntry(entry);
                copy.setMethod(ZipEntry.STORED);
                copy.setCompressedSize(entry.getSize());
                out.putNextEntry(copy);
                try (InputStream bytes = in.getInputStream(entry)) {
                    bytes.transferTo(out);
                }
                out.closeEntry();
            }
            if (in.getComment() != null) {
                out.setComment(in.getComment());
            }
        }
        Files.move(stored, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
