package dev.oneread.tests.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.ProjectRoot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in README.md, docs/ and bench/results/ leads somewhere: the file exists in the repository, and a
 * {@code #fragment} names a heading of the file it points into, as GitHub makes a heading's anchor. Links to the
 * web are not followed (a test must not depend on the network).
 */
class DocsLinksTest {
    /** An inline link or image: {@code [text](target)} or {@code ![alt](target)}. */
    private static final Pattern INLINE = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    /** A reference definition: {@code [name]: target}. */
    private static final Pattern REFERENCE = Pattern.compile("^\\[[^\\]]+\\]:\\s+(\\S+)");

    private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");

    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*)$");

    private final Path root = ProjectRoot.find();

    @Test
    void everyRelativeLink_shouldLeadToAFileAndAHeadingThatExist() throws IOException {
        List<Path> pages = pages();
        assertThat(pages)
                .contains(
                        root.resolve("README.md"),
                        root.resolve("docs/architecture.md"),
                        root.resolve("docs/decisions/README.md"),
                        root.resolve("bench/results/2026-12-04-fan-out.md"));

        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : pages) {
            for (String target : links(page)) {
                if (target.matches("^[a-z]+:.*")) {
                    continue; // https:, mailto: ...
                }
                checked++;
                String problem = problem(page, target);
                if (problem != null) {
                    broken.add(root.relativize(page) + ": " + target + " (" + problem + ")");
                }
            }
        }
        assertThat(broken).as("broken links").isEmpty();
        assertThat(checked).as("relative links checked").isGreaterThan(pages.size());
    }

    @Test
    void anAnchor_shouldBeMadeAsGitHubMakesIt() {
        assertThat(anchor("The console: http://127.0.0.1:3000/_console"))
                .isEqualTo("the-console-http1270013000_console");
        assertThat(anchor("`expr`: the expression builder as a command"))
                .isEqualTo("expr-the-expression-builder-as-a-command");
        assertThat(anchor("Under DynamoDB's partition limits: `bench/hot-tenant`"))
                .isEqualTo("under-dynamodbs-partition-limits-benchhot-tenant");
    }

    /** Why {@code target}, linked from {@code page}, leads nowhere; null when it leads somewhere. */
    private String problem(Path page, String target) {
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path into = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!into.startsWith(root)) {
            return "outside the repository";
        }
        if (!Files.exists(into)) {
            return "no such file";
        }
        if (hash < 0) {
            return null;
        }
        if (!into.toString().endsWith(".md")) {
            return "an anchor into a file that is not Markdown";
        }
        return anchors(into).contains(target.substring(hash + 1)) ? null : "no such heading";
    }

    private List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        for (String folder : List.of("docs", "bench/results")) {
            try (Stream<Path> docs = Files.walk(root.resolve(folder))) {
                docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
            }
        }
        return pages;
    }

    /** The link targets of a page, outside its code blocks and code spans. */
    private static List<String> links(Path page) {
        List<String> targets = new ArrayList<>();
        for (String line : prose(page)) {
            // A code span is text, not a link: `(?:a|b)` holds "](" too.
            Matcher inline = INLINE.matcher(CODE_SPAN.matcher(line).replaceAll(""));
            while (inline.find()) {
                targets.add(inline.group(1));
            }
            Matcher reference = REFERENCE.matcher(line);
            if (reference.find()) {
                targets.add(reference.group(1));
            }
        }
        return targets;
    }

    private static Set<String> anchors(Path page) {
        Set<String> anchors = new HashSet<>();
        for (String line : prose(page)) {
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                anchors.add(anchor(heading.group(1)));
            }
        }
        return anchors;
    }

    /** A page's lines outside its fenced code blocks, where a "# comment" is no heading and "](" no link. */
    private static List<String> prose(Path page) {
        List<String> prose = new ArrayList<>();
        boolean fenced = false;
        for (String line : lines(page)) {
            if (line.startsWith("```")) {
                fenced = !fenced;
            } else if (!fenced) {
                prose.add(line);
            }
        }
        return prose;
    }

    /** GitHub's anchor for a heading: lower case, punctuation but hyphens and underscores dropped, spaces as hyphens. */
    static String anchor(String heading) {
        return heading.strip()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N}_\\- ]", "")
                .replace(' ', '-');
    }

    private static List<String> lines(Path page) {
        try {
            return Files.readAllLines(page, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
