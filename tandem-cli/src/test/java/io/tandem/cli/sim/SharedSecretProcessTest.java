package io.tandem.cli.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cli.TandemCli;
import io.tandem.cli.tools.TestChild;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --secret-file} with real processes: a distributed run whose members share the secret
 * records what a standalone run records (the local secondaries inherit it); a secondary without the
 * secret, or with another, is refused at once with exit code 1 and the fix, and the registry keeps
 * serving; a file too short is a usage error.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SharedSecretProcessTest {
    private static final String RELAY = Path.of("../examples/worlds/relay.sdf").toString();
    private final List<TestChild> children = new ArrayList<>();

    @TempDir
    Path tmp;

    @AfterEach
    void killChildren() {
        for (TestChild c : children) {
            c.close();
        }
    }

    private TestChild start(String name, String... args) {
        TestChild c = TestChild.tandem(name, args);
        children.add(c);
        return c;
    }

    private Path secret(String name, String content) throws Exception {
        Path f = tmp.resolve(name);
        Files.writeString(f, content);
        return f;
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void primaryWithLocalSecondariesAndASecret_recordEqualsTheStandaloneRecord() throws Exception {
        Path key = secret("key", "0123456789abcdef0123456789abcdef");
        Path dist = tmp.resolve("dist.csv");
        Path alone = tmp.resolve("alone.csv");
        TestChild primary = start("primary", "sim", RELAY, "--network-role", "primary", "--local-secondaries", "2",
                "--secret-file", key.toString(), "--iterations", "1500", "--record", dist.toString());
        assertThat(primary.awaitExit(150_000)).as("primary; output:%n%s", primary.output()).isZero();
        assertThat(primary.output()).contains("[secondary-1] secondary secondary-1: 1500 iterations");
        assertThat(TandemCli.execute(new PrintWriter(new StringWriter(), true), new PrintWriter(new StringWriter(), true),
                "sim", RELAY, "--levels", "--iterations", "1500", "--record", alone.toString())).isZero();
        assertThat(Files.mismatch(dist, alone)).as("first differing byte of the distributed and standalone records")
                .isEqualTo(-1L);
    }

    @Test
    void registryWithASecret_secondaryWithoutItOrWithAnother_refusedAtOnceNamingTheFix() throws Exception {
        Path key = secret("key", "0123456789abcdef0123456789abcdef");
        Path other = secret("other", "fedcba9876543210fedcba9876543210");
        String uri = "tandem://127.0.0.1:" + freePort();
        TestChild registry = start("registry", "registry", "--listen", uri, "--dir", tmp.resolve("reg").toString(),
                "--secret-file", key.toString());
        registry.awaitLine(l -> l.contains("listening on " + uri), 30_000);

        long t0 = System.nanoTime();
        TestChild none = start("none", "sim", RELAY, "--network-role", "secondary", "--name", "secondary-1", "--registry",
                uri);
        assertThat(none.awaitExit(30_000)).as("output:%n%s", none.output()).isEqualTo(1);
        assertThat(none.output()).contains("requires a shared secret", "--secret-file").doesNotContain("Exception", "\tat ");

        TestChild wrong = start("wrong", "sim", RELAY, "--network-role", "secondary", "--name", "secondary-1",
                "--registry", uri, "--secret-file", other.toString());
        assertThat(wrong.awaitExit(30_000)).as("output:%n%s", wrong.output()).isEqualTo(1);
        assertThat(wrong.output()).contains("refused this participant's shared secret", other.toString())
                .doesNotContain("Exception", "\tat ");
        // both within the JVMs' start-up and one join, not the 60 s start timeout
        assertThat((System.nanoTime() - t0) / 1e9).as("seconds for both refusals").isLessThan(40);

        // the registry still serves members with the secret
        TestChild primary = start("primary", "sim", RELAY, "--network-role", "primary", "--local-secondaries", "1",
                "--registry", uri, "--secret-file", key.toString(), "--iterations", "200");
        assertThat(primary.awaitExit(120_000)).as("primary; output:%n%s", primary.output()).isZero();
        assertThat(registry.process.isAlive()).isTrue();
    }

    @Test
    void secretFile_tooShort_usageErrorNamingTheFileAndTheFix() throws Exception {
        Path shortKey = secret("short", "tiny");
        StringWriter err = new StringWriter();
        int code = TandemCli.execute(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), "registry",
                "--secret-file", shortKey.toString());
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("invalid value for option '--secret-file'", shortKey.toString(), "4 bytes",
                "head -c 32 /dev/urandom");
    }
}
