package io.tandem.world.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs a test resource's node script against the npm packages .ci/run installs in
 * tandem-world/target/mcapjs: the official readers the conformance tests check our files with.
 * Without node or a package the calling test is skipped with the reason.
 */
final class NodeScript {
    private NodeScript() {
    }

    /**
     * @param resource a .cjs script beside this class
     * @param dir      a folder to copy it into
     * @param packages the npm packages it needs, e.g. "@mcap/core"
     * @param args     its arguments
     * @return what it printed, trimmed (after asserting that it exited with 0)
     */
    static String run(String resource, Path dir, List<String> packages, String... args) throws IOException, InterruptedException {
        Path modules = Path.of("target/mcapjs/node_modules").toAbsolutePath();
        for (String p : packages) {
            Assumptions.assumeTrue(Files.isDirectory(modules.resolve(p)),
                    p + " is not installed in " + modules + " (.ci/run installs it with npm)");
        }
        Path script = dir.resolve(resource);
        try (InputStream in = NodeScript.class.getResourceAsStream(resource)) {
            Files.copy(in, script);
        }
        List<String> command = new ArrayList<>(List.of("node", script.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("NODE_PATH", modules.toString());
        pb.redirectErrorStream(true);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            Assumptions.abort("node is not on the PATH: " + e.getMessage());
            return "";
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        return output;
    }
}
