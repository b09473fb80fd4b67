package io.tandem.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Configuration of the networked transport, for registries and participants. Built by
 * {@link #builder()} (validated at {@link Builder#build()}) or read from system properties by
 * {@link #fromSystemProperties()}; immutable afterwards.
 *
 * @param bindAddress            address the JGroups member binds to; null picks loopback for a
 *                               loopback registry and the registry's host address otherwise
 * @param registryTimeoutMs      how long joining waits for the registry (discovery, each join step)
 *                               before failing with an error naming the URI, ms
 * @param termLength             Aeron term length of each participant's publication, bytes (power
 *                               of two, 64 KiB .. 1 GiB); messages above an eighth of it are sent in
 *                               chunks
 * @param idle                   how the per-participant polling thread idles
 * @param registryDirectory      parent directory of the registries' media-driver directories; null
 *                               picks {@code /dev/shm/tandem-USER} where it exists, else
 *                               {@code java.io.tmpdir/tandem-USER}
 * @param failureTimeoutMs       JGroups FD_ALL3 timeout: a member silent this long is suspected, ms
 * @param heartbeatIntervalMs    JGroups FD_ALL3 heartbeat interval, ms
 * @param verifySuspectTimeoutMs JGroups VERIFY_SUSPECT2 timeout before a suspect is excluded, ms
 * @param clientTimeoutMs        media driver's client liveness timeout: how long a crashed
 *                               participant's publication and subscription are kept, ms
 * @param idleSpins              {@link Idle#BACKOFF}: idle polls that busy-spin before yielding
 * @param idleYields             {@link Idle#BACKOFF}: idle polls that yield before parking
 * @param idleMaxParkNs          {@link Idle#BACKOFF}: the longest park, ns (parks double from 1 us up to it)
 * @param driverIdleMaxParkNs    registries only: the longest park of the media driver's back-off
 *                               idle strategy, ns; bounds the latency a driver adds to Aeron UDP
 *                               (IPC does not pass through the driver)
 * @param peers                  registries only: the {@code tandem://host:port} URIs of the other
 *                               registries of the group (typically one per host; copied). A registry
 *                               started with peers joins their JGroups group, so simulations span
 *                               the registries: participants of one registry talk over Aeron IPC,
 *                               participants of different registries over Aeron UDP. Start the
 *                               registries one after another and before their participants; the
 *                               oldest registry sequences every simulation's membership.
 * @param secretFile             a file holding the group's shared secret (at least
 *                               {@value #MIN_SECRET_BYTES} bytes, e.g. {@code head -c 32 /dev/urandom}),
 *                               or null for none. With it, a member authenticates to the JGroups
 *                               group (its AUTH protocol, both ways) and signs every control and
 *                               Aeron frame (HMAC-SHA256, 16-byte tag); a process without it can
 *                               neither join nor have a step, an ack or a message accepted. Payloads
 *                               are not encrypted. Registries and participants need the same file
 *                               contents.
 */
public record NetConfig(
        String bindAddress,
        long registryTimeoutMs,
        int termLength,
        Idle idle,
        Path registryDirectory,
        long failureTimeoutMs,
        long heartbeatIntervalMs,
        long verifySuspectTimeoutMs,
        long clientTimeoutMs,
        int idleSpins,
        int idleYields,
        long idleMaxParkNs,
        long driverIdleMaxParkNs,
        List<String> peers,
        Path secretFile) {

    /** How a polling thread waits when there is nothing to do. */
    public enum Idle {
        /** Agrona's back-off: spin, yield, then park up to {@link #idleMaxParkNs()}; the default */
        BACKOFF,
        /** spin, then yield; never parks (a core each while idle, low latency) */
        YIELDING,
        /** busy-spin (a core each, lowest latency; only with a core per participant) */
        BUSY_SPIN
    }

    /** the back-off idle strategy's longest park, ns (the media driver's, and the default {@link #idleMaxParkNs()}) */
    public static final long BACKOFF_MAX_PARK_NS = 1_000_000;
    /** system property: {@link #idleSpins()} */
    public static final String IDLE_SPINS_PROP_NAME = "tandem.net.idle.spins";
    /**
     * default {@link #idleSpins()}: short, since while a participant's own thread is awake it polls
     * and the transport thread only steals CPU (bench timesync --transport aeron, 2 busy cores, 10
     * spins and 100 yields against 100 and 1,000: N = 8 about 9.5k against 8.1k steps/s, idle
     * participants 0.07-0.11 against 0.13-0.24 CPU s per s; N = 2 too noisy to tell)
     */
    public static final int DEFAULT_IDLE_SPINS = 10;
    /** system property: {@link #idleYields()} */
    public static final String IDLE_YIELDS_PROP_NAME = "tandem.net.idle.yields";
    /** default {@link #idleYields()} (see {@link #DEFAULT_IDLE_SPINS}) */
    public static final int DEFAULT_IDLE_YIELDS = 100;
    /** system property: {@link #driverIdleMaxParkNs()} */
    public static final String DRIVER_MAX_PARK_PROP_NAME = "tandem.net.driver.max.park.ns";
    /** system property: {@link #peers()}, comma-separated */
    public static final String PEERS_PROP_NAME = "tandem.net.peers";
    /** system property: {@link #idleMaxParkNs()} */
    public static final String IDLE_MAX_PARK_PROP_NAME = "tandem.net.idle.max.park.ns";

    /** system property: {@link #secretFile()} */
    public static final String SECRET_FILE_PROP_NAME = "tandem.net.secret.file";
    /** the shortest shared secret, bytes (128 bits) */
    public static final int MIN_SECRET_BYTES = 16;
    /** the longest shared secret file read, bytes */
    public static final int MAX_SECRET_BYTES = 64 * 1024;

    /** system property: {@link #bindAddress()} */
    public static final String BIND_ADDRESS_PROP_NAME = "tandem.net.bind.address";
    /** system property: {@link #registryTimeoutMs()} */
    public static final String REGISTRY_TIMEOUT_PROP_NAME = "tandem.net.registry.timeout.ms";
    /** default {@link #registryTimeoutMs()} */
    public static final long DEFAULT_REGISTRY_TIMEOUT_MS = 5_000;
    /** system property: {@link #termLength()} */
    public static final String TERM_LENGTH_PROP_NAME = "tandem.net.term.length";
    /** default {@link #termLength()}: 1 MiB, so messages up to 128 KiB go in one Aeron message */
    public static final int DEFAULT_TERM_LENGTH = 1 << 20;
    /** system property: {@link #idle()} (backoff, yielding, busy-spin) */
    public static final String IDLE_PROP_NAME = "tandem.net.idle";
    /** system property: {@link #registryDirectory()} */
    public static final String DIR_PROP_NAME = "tandem.net.dir";
    /** system property: {@link #failureTimeoutMs()} */
    public static final String FAILURE_TIMEOUT_PROP_NAME = "tandem.net.failure.timeout.ms";
    /** default {@link #failureTimeoutMs()}: with the defaults below a silent member is excluded in under 1 s */
    public static final long DEFAULT_FAILURE_TIMEOUT_MS = 700;
    /** system property: {@link #heartbeatIntervalMs()} */
    public static final String HEARTBEAT_INTERVAL_PROP_NAME = "tandem.net.heartbeat.interval.ms";
    /** default {@link #heartbeatIntervalMs()} */
    public static final long DEFAULT_HEARTBEAT_INTERVAL_MS = 100;
    /** system property: {@link #verifySuspectTimeoutMs()} */
    public static final String VERIFY_SUSPECT_TIMEOUT_PROP_NAME = "tandem.net.verify.suspect.timeout.ms";
    /** default {@link #verifySuspectTimeoutMs()} */
    public static final long DEFAULT_VERIFY_SUSPECT_TIMEOUT_MS = 100;
    /** system property: {@link #clientTimeoutMs()} */
    public static final String CLIENT_TIMEOUT_PROP_NAME = "tandem.net.client.timeout.ms";
    /** default {@link #clientTimeoutMs()} */
    public static final long DEFAULT_CLIENT_TIMEOUT_MS = 5_000;

    /** Validates (see {@link Builder#build()}). */
    public NetConfig {
        if (registryTimeoutMs <= 0) {
            throw new IllegalArgumentException("registry timeout must be > 0 ms, got " + registryTimeoutMs);
        }
        if (termLength < 64 * 1024 || termLength > 1 << 30 || Integer.bitCount(termLength) != 1) {
            throw new IllegalArgumentException("term length must be a power of two from 64 KiB to 1 GiB, got " + termLength);
        }
        if (idle == null) {
            throw new IllegalArgumentException("idle strategy must not be null");
        }
        if (heartbeatIntervalMs <= 0 || failureTimeoutMs < 2 * heartbeatIntervalMs) {
            throw new IllegalArgumentException("failure timeout (" + failureTimeoutMs
                    + " ms) must be at least twice the heartbeat interval (" + heartbeatIntervalMs + " ms), both > 0");
        }
        if (verifySuspectTimeoutMs <= 0 || clientTimeoutMs <= 0) {
            throw new IllegalArgumentException("verify-suspect and client timeouts must be > 0 ms");
        }
        peers = List.copyOf(peers == null ? List.of() : peers);
        for (String peer : peers) {
            if (!peer.startsWith("tandem://")) {
                throw new IllegalArgumentException("peer registries must be tandem://HOST:PORT URIs, got '" + peer + "'");
            }
        }
        if (idleSpins < 0 || idleYields < 0 || idleMaxParkNs < 1_000 || driverIdleMaxParkNs < 1_000) {
            throw new IllegalArgumentException("idle spins and yields must be >= 0 and the longest parks >= 1000 ns, got "
                    + idleSpins + ", " + idleYields + ", " + idleMaxParkNs + ", " + driverIdleMaxParkNs);
        }
        if (secretFile != null) {
            checkSecretFile(secretFile);
        }
    }

    private static void checkSecretFile(Path file) {
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the shared secret file " + file + " (" + e.getMessage()
                    + "): create it with 'head -c 32 /dev/urandom > " + file + "' and give every member a copy", e);
        }
        if (!Files.isReadable(file) || Files.isDirectory(file)) {
            throw new IllegalArgumentException("cannot read the shared secret file " + file + ": it is a directory or"
                    + " not readable by this user");
        }
        if (size < MIN_SECRET_BYTES || size > MAX_SECRET_BYTES) {
            throw new IllegalArgumentException("the shared secret file " + file + " holds " + size + " bytes; it needs "
                    + MIN_SECRET_BYTES + " to " + MAX_SECRET_BYTES + " (e.g. 'head -c 32 /dev/urandom > " + file + "')");
        }
    }

    /** @return a builder with the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding this configuration's values */
    public Builder toBuilder() {
        return builder().bindAddress(bindAddress).registryTimeoutMs(registryTimeoutMs).termLength(termLength).idle(idle)
                .registryDirectory(registryDirectory).failureTimeoutMs(failureTimeoutMs)
                .heartbeatIntervalMs(heartbeatIntervalMs).verifySuspectTimeoutMs(verifySuspectTimeoutMs)
                .clientTimeoutMs(clientTimeoutMs).idleSpins(idleSpins).idleYields(idleYields).idleMaxParkNs(idleMaxParkNs)
                .driverIdleMaxParkNs(driverIdleMaxParkNs).peers(peers).secretFile(secretFile);
    }

    /**
     * @return the defaults, overridden by the {@code tandem.net.*} system properties
     * @throws IllegalArgumentException if a property holds an invalid value (names the property)
     */
    public static NetConfig fromSystemProperties() {
        Builder b = builder();
        String bind = System.getProperty(BIND_ADDRESS_PROP_NAME);
        if (bind != null && !bind.isBlank()) {
            b.bindAddress(bind.trim());
        }
        b.registryTimeoutMs(longProp(REGISTRY_TIMEOUT_PROP_NAME, DEFAULT_REGISTRY_TIMEOUT_MS));
        b.termLength((int) longProp(TERM_LENGTH_PROP_NAME, DEFAULT_TERM_LENGTH));
        String idle = System.getProperty(IDLE_PROP_NAME);
        if (idle != null && !idle.isBlank()) {
            try {
                b.idle(Idle.valueOf(idle.trim().toUpperCase(Locale.ROOT).replace('-', '_')));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(IDLE_PROP_NAME + " must be backoff, yielding or busy-spin, got '" + idle + "'", e);
            }
        }
        String dir = System.getProperty(DIR_PROP_NAME);
        if (dir != null && !dir.isBlank()) {
            b.registryDirectory(Path.of(dir.trim()));
        }
        b.failureTimeoutMs(longProp(FAILURE_TIMEOUT_PROP_NAME, DEFAULT_FAILURE_TIMEOUT_MS));
        b.heartbeatIntervalMs(longProp(HEARTBEAT_INTERVAL_PROP_NAME, DEFAULT_HEARTBEAT_INTERVAL_MS));
        b.verifySuspectTimeoutMs(longProp(VERIFY_SUSPECT_TIMEOUT_PROP_NAME, DEFAULT_VERIFY_SUSPECT_TIMEOUT_MS));
        b.clientTimeoutMs(longProp(CLIENT_TIMEOUT_PROP_NAME, DEFAULT_CLIENT_TIMEOUT_MS));
        b.idleSpins((int) longProp(IDLE_SPINS_PROP_NAME, DEFAULT_IDLE_SPINS));
        b.idleYields((int) longProp(IDLE_YIELDS_PROP_NAME, DEFAULT_IDLE_YIELDS));
        b.idleMaxParkNs(longProp(IDLE_MAX_PARK_PROP_NAME, BACKOFF_MAX_PARK_NS));
        b.driverIdleMaxParkNs(longProp(DRIVER_MAX_PARK_PROP_NAME, BACKOFF_MAX_PARK_NS));
        String peers = System.getProperty(PEERS_PROP_NAME);
        if (peers != null && !peers.isBlank()) {
            List<String> list = new ArrayList<>();
            for (String p : peers.split(",")) {
                if (!p.isBlank()) {
                    list.add(p.trim());
                }
            }
            b.peers(list);
        }
        String secret = System.getProperty(SECRET_FILE_PROP_NAME);
        if (secret != null && !secret.isBlank()) {
            b.secretFile(Path.of(secret.trim()));
        }
        return b.build();
    }

    private static long longProp(String name, long dflt) {
        String v = System.getProperty(name);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("system property " + name + " must be an integer, got '" + v + "'", e);
        }
    }

    /** Builds a {@link NetConfig}; not thread-safe. */
    public static final class Builder {
        private String bindAddress;
        private long registryTimeoutMs = DEFAULT_REGISTRY_TIMEOUT_MS;
        private int termLength = DEFAULT_TERM_LENGTH;
        private Idle idle = Idle.BACKOFF;
        private Path registryDirectory;
        private long failureTimeoutMs = DEFAULT_FAILURE_TIMEOUT_MS;
        private long heartbeatIntervalMs = DEFAULT_HEARTBEAT_INTERVAL_MS;
        private long verifySuspectTimeoutMs = DEFAULT_VERIFY_SUSPECT_TIMEOUT_MS;
        private long clientTimeoutMs = DEFAULT_CLIENT_TIMEOUT_MS;
        private int idleSpins = DEFAULT_IDLE_SPINS;
        private int idleYields = DEFAULT_IDLE_YIELDS;
        private long idleMaxParkNs = BACKOFF_MAX_PARK_NS;
        private long driverIdleMaxParkNs = BACKOFF_MAX_PARK_NS;
        private List<String> peers = List.of();
        private Path secretFile;

        private Builder() {
        }

        /** @param v see {@link NetConfig#bindAddress()} @return this */
        public Builder bindAddress(String v) {
            bindAddress = v;
            return this;
        }

        /** @param v see {@link NetConfig#registryTimeoutMs()} @return this */
        public Builder registryTimeoutMs(long v) {
            registryTimeoutMs = v;
            return this;
        }

        /** @param v see {@link NetConfig#termLength()} @return this */
        public Builder termLength(int v) {
            termLength = v;
            return this;
        }

        /** @param v see {@link NetConfig#idle()} @return this */
        public Builder idle(Idle v) {
            idle = v;
            return this;
        }

        /** @param v see {@link NetConfig#registryDirectory()} @return this */
        public Builder registryDirectory(Path v) {
            registryDirectory = v;
            return this;
        }

        /** @param v see {@link NetConfig#failureTimeoutMs()} @return this */
        public Builder failureTimeoutMs(long v) {
            failureTimeoutMs = v;
            return this;
        }

        /** @param v see {@link NetConfig#heartbeatIntervalMs()} @return this */
        public Builder heartbeatIntervalMs(long v) {
            heartbeatIntervalMs = v;
            return this;
        }

        /** @param v see {@link NetConfig#verifySuspectTimeoutMs()} @return this */
        public Builder verifySuspectTimeoutMs(long v) {
            verifySuspectTimeoutMs = v;
            return this;
        }

        /** @param v see {@link NetConfig#clientTimeoutMs()} @return this */
        public Builder clientTimeoutMs(long v) {
            clientTimeoutMs = v;
            return this;
        }

        /** @param v see {@link NetConfig#idleSpins()} @return this */
        public Builder idleSpins(int v) {
            idleSpins = v;
            return this;
        }

        /** @param v see {@link NetConfig#idleYields()} @return this */
        public Builder idleYields(int v) {
            idleYields = v;
            return this;
        }

        /** @param v see {@link NetConfig#idleMaxParkNs()} @return this */
        public Builder idleMaxParkNs(long v) {
            idleMaxParkNs = v;
            return this;
        }

        /** @param v see {@link NetConfig#driverIdleMaxParkNs()} @return this */
        public Builder driverIdleMaxParkNs(long v) {
            driverIdleMaxParkNs = v;
            return this;
        }

        /** @param v see {@link NetConfig#peers()} (not modified) @return this */
        public Builder peers(List<String> v) {
            peers = v;
            return this;
        }

        /** @param v see {@link NetConfig#secretFile()} @return this */
        public Builder secretFile(Path v) {
            secretFile = v;
            return this;
        }

        /**
         * @return the configuration
         * @throws IllegalArgumentException if a value is out of range (names it), or the secret file
         *                                  cannot be read or has the wrong size
         */
        public NetConfig build() {
            return new NetConfig(bindAddress, registryTimeoutMs, termLength, idle, registryDirectory, failureTimeoutMs,
                    heartbeatIntervalMs, verifySuspectTimeoutMs, clientTimeoutMs, idleSpins, idleYields, idleMaxParkNs,
                    driverIdleMaxParkNs, peers, secretFile);
        }
    }
}
