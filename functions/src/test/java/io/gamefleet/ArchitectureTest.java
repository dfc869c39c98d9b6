package io.gamefleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The direction of dependencies, read from the imports of every module's main sources: no cycle
 * between packages, a domain that imports only itself and the JDK, a catalog that depends on
 * nothing. (Modules cannot form cycles: Maven refuses them.)
 */
class ArchitectureTest {
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern PACKAGE = Pattern.compile("^package (io\\.gamefleet[\\w.]*);", Pattern.MULTILINE);
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?([\\w.]+)\\.[\\w*]+;", Pattern.MULTILINE);

    private final Map<String, Set<String>> imports = readImports();

    @Test
    void noPackageCycle() {
        Map<String, Set<String>> internal = new TreeMap<>();
        imports.forEach((pkg, deps) -> {
            Set<String> targets = new TreeSet<>();
            for (String dep : deps) {
                imports.keySet().stream().filter(p -> dep.equals(p) || dep.startsWith(p + "."))
                        .max((a, b) -> a.length() - b.length()).filter(p -> !p.equals(pkg)).ifPresent(targets::add);
            }
            internal.put(pkg, targets);
        });
        assertThat(internal).as("packages read").containsKeys("io.gamefleet.domain", "io.gamefleet.catalog",
                "io.gamefleet.infra", "io.gamefleet.adapters.dynamodb");
        assertThat(cycles(internal)).isEmpty();
    }

    @Test
    void theDomainImportsOnlyItselfAndTheJdk() {
        assertThat(outsideTheJdk("io.gamefleet.domain")).isEmpty();
    }

    @Test
    void theCatalogDependsOnNothing() {
        assertThat(outsideTheJdk("io.gamefleet.catalog")).isEmpty();
    }

    /** What the package imports besides itself (and its nested classes) and the JDK. */
    private Set<String> outsideTheJdk(String pkg) {
        Set<String> other = new TreeSet<>(imports.get(pkg));
        other.removeIf(i -> i.startsWith("java.") || i.startsWith("javax.") || i.equals(pkg) || i.startsWith(pkg + "."));
        return other;
    }

    private static Map<String, Set<String>> readImports() {
        Map<String, Set<String>> result = new HashMap<>();
        try (Stream<Path> files = Files.walk(REPOSITORY)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> f.toString().contains("/src/main/java/")).toList()) {
                String source = Files.readString(file);
                Matcher pkg = PACKAGE.matcher(source);
                if (!pkg.find()) {
                    continue;
                }
                Set<String> deps = result.computeIfAbsent(pkg.group(1), p -> new TreeSet<>());
                Matcher imp = IMPORT.matcher(source);
                while (imp.find()) {
                    deps.add(imp.group(1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return result;
    }

    /** The strongly connected components with more than one package (Tarjan). */
    private static List<Set<String>> cycles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> found = new ArrayList<>();
        for (String start : graph.keySet()) {
            if (!index.containsKey(start)) {
                connect(start, graph, index, low, stack, onStack, found);
            }
        }
        return found;
    }

    private static void connect(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<Set<String>> found) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, graph, index, low, stack, onStack, found);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                found.add(component);
            }
        }
    }
}
