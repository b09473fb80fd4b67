package io.tandem.cli.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Hosts for multi-host tests on one machine: network namespaces joined by veth pairs to one
 * bridge, each with its own address on a private /24 ({@code ip netns}, {@code ip link}: needs
 * root, as CI has). Host i (0-based) is namespace {@link #ns(int)} at {@link #address(int)};
 * {@link #cut(int)} takes its link down (a partition), {@link #mend(int)} brings it back. Names
 * carry this JVM's process id, so parallel runs do not collide; {@link #close} removes everything.
 */
public final class NetNamespaces implements AutoCloseable {
    private static String why = "";
    private final String prefix;
    private final String subnet;
    private final int hosts;

    private NetNamespaces(String prefix, String subnet, int hosts) {
        this.prefix = prefix;
        this.subnet = subnet;
        this.hosts = hosts;
    }

    /**
     * Creates the hosts.
     *
     * @return them, or null when this machine cannot make network namespaces (then {@link #why()} says why)
     */
    public static NetNamespaces create(int hosts) {
        long pid = ProcessHandle.current().pid();
        NetNamespaces n = new NetNamespaces("td" + pid % 100_000, "10.77." + (1 + pid % 250), hosts);
        try {
            n.up();
            return n;
        } catch (IOException | RuntimeException e) {
            why = e.getMessage();
            n.close();
            return null;
        }
    }

    /** @return why the last {@link #create} returned null */
    public static String why() {
        return why;
    }

    /** @return host i's namespace */
    public String ns(int i) {
        return prefix + (char) ('a' + i);
    }

    /** @return host i's address */
    public String address(int i) {
        return subnet + "." + (i + 1);
    }

    private void up() throws IOException {
        ip("link", "add", prefix + "br", "type", "bridge");
        ip("link", "set", prefix + "br", "up");
        for (int i = 0; i < hosts; i++) {
            String ns = ns(i);
            ip("netns", "add", ns);
            ip("link", "add", ns, "type", "veth", "peer", "name", ns + "p");
            ip("link", "set", ns + "p", "netns", ns);
            ip("link", "set", ns, "master", prefix + "br");
            ip("link", "set", ns, "up");
            ip("netns", "exec", ns, "ip", "addr", "add", address(i) + "/24", "dev", ns + "p");
            ip("netns", "exec", ns, "ip", "link", "set", ns + "p", "up");
            ip("netns", "exec", ns, "ip", "link", "set", "lo", "up");
        }
    }

    /** Takes host i's link down: it can reach no other host, nor they it. */
    public void cut(int i) throws IOException {
        ip("link", "set", ns(i), "down");
    }

    /** Brings host i's link back up. */
    public void mend(int i) throws IOException {
        ip("link", "set", ns(i), "up");
    }

    @Override
    public void close() {
        for (int i = 0; i < hosts; i++) {
            quietly("netns", "del", ns(i));
            quietly("link", "del", ns(i));
        }
        quietly("link", "del", prefix + "br");
    }

    private static void quietly(String... args) {
        try {
            ip(args);
        } catch (IOException | RuntimeException e) {
            // already gone
        }
    }

    private static void ip(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + ": no answer in 20 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", cmd), e);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed (" + p.exitValue() + "): " + out);
        }
    }
}
