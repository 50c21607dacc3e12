package dev.oneread.tests;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import dev.oneread.local.ProjectRoot;
import dev.oneread.local.template.SamTemplate;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every function zip (built by the install) carries the AWS service clients its function uses, and no other: each
 * function's pom names the shared modules it needs (shared/store, jobs, secrets), and this holds the poms to the
 * code. "Uses" is read from the bytecode: the service packages ({@code software.amazon.awssdk.services.X}) that the
 * handler class reaches, through the project's classes in its own zip; "carries" is the service jars in its lib/.
 */
class FunctionZipsTest {
    private static final String SERVICES = "software.amazon.awssdk.services.";
    private static final Pattern SERVICE_ENTRY = Pattern.compile("^software/amazon/awssdk/services/([a-z0-9]+)/");

    private final Path root = ProjectRoot.find();

    @TempDir
    Path unpacked;

    @Test
    void everyZip_shouldCarryExactlyTheAwsServiceClientsItsHandlerReaches() throws IOException {
        // GIVEN every function of template.yaml, its zip and its handler class
        SamTemplate template = SamTemplate.load(root.resolve("template.yaml"));
        Map<String, Map<String, Object>> functions = template.resourcesOfType("AWS::Serverless::Function");
        assertThat(functions).hasSize(18); // 13 routes, 4 jobs, the user pool's trigger
        Map<String, Set<String>> carried = new TreeMap<>();
        Map<String, Set<String>> reached = new TreeMap<>();
        for (Map<String, Object> function : functions.values()) {
            Map<String, Object> properties = SamTemplate.map(function.get("Properties"));
            String codeUri = (String) properties.get("CodeUri");
            String handler = (String) properties.get("Handler");
            Path zip = root.resolve(codeUri);
            assertThat(zip).as(codeUri + " is built (mvn install)").isRegularFile();
            Path directory = unzipProjectClasses(zip);
            // WHEN its lib/ is listed, and its handler's reach is followed through the classes in the zip
            carried.put(zip.getFileName().toString(), servicesCarried(zip));
            reached.put(
                    zip.getFileName().toString(),
                    servicesReached(directory, handler.substring(0, handler.indexOf("::"))));
        }
        // THEN the two agree, zip by zip; every function but the user pool's trigger (which answers Cognito's event
        // and calls nothing) reaches DynamoDB at least, so neither side can be empty by mistake
        SoftAssertions softly = new SoftAssertions();
        reached.forEach((zip, services) -> {
            if (zip.equals("add-workspaces-claim.zip")) {
                softly.assertThat(services)
                        .as(zip + ": services its handler reaches")
                        .isEmpty();
            } else {
                softly.assertThat(services)
                        .as(zip + ": services its handler reaches")
                        .contains("dynamodb");
            }
            softly.assertThat(carried.get(zip))
                    .as(zip + ": the AWS service jars in lib/ (actual) against the services its handler reaches"
                            + " (expected); fix the function's pom")
                    .isEqualTo(services);
        });
        softly.assertAll();
    }

    /** The AWS services whose classes a jar of the zip's lib/ holds: dynamodb, sqs, secretsmanager. */
    private static Set<String> servicesCarried(Path zip) throws IOException {
        Set<String> services = new TreeSet<>();
        try (ZipFile file = new ZipFile(zip.toFile())) {
            for (ZipEntry jar : file.stream().filter(FunctionZipsTest::isLibJar).toList()) {
                // Read in place: unpacking every jar of 17 zips would cost more than the whole check.
                try (ZipInputStream in = new ZipInputStream(file.getInputStream(jar))) {
                    for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                        Matcher service = SERVICE_ENTRY.matcher(entry.getName());
                        if (service.find()) {
                            services.add(service.group(1));
                        }
                    }
                }
            }
        }
        return services;
    }

    /**
     * The AWS services the handler class depends on, directly or through any class of the project in the zip (the
     * function's own, at the root, and the shared modules' jars in lib/): every kind of dependency ArchUnit reads
     * from the bytecode (calls, fields, signatures, method references, inheritance).
     */
    private static Set<String> servicesReached(Path directory, String handler) throws IOException {
        Set<Location> locations = new HashSet<>();
        locations.add(Location.of(directory));
        try (Stream<Path> jars = Files.list(directory.resolve("lib"))) {
            for (Path jar : jars.filter(p -> p.getFileName().toString().startsWith("oneread-"))
                    .toList()) {
                try (JarFile file = new JarFile(jar.toFile())) {
                    locations.add(Location.of(file));
                }
            }
        }
        // Only the zip's own classes are followed, and a dependency's target is known by its name: resolving the
        // SDK's classes from the test's classpath as well (ArchUnit's default) would only cost time.
        ArchConfiguration archUnit = ArchConfiguration.get();
        boolean resolving = archUnit.resolveMissingDependenciesFromClassPath();
        JavaClasses inZip;
        archUnit.setResolveMissingDependenciesFromClassPath(false);
        try {
            inZip = new ClassFileImporter().importLocations(locations);
        } finally {
            archUnit.setResolveMissingDependenciesFromClassPath(resolving);
        }
        assertThat(inZip.contain(handler)).as(handler + " is in the zip").isTrue();
        Set<String> services = new TreeSet<>();
        Set<String> seen = new HashSet<>();
        Deque<JavaClass> next = new ArrayDeque<>();
        next.add(inZip.get(handler));
        seen.add(handler);
        while (!next.isEmpty()) {
            for (Dependency dependency : next.poll().getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass().getBaseComponentType();
                String name = target.getName();
                if (name.startsWith(SERVICES)) {
                    services.add(name.substring(SERVICES.length(), name.indexOf('.', SERVICES.length())));
                } else if (name.startsWith("dev.oneread.") && inZip.contain(name) && seen.add(name)) {
                    next.add(inZip.get(name));
                }
            }
        }
        return services;
    }

    /** The project's classes in {@code zip}, unpacked: the function's own (at the root) and lib/oneread-*.jar. */
    private Path unzipProjectClasses(Path zip) throws IOException {
        Path directory =
                Files.createDirectories(unpacked.resolve(zip.getFileName().toString()));
        try (ZipFile file = new ZipFile(zip.toFile())) {
            for (ZipEntry entry : file.stream()
                    .filter(e -> !e.isDirectory())
                    .filter(e -> !e.getName().startsWith("lib/") || e.getName().startsWith("lib/oneread-"))
                    .toList()) {
                Path target = directory.resolve(entry.getName()).normalize();
                assertThat(target.startsWith(directory))
                        .as(entry.getName() + " stays inside")
                        .isTrue();
                Files.createDirectories(target.getParent());
                try (InputStream in = file.getInputStream(entry)) {
                    Files.copy(in, target);
                }
            }
        }
        return directory;
    }

    private static boolean isLibJar(ZipEntry entry) {
        return entry.getName().startsWith("lib/") && entry.getName().endsWith(".jar");
    }
}
