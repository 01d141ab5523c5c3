package io.spindle.examples;

import io.spindle.ThreadPool;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Compiles and runs every {@code ```java} block of the repository's README.md, so that a snippet a reader pastes
 * compiles against the current API and does what it shows. One dynamic test per block, named by its README line.
 *
 * <p>The convention a snippet follows (README readers see snippets as they would write them in a class body):
 * <ul>
 *   <li>The block is put in a class whose imports are {@link #IMPORTS} plus the block's own {@code import} lines.</li>
 *   <li>A declaration that starts at column 0 with {@code static}, {@code record}, {@code class}, {@code interface}
 *       or {@code enum} (through its closing brace) becomes a member of that class; every other line is a statement
 *       of one {@code static void run() throws Exception} method, which the test calls in this JVM.</li>
 *   <li>So every name a block uses must be defined in the block or come from those imports. Where defining it would
 *       clutter the README, a comment {@code <!-- snippet-context: NAME -->} as the last non-blank line above the
 *       fence adds {@link #CONTEXTS}' entry NAME: members, statements before the block and statements after it (in
 *       the same method, so they may use the block's variables, e.g. to check what it did and to close it).</li>
 * </ul>
 * A block whose first line is a {@code package} declaration is a whole source file, as a reader saves it (the quick
 * start's {@code Hello.java}): it is compiled as it stands, and its first top-level {@code public class}'s
 * {@code main(String[])} is run. A block that is not Java to run must not be fenced as {@code java} ({@code text},
 * {@code sh}, ...).
 */
class ReadmeSnippetsTest {
    /** Turns a hung snippet into a failure; no snippet comes near it (they run in well under a second each). */
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(2);

    /** The imports every snippet gets; wide enough that a snippet needs no import lines for the JDK's usual types. */
    static final List<String> IMPORTS = List.of(
            "io.spindle.*", "java.io.*", "java.math.*", "java.net.*", "java.nio.*", "java.nio.channels.*",
            "java.nio.charset.*", "java.time.*", "java.util.*", "java.util.concurrent.*",
            "java.util.concurrent.atomic.*", "java.util.function.*", "java.util.stream.*");

    /** Hidden context for a snippet that cannot show everything it needs without clutter. */
    record Context(String members, String before, String after) {}

    static final Map<String, Context> CONTEXTS = Map.of(
            // The IO section's echo server: a client sends a line through it, must get the same bytes back and then
            // see the server close the connection (what the snippet's close stage is for); then the server's channel
            // and pool are closed, which a real server would do at shutdown.
            "echo-client", new Context("", "", """
                    try (Socket client = new Socket()) {
                        client.setSoTimeout(60_000); // a hang becomes a SocketTimeoutException, not a stuck build
                        client.connect(server.getLocalAddress());
                        byte[] sent = "hello, pool".getBytes(StandardCharsets.UTF_8);
                        client.getOutputStream().write(sent);
                        byte[] back = client.getInputStream().readNBytes(sent.length);
                        if (!Arrays.equals(sent, back)) {
                            throw new AssertionError("echo returned '" + new String(back, StandardCharsets.UTF_8) + "'");
                        }
                        if (client.getInputStream().read() != -1) {
                            throw new AssertionError("the server sent more than the echo and did not close");
                        }
                    } finally {
                        io.close(server);
                        pool.close();
                    }
                    """));

    private static final Pattern CONTEXT_COMMENT = Pattern.compile("<!--\\s*snippet-context:\\s*([\\w-]+)\\s*-->");
    private static final Pattern DECLARATION_START =
            Pattern.compile("^(static|record|class|interface|enum)\\b.*");

    /** One {@code ```java} block: its first code line's number in README.md (1-based), its lines, its context. */
    record Snippet(int firstLine, String heading, List<String> lines, String context) {
        String name() {
            return "README.md:" + firstLine + " (" + heading + ")";
        }
    }

    @TestFactory
    Stream<DynamicTest> everyJavaBlockCompilesAndRuns() throws IOException {
        Path readme = findReadme();
        List<String> lines = Files.readAllLines(readme, StandardCharsets.UTF_8);
        List<Snippet> snippets = parse(lines);

        // Counted apart from the parser, and leniently ("``` Java", "```java title"), so that a fence the parser
        // does not take for Java, or a parser that stops early, fails here instead of silently testing less.
        long fences = lines.stream()
                .filter(l -> l.strip().toLowerCase(Locale.ROOT).matches("```+\\s*java\\b.*"))
                .count();
        assertTrue(fences > 0, "README.md has no ```java block: is " + readme + " the README?");
        assertEquals(fences, snippets.size(), "```java fences in README.md vs blocks parsed (a fence must read"
                + " exactly ```java)");

        URI readmeUri = readme.toUri();
        Stream<DynamicTest> blocks = snippets.stream().map(s -> DynamicTest.dynamicTest(s.name(),
                URI.create(readmeUri + "?line=" + s.firstLine()), () -> compileAndRun(s)));
        // A context no block names any more is hidden code that nothing runs: it would rot unseen.
        DynamicTest contextsUsed = DynamicTest.dynamicTest("every snippet-context is used", () -> {
            Set<String> used = new HashSet<>();
            snippets.forEach(s -> used.add(s.context()));
            for (String name : CONTEXTS.keySet()) {
                assertTrue(used.contains(name), "snippet-context '" + name + "' is used by no README block");
            }
        });
        return Stream.concat(blocks, Stream.of(contextsUsed));
    }

    /** README.md of the repository: the nearest directory at or above this module's that holds it and spindle-core. */
    static Path findReadme() {
        // Surefire runs in the module directory and sets basedir; an IDE may run from the repository root.
        String start = System.getProperty("basedir", System.getProperty("user.dir"));
        for (Path dir = Path.of(start).toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("spindle-core"))) {
                return dir.resolve("README.md");
            }
        }
        throw new AssertionError("no README.md beside a spindle-core directory at or above " + start);
    }

    /** Every fenced block whose info string is exactly {@code java}, with the heading and context above it. */
    static List<Snippet> parse(List<String> lines) {
        List<Snippet> snippets = new ArrayList<>();
        String heading = "top";
        String lastNonBlank = "";
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String stripped = line.strip();
            if (stripped.startsWith("```")) {
                String fence = stripped.substring(0, stripped.length() - stripped.replaceFirst("^`+", "").length());
                String info = stripped.substring(fence.length()).strip();
                int indent = line.indexOf('`');
                int close = i + 1;
                while (close < lines.size() && !lines.get(close).strip().equals(fence)) {
                    close++;
                }
                if (close == lines.size()) {
                    throw new AssertionError("README.md:" + (i + 1) + ": fence " + fence + " is never closed");
                }
                if (info.equals("java")) {
                    List<String> body = new ArrayList<>();
                    for (String b : lines.subList(i + 1, close)) {
                        // A block indented under a list item: drop the fence's indentation from every line.
                        body.add(b.length() >= indent && b.substring(0, indent).isBlank() ? b.substring(indent) : b);
                    }
                    Matcher m = CONTEXT_COMMENT.matcher(lastNonBlank);
                    snippets.add(new Snippet(i + 2, heading, body, m.matches() ? m.group(1) : null));
                }
                i = close;
                lastNonBlank = "";
                continue;
            }
            if (line.startsWith("#")) {
                heading = line.replaceFirst("^#+\\s*", "");
            }
            if (!stripped.isEmpty()) {
                lastNonBlank = stripped;
            }
        }
        return snippets;
    }

    /** The generated class's text, with each line's origin for diagnostics. */
    record Source(String className, String text, List<String> origins) {}

    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;.*");
    private static final Pattern PUBLIC_CLASS = Pattern.compile("^public\\s+(?:final\\s+)?class\\s+(\\w+)\\b.*");

    static Source wrap(Snippet snippet) {
        List<String> body = snippet.lines();
        Matcher pkg = body.isEmpty() ? null : PACKAGE.matcher(body.get(0));
        if (pkg != null && pkg.matches()) {
            return wholeFile(snippet, pkg.group(1));
        }
        Context context = snippet.context() == null ? new Context("", "", "") : CONTEXTS.get(snippet.context());
        if (context == null) {
            throw new AssertionError(snippet.name() + ": unknown snippet-context '" + snippet.context() + "'; known: "
                    + CONTEXTS.keySet());
        }
        String className = "ReadmeSnippet" + snippet.firstLine();
        List<String> imports = new ArrayList<>();
        List<Integer> importLines = new ArrayList<>();
        List<String> members = new ArrayList<>();
        List<Integer> memberLines = new ArrayList<>();
        List<String> statements = new ArrayList<>();
        List<Integer> statementLines = new ArrayList<>();
        for (int i = 0; i < body.size(); i++) {
            String line = body.get(i);
            int readmeLine = snippet.firstLine() + i;
            if (line.startsWith("import ")) {
                imports.add(line);
                importLines.add(readmeLine);
            } else if (DECLARATION_START.matcher(line).matches()) {
                int end = endOfDeclaration(body, i);
                for (int j = i; j <= end; j++) {
                    members.add(body.get(j));
                    memberLines.add(snippet.firstLine() + j);
                }
                i = end;
            } else {
                statements.add(line);
                statementLines.add(readmeLine);
            }
        }

        StringBuilder text = new StringBuilder();
        List<String> origins = new ArrayList<>();
        BiConsumer<String, String> emit = (code, origin) -> {
            for (String l : code.split("\n", -1)) {
                text.append(l).append('\n');
                origins.add(origin);
            }
        };
        BiConsumer<String, String> emitContext = (code, part) -> {
            if (code.isEmpty()) {
                return;
            }
            String[] ls = code.split("\n");
            for (int k = 0; k < ls.length; k++) {
                emit.accept(ls[k], "snippet-context '" + snippet.context() + "' (" + part + ") line " + (k + 1));
            }
        };
        for (String imp : IMPORTS) {
            emit.accept("import " + imp + ";", "the test's fixed imports");
        }
        for (int k = 0; k < imports.size(); k++) {
            emit.accept(imports.get(k), "README.md:" + importLines.get(k));
        }
        emit.accept("public final class " + className + " {", "the test's wrapper");
        emitContext.accept(context.members(), "members");
        for (int k = 0; k < members.size(); k++) {
            emit.accept(members.get(k), "README.md:" + memberLines.get(k));
        }
        emit.accept("public static void run() throws Exception {", "the test's wrapper");
        emitContext.accept(context.before(), "before");
        for (int k = 0; k < statements.size(); k++) {
            emit.accept(statements.get(k), "README.md:" + statementLines.get(k));
        }
        emitContext.accept(context.after(), "after");
        emit.accept("}\n}", "the test's wrapper");
        return new Source(className, text.toString(), origins);
    }

    /** A block that is a whole source file: compiled as it stands; its public class's {@code main} is run. */
    private static Source wholeFile(Snippet snippet, String packageName) {
        if (snippet.context() != null) {
            throw new AssertionError(snippet.name() + ": a whole source file takes no snippet-context");
        }
        String className = null;
        List<String> origins = new ArrayList<>();
        for (int i = 0; i < snippet.lines().size(); i++) {
            Matcher c = PUBLIC_CLASS.matcher(snippet.lines().get(i));
            if (className == null && c.matches()) {
                className = packageName + "." + c.group(1);
            }
            origins.add("README.md:" + (snippet.firstLine() + i));
        }
        if (className == null) {
            throw new AssertionError(snippet.name() + ": a block that starts with a package declaration needs a"
                    + " top-level public class (at column 0)");
        }
        return new Source(className, String.join("\n", snippet.lines()) + "\n", origins);
    }

    /**
     * The index of the line that closes the declaration starting at {@code start}: where its braces balance after
     * the first one opened, or, with no brace, the line ending with {@code ;}. Braces in strings, character literals
     * and comments do not count.
     */
    static int endOfDeclaration(List<String> lines, int start) {
        int depth = 0;
        boolean opened = false;
        boolean inBlockComment = false;
        for (int i = start; i < lines.size(); i++) {
            String l = lines.get(i);
            for (int c = 0; c < l.length(); c++) {
                char ch = l.charAt(c);
                if (inBlockComment) {
                    if (l.startsWith("*/", c)) {
                        inBlockComment = false;
                        c++;
                    }
                } else if (l.startsWith("//", c)) {
                    break;
                } else if (l.startsWith("/*", c)) {
                    inBlockComment = true;
                    c++;
                } else if (ch == '"' || ch == '\'') {
                    for (c++; c < l.length() && l.charAt(c) != ch; c++) {
                        if (l.charAt(c) == '\\') {
                            c++;
                        }
                    }
                } else if (ch == '{') {
                    depth++;
                    opened = true;
                } else if (ch == '}') {
                    depth--;
                }
            }
            if (opened ? depth == 0 : l.strip().endsWith(";")) {
                return i;
            }
        }
        throw new AssertionError("README.md declaration at block line " + (start + 1) + " never closes");
    }

    private static void compileAndRun(Snippet snippet) throws Exception {
        Source source = wrap(snippet);
        Map<String, byte[]> classes = compile(source, snippet);
        ClassLoader loader = new ClassLoader(ReadmeSnippetsTest.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                byte[] bytes = classes.get(name);
                if (bytes == null) {
                    throw new ClassNotFoundException(name);
                }
                return defineClass(name, bytes, 0, bytes.length);
            }
        };
        Class<?> snippetClass = loader.loadClass(source.className());
        boolean wholeFile = !snippet.lines().isEmpty() && PACKAGE.matcher(snippet.lines().get(0)).matches();
        Method run = wholeFile ? snippetClass.getMethod("main", String[].class) : snippetClass.getMethod("run");
        Object[] arguments = wholeFile ? new Object[] {new String[0]} : new Object[0];
        assertTimeoutPreemptively(RUN_TIMEOUT, () -> {
            try {
                run.invoke(null, arguments);
            } catch (InvocationTargetException e) {
                throw new AssertionError(snippet.name() + " threw " + e.getCause(), e.getCause());
            }
        }, () -> snippet.name() + " did not return within " + RUN_TIMEOUT);
    }

    /** Compiles the wrapped snippet in memory against spindle-core; fails with every error at its README line. */
    private static Map<String, byte[]> compile(Source source, Snippet snippet) throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        assertNotNull(compiler, "no system Java compiler: run the tests on a JDK, not a JRE");
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Map<String, ByteArrayOutputStream> out = new HashMap<>();
        JavaFileObject file = new SimpleJavaFileObject(uri(source.className(), JavaFileObject.Kind.SOURCE),
                JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source.text();
            }
        };
        // spindle-core's classes (a directory in a reactor build, a jar otherwise): the only library a snippet may use.
        String spindleCore;
        try {
            spindleCore = Path.of(ThreadPool.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new AssertionError(e);
        }
        List<String> options = List.of("--release", "17", "-classpath", spindleCore, "-proc:none");
        StringWriter compilerOutput = new StringWriter();
        try (StandardJavaFileManager standard = compiler.getStandardFileManager(diagnostics, null, null);
             JavaFileManager manager = new ForwardingJavaFileManager<>(standard) {
                 @Override
                 public JavaFileObject getJavaFileForOutput(Location location, String className,
                                                            JavaFileObject.Kind kind, FileObject sibling) {
                     return new SimpleJavaFileObject(uri(className, kind), kind) {
                         @Override
                         public OutputStream openOutputStream() {
                             return out.computeIfAbsent(className, n -> new ByteArrayOutputStream());
                         }
                     };
                 }
             }) {
            boolean ok = compiler.getTask(compilerOutput, manager, diagnostics, options, null, List.of(file)).call();
            if (!ok) {
                StringBuilder message = new StringBuilder(snippet.name() + " does not compile:\n");
                for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                    int line = (int) d.getLineNumber();
                    String origin = line >= 1 && line <= source.origins().size()
                            ? source.origins().get(line - 1) : "generated line " + line;
                    message.append("  ").append(origin).append(": ").append(d.getKind().toString().toLowerCase(Locale.ROOT))
                            .append(": ").append(d.getMessage(Locale.ROOT)).append('\n');
                }
                message.append(compilerOutput).append("generated source:\n");
                String[] generated = source.text().split("\n");
                for (int k = 0; k < generated.length; k++) {
                    message.append(String.format("%4d  %s%n", k + 1, generated[k]));
                }
                fail(message.toString());
            }
        }
        Map<String, byte[]> classes = new HashMap<>();
        out.forEach((name, bytes) -> classes.put(name, bytes.toByteArray()));
        return classes;
    }

    private static URI uri(String className, JavaFileObject.Kind kind) {
        return URI.create("string:///" + className.replace('.', '/') + kind.extension);
    }
}
