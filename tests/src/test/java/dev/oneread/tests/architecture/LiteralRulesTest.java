package dev.oneread.tests.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import dev.oneread.local.ProjectRoot;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The two text rules of docs/architecture.md (docs/testing.md, "Literals"), over every main source file (shared, functions, local): only
 * {@code dev.oneread.keys} writes key strings, and only {@code dev.oneread.expr} writes expression
 * placeholders. String literals are read with the JDK's own Java parser, so comments and Javadoc never count
 * and a text block counts like any other literal; tests are not scanned.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LiteralRulesTest {
    /** {@code WS#}, {@code PROJ#} or {@code IDEM#} anywhere, {@code META} as a whole, or a shard suffix. */
    static final Pattern KEY = Pattern.compile("WS#|PROJ#|IDEM#|^META$|#[0-9]{2}");
    /**
     * {@code #name} or {@code :value}, at the start of a literal or after a character that cannot precede a
     * placeholder: not after a name part ({@code arn:aws}), a colon ({@code AWS::Region}) or a quote (JSON).
     */
    static final Pattern PLACEHOLDER = Pattern.compile("(?<![A-Za-z0-9_:#\"])[#:][A-Za-z_][A-Za-z0-9_]*");

    private static final String KEYS = "shared/core/src/main/java/dev/oneread/keys/";
    private static final String EXPR = "shared/store/src/main/java/dev/oneread/expr/";

    private final Path root = ProjectRoot.find();
    private List<Literal> literals;

    /** One string literal of a main source file, where it stands. */
    record Literal(String file, long line, String value) {
        String where() {
            return file + ":" + line;
        }
    }

    @BeforeAll
    void readEveryMainSource() throws IOException {
        literals = stringLiterals(mainSources());
    }

    @Test
    void scan_shouldReadTheMainSourcesOfEveryModule() {
        // A rule over no literals would pass for nothing: the allowed packages' own literals prove the scan
        // sees them (the codec's key prefixes, the builder's placeholder marks).
        assertThat(literals)
                .extracting(Literal::file)
                .anyMatch(f -> f.startsWith("shared/"))
                .anyMatch(f -> f.startsWith("functions/"))
                .anyMatch(f -> f.startsWith("local/"));
        assertThat(literals)
                .anyMatch(
                        l -> l.file().startsWith(KEYS) && KEY.matcher(l.value()).find());
        assertThat(literals)
                .anyMatch(l -> l.file().startsWith(EXPR) && l.value().equals("#"))
                .anyMatch(l -> l.file().startsWith(EXPR) && l.value().equals(":"));
    }

    @Test
    void keyLiterals_shouldOnlyBeWrittenInKeys() {
        assertThat(violations(KEY, KEYS, "a key literal (WS#, PROJ#, IDEM#, META, #NN) outside dev.oneread.keys"))
                .isEmpty();
    }

    @Test
    void placeholderLiterals_shouldOnlyBeWrittenInExpr() {
        assertThat(violations(
                        PLACEHOLDER,
                        EXPR,
                        "an expression placeholder literal (#name, :value) outside dev.oneread.expr"))
                .isEmpty();
    }

    @Test
    void rules_shouldMatchWhatTheyForbid_andNothingElse() {
        assertThat(List.of("WS#", "WS#acme", "PROJ#", "IDEM#", "META", "#01", "acme#07"))
                .allMatch(s -> KEY.matcher(s).find());
        assertThat(List.of("Metadata", "META-INF/MANIFEST.MF", "#1", "ws", "x-dynamo-calls"))
                .noneMatch(s -> KEY.matcher(s).find());
        assertThat(List.of("#er", ":pk", "EntityRef = :pk", "#v = :v1", "attribute_not_exists(#pk)"))
                .allMatch(s -> PLACEHOLDER.matcher(s).find());
        assertThat(List.of(
                        "application/problem+json",
                        "arn:aws:lambda:us-east-1",
                        "dd/MMM/yyyy:HH:mm:ss Z",
                        "12:00",
                        "http://127.0.0.1:3000",
                        ": ",
                        "#",
                        "AWS::Serverless::Function",
                        "{\"done\":true}"))
                .noneMatch(s -> PLACEHOLDER.matcher(s).find());
    }

    /** Each literal outside the allowed package that matches, as {@code file:line: rule: "literal"}. */
    private List<String> violations(Pattern rule, String allowedIn, String ruleName) {
        return literals.stream()
                .filter(l -> !l.file().startsWith(allowedIn))
                .filter(l -> rule.matcher(l.value()).find())
                .map(l -> l.where() + ": " + ruleName + ": \"" + l.value() + "\"")
                .toList();
    }

    private List<Path> mainSources() throws IOException {
        List<Path> sources = new ArrayList<>();
        for (Path module : List.of(root.resolve("shared"), root.resolve("local"), root.resolve("functions"))) {
            try (Stream<Path> files = Files.walk(module)) {
                files.filter(f -> f.toString().endsWith(".java"))
                        .filter(f ->
                                root.relativize(f).toString().replace('\\', '/').contains("/src/main/java/"))
                        .forEach(sources::add);
            }
        }
        return sources;
    }

    /** Parses (does not compile) the files and collects every string literal with its line. */
    private List<Literal> stringLiterals(List<Path> sources) throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        List<Literal> out = new ArrayList<>();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, null)) {
            StringWriter diagnostics = new StringWriter();
            JavacTask task = (JavacTask) compiler.getTask(
                    diagnostics, files, null, List.of("-proc:none"), null, files.getJavaFileObjectsFromPaths(sources));
            SourcePositions positions = Trees.instance(task).getSourcePositions();
            for (CompilationUnitTree unit : task.parse()) {
                String file = root.relativize(Path.of(unit.getSourceFile().toUri()))
                        .toString()
                        .replace('\\', '/');
                new TreeScanner<Void, Void>() {
                    @Override
                    public Void visitLiteral(LiteralTree literal, Void unused) {
                        if (literal.getKind() == Tree.Kind.STRING_LITERAL) {
                            long line = unit.getLineMap().getLineNumber(positions.getStartPosition(unit, literal));
                            out.add(new Literal(file, line, (String) literal.getValue()));
                        }
                        return null;
                    }
                }.scan(unit, null);
            }
            assertThat(diagnostics.toString()).as("parse errors").isEmpty();
        }
        return out;
    }
}
