package io.tandem.cli.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cli.TandemCli;
import io.tandem.cosim.Participant;
import io.tandem.cosim.Registry;
import io.tandem.net.AeronTransport;
import io.tandem.net.NetConfig;
import io.tandem.net.internal.NetRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bad input to the simulation commands, run in this JVM: each is one clear line on standard error
 * naming the problem and the fix, a non-zero exit code (2 for a bad command line, 1 for a failure)
 * and no stack trace.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ToolsErrorTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return TandemCli.execute(new PrintWriter(out), new PrintWriter(err), args);
    }

    private List<String> errLines() {
        return err.toString().lines().toList();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void call_malformedRegistryUri_exits2NamingValueAndForm() {
        String[][] commands = {
            {"registry", "--listen", "127.0.0.1:8500"},
            {"registry", "--listen", "http://127.0.0.1:8500"},
            {"registry", "--listen", "tandem://127.0.0.1"},
            {"registry", "--listen", "tandem://127.0.0.1:99999"},
            {"monitor", "--registry", "tandem://127.0.0.1:8500/sim"},
            {"monitor", "--registry", "tandem://127.0.0.1:0"},
            {"controller", "p1", "--registry", "tandem://:8500"},
            {"demo", "cosim", "--registry", "tandem:/x", "--participant", "p1"},
        };
        for (String[] args : commands) {
            err.getBuffer().setLength(0);
            int code = run(args);
            String value = args[args.length - 1].startsWith("p1") ? args[3] : args[args.length - 1];
            assertThat(code).as(String.join(" ", args)).isEqualTo(2);
            assertThat(errLines().get(0)).as(String.join(" ", args)).contains("'" + value + "'")
                    .containsAnyOf("tandem://HOST:PORT", "out of range", "give the registry's port");
            assertThat(err.toString()).doesNotContain("\tat ");
        }
    }

    @Test
    void registry_unknownHost_exits2NamingHost() {
        int code = run("registry", "--listen", "tandem://no-such-host.invalid:8500");

        assertThat(code).isEqualTo(2);
        assertThat(errLines().get(0)).contains("unknown host 'no-such-host.invalid'");
    }

    @Test
    void registry_portInUse_exits1NamingPortAndFix() {
        try (Registry taken = Registry.start("tandem://127.0.0.1:0")) {
            int port = URI.create(taken.uri()).getPort();

            int code = run("registry", "--listen", taken.uri());

            assertThat(code).isEqualTo(1);
            assertThat(errLines()).singleElement().asString()
                    .startsWith("tandem registry: error: cannot listen on " + taken.uri() + ": port " + port + " is in use")
                    .contains("choose another port, e.g. --listen tandem://127.0.0.1:" + (port + 1));
        }
    }

    @Test
    void monitor_unreachableRegistry_exits1WithinTheBoundNamingUri() throws IOException {
        String uri = "tandem://127.0.0.1:" + freePort();
        System.setProperty(NetConfig.REGISTRY_TIMEOUT_PROP_NAME, "500");
        try {
            long start = System.nanoTime();
            int code = run("monitor", "--registry", uri);

            assertThat((System.nanoTime() - start) / 1_000_000).as("ms until the error").isLessThan(5_000);
            assertThat(code).isEqualTo(1);
            assertThat(errLines()).singleElement().asString()
                    .startsWith("tandem monitor: error: no registry answered at " + uri + " within 500 ms")
                    .contains("tandem registry --listen " + uri);
        } finally {
            System.clearProperty(NetConfig.REGISTRY_TIMEOUT_PROP_NAME);
        }
    }

    @Test
    void controller_duplicateParticipantName_exits1NamingNameAndSimulation() {
        try (Registry registry = Registry.start("tandem://127.0.0.1:0");
                Participant first = Participant.connect(registry.uri(), "demo", "controller")) {
            int code = run("controller", "p1", "p2", "--registry", registry.uri());

            assertThat(code).isEqualTo(1);
            assertThat(errLines()).singleElement().asString()
                    .contains("participant name 'controller' is already taken in simulation 'demo'")
                    .contains("choose a unique name");
        }
    }

    @Test
    void demoParticipant_duplicateName_exits1() {
        try (Registry registry = Registry.start("tandem://127.0.0.1:0");
                Participant first = Participant.connect(registry.uri(), "demo", "p2")) {
            int code = run("demo", "cosim", "--registry", registry.uri(), "--participant", "p2");

            assertThat(code).isEqualTo(1);
            assertThat(errLines()).singleElement().asString().startsWith("tandem demo cosim: error: ")
                    .contains("'p2' is already taken");
        }
    }

    @Test
    void monitor_registryOfAnotherProtocolVersion_exits1NamingBothVersions() {
        int other = AeronTransport.PROTOCOL_VERSION + 1;
        try (NetRegistry registry = NetRegistry.start(URI.create("tandem://127.0.0.1:0"),
                NetConfig.fromSystemProperties(), other)) {
            int code = run("monitor", "--registry", registry.uri());

            assertThat(code).isEqualTo(1);
            assertThat(errLines()).singleElement().asString()
                    .contains("registry " + registry.uri() + " speaks Tandem wire protocol version " + other)
                    .contains("this process speaks version " + AeronTransport.PROTOCOL_VERSION)
                    .contains("run the same Tandem version");
        }
    }

    @Test
    void controller_badNames_exits2() {
        assertThat(run("controller", "--registry", "tandem://127.0.0.1:8500")).isEqualTo(2);
        assertThat(run("controller", "p1", "p1")).isEqualTo(2);
        assertThat(err.toString()).contains("named twice");
        assertThat(run("controller", "controller")).isEqualTo(2);
        assertThat(err.toString()).contains("the controller's own name");
    }

    @Test
    void demo_participantWithoutRegistryOrUnknown_exits2WithFix() {
        assertThat(run("demo", "cosim", "--participant", "p1")).isEqualTo(2);
        assertThat(err.toString()).contains("--participant needs --registry");
        assertThat(run("demo", "cosim", "--registry", "tandem://127.0.0.1:8500", "--participant", "p7")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown participant 'p7'").contains("p1, p2, p3");
        assertThat(run("demo", "cosim", "--registry", "tandem://127.0.0.1:8500")).isEqualTo(2);
        assertThat(err.toString()).contains("--registry needs --participant NAME");
    }
}
