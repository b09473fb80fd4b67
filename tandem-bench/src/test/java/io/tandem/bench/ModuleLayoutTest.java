package io.tandem.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The module rule and the package layout, read from the checkout's sources (README, "Modules"):
 * a module depends only on modules listed before it in the root pom (its module-info's
 * {@code requires} and its pom's compile-scope dependencies), no module imports another module's
 * {@code internal} packages, no package holds more than 25 types and tandem-cle's root package
 * at most 15. Runs here because tandem-bench is the last module.
 */
class ModuleLayoutTest {
    private static final Pattern MODULE = Pattern.compile("<module>(tandem-[a-z]+)</module>");
    private static final Pattern REQUIRES = Pattern.compile("requires\\s+(?:transitive\\s+)?io\\.tandem\\.([a-z]+)\\s*;");
    private static final Pattern DEPENDENCY = Pattern.compile(
            "<dependency>\\s*<groupId>io\\.tandem</groupId>\\s*<artifactId>(tandem-[a-z]+)</artifactId>(.*?)</dependency>",
            Pattern.DOTALL);
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?io\\.tandem\\.([a-z]+)\\.internal\\b",
            Pattern.MULTILINE);
    private static final Pattern TYPE = Pattern.compile("^(?:public\\s+|final\\s+|abstract\\s+|sealed\\s+|non-sealed\\s+)*"
            + "(?:class|interface|record|enum|@interface)\\s", Pattern.MULTILINE);

    private static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isRegularFile(p.resolve("tandem-physics/pom.xml"))) {
            p = p.getParent();
        }
        assertThat(p).as("the checkout above %s", Path.of("").toAbsolutePath()).isNotNull();
        return p;
    }

    private static List<String> modules() throws IOException {
        List<String> out = new ArrayList<>();
        Matcher m = MODULE.matcher(Files.readString(root().resolve("pom.xml"), StandardCharsets.UTF_8));
        while (m.find()) {
            out.add(m.group(1));
        }
        assertThat(out).as("the root pom's modules").startsWith("tandem-physics").hasSizeGreaterThanOrEqualTo(8);
        return out;
    }

    private static List<Path> javaFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }

    @Test
    void modules_dependOnlyOnModulesListedBeforeThem() throws IOException {
        List<String> order = modules();
        List<String> violations = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            String module = order.get(i);
            Path dir = root().resolve(module);
            Path info = dir.resolve("src/main/java/module-info.java");
            if (Files.isRegularFile(info)) {
                Matcher m = REQUIRES.matcher(Files.readString(info, StandardCharsets.UTF_8));
                while (m.find()) {
                    int j = order.indexOf("tandem-" + m.group(1));
                    if (j < 0 || j >= i) {
                        violations.add(module + " module-info requires io.tandem." + m.group(1));
                    }
                }
            }
            Matcher d = DEPENDENCY.matcher(Files.readString(dir.resolve("pom.xml"), StandardCharsets.UTF_8));
            while (d.find()) {
                boolean testOnly = d.group(2).contains("<scope>test</scope>");
                int j = order.indexOf(d.group(1));
                if (!testOnly && (j < 0 || j >= i)) {
                    violations.add(module + " pom depends on " + d.group(1));
                }
            }
        }
        assertThat(violations).as("dependencies on modules not listed before (root pom order %s)", order).isEmpty();
    }

    @Test
    void mainSources_importNoOtherModulesInternals() throws IOException {
        List<String> violations = new ArrayList<>();
        for (String module : modules()) {
            String own = module.substring("tandem-".length());
            for (Path f : javaFiles(root().resolve(module).resolve("src/main/java"))) {
                Matcher m = IMPORT.matcher(Files.readString(f, StandardCharsets.UTF_8));
                while (m.find()) {
                    if (!m.group(1).equals(own)) {
                        violations.add(root().relativize(f) + " imports io.tandem." + m.group(1) + ".internal");
                    }
                }
            }
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void packages_atMost25Types_cleRootAtMost15() throws IOException {
        Map<String, Integer> types = new TreeMap<>();
        for (String module : modules()) {
            Path src = root().resolve(module).resolve("src/main/java");
            for (Path f : javaFiles(src)) {
                String name = f.getFileName().toString();
                if (name.equals("package-info.java") || name.equals("module-info.java")
                        || !TYPE.matcher(Files.readString(f, StandardCharsets.UTF_8)).find()) {
                    continue;
                }
                types.merge(src.relativize(f.getParent()).toString().replace('/', '.').replace('\\', '.'), 1, Integer::sum);
            }
        }
        assertThat(types).containsKey("io.tandem.cle").containsKey("io.tandem.world");
        List<String> big = new ArrayList<>();
        types.forEach((pkg, n) -> {
            if (n > 25) {
                big.add(pkg + " (" + n + ")");
            }
        });
        assertThat(big).as("packages over 25 types: split them by role").isEmpty();
        assertThat(types.get("io.tandem.cle")).as("tandem-cle's root package: what engine and TF authors write against")
                .isLessThanOrEqualTo(15);
    }
}
