package io.tandem.cosim.internal;

import io.tandem.cosim.ParticipantNameTakenException;
import io.tandem.cosim.TandemException;
import io.tandem.cosim.msg.CosimMessage;
import io.tandem.cosim.spi.RegistryEndpoint;
import io.tandem.cosim.spi.Transport;
import io.tandem.cosim.spi.TransportListener;
import io.tandem.cosim.spi.TransportSession;
import java.net.URI;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-process transport ({@code tandem+inproc://NAME}): delivery is a direct call of the
 * receiver's {@link TransportListener} on the sender's thread, so per-sender order is program
 * order. Registries are named within the JVM (like SIL Kit's in-process registry on a URI).
 */
final class InprocTransport implements Transport {
    static final String SCHEME = "tandem+inproc";

    /** registries of this JVM by name; the JVM-wide name space is what an in-process URI means */
    private static final ConcurrentHashMap<String, InprocRegistry> REGISTRIES = new ConcurrentHashMap<>();

    @Override
    public String scheme() {
        return SCHEME;
    }

    @Override
    public RegistryEndpoint startRegistry(URI uri) {
        String name = registryName(uri);
        InprocRegistry registry = new InprocRegistry(name);
        if (REGISTRIES.putIfAbsent(name, registry) != null) {
            throw new TandemException("an in-process registry is already running at " + registry.uri()
                    + "; close it first or choose another name");
        }
        return registry;
    }

    @Override
    public TransportSession join(URI registryUri, String simulationName, String participantName, TransportListener listener) {
        String name = registryName(registryUri);
        InprocRegistry registry = REGISTRIES.get(name);
        if (registry == null) {
            throw new TandemException("no registry is running at " + SCHEME + "://" + name
                    + "; start one with Registry.start(\"" + SCHEME + "://" + name + "\") in this process");
        }
        return registry.join(simulationName, participantName, listener);
    }

    private static String registryName(URI uri) {
        String name = uri.getAuthority();
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("in-process registry URI '" + uri + "' needs a name: " + SCHEME + "://NAME");
        }
        return name;
    }

    /** One in-process registry: simulations by name. Guarded by its own monitor (not per step). */
    static final class InprocRegistry implements RegistryEndpoint {
        private final String name;
        private final Map<String, Simulation> simulations = new HashMap<>();
        private int nextPeerId = 1;

        InprocRegistry(String name) {
            this.name = name;
        }

        @Override
        public String uri() {
            return SCHEME + "://" + name;
        }

        /** Forgets the name; sessions stay connected to each other (nothing is lost). */
        @Override
        public void close() {
            REGISTRIES.remove(name, this);
        }

        synchronized Session join(String simulationName, String participantName, TransportListener listener) {
            Simulation sim = simulations.computeIfAbsent(simulationName, k -> new Simulation());
            for (Session m : sim.members) {
                if (m.name.equals(participantName)) {
                    throw new ParticipantNameTakenException("participant name '" + participantName
                            + "' is already taken in simulation '" + simulationName + "' on " + uri()
                            + "; choose a unique name per simulation");
                }
            }
            Session session = new Session(this, sim, nextPeerId++, participantName, listener);
            Session[] existing = sim.members;
            // the newcomer learns of every member before any of them can reach it ...
            for (Session m : existing) {
                listener.onPeerJoined(m.id, m.name);
            }
            // ... becomes reachable before any member learns of it (so replies to the join are not lost) ...
            Session[] grown = Arrays.copyOf(existing, existing.length + 1);
            grown[grown.length - 1] = session;
            sim.members = grown;
            // ... and members learn of it before it can send anything (join has not returned yet)
            for (Session m : existing) {
                m.listener.onPeerJoined(session.id, session.name);
            }
            return session;
        }

        synchronized void leave(Session session) {
            leave(session, false);
        }

        synchronized void leave(Session session, boolean connectionLost) {
            Simulation sim = session.simulation;
            Session[] old = sim.members;
            int idx = -1;
            for (int i = 0; i < old.length; i++) {
                if (old[i] == session) {
                    idx = i;
                }
            }
            if (idx < 0) {
                return;
            }
            Session[] shrunk = new Session[old.length - 1];
            System.arraycopy(old, 0, shrunk, 0, idx);
            System.arraycopy(old, idx + 1, shrunk, idx, old.length - idx - 1);
            sim.members = shrunk;
            for (Session m : shrunk) {
                m.listener.onPeerLeft(session.id, session.name, connectionLost);
            }
        }
    }

    /** Members of one simulation; the array is replaced on change, never modified. */
    static final class Simulation {
        volatile Session[] members = new Session[0];
    }

    /** One participant's session. */
    static final class Session implements TransportSession {
        private final InprocRegistry registry;
        final Simulation simulation;
        final int id;
        final String name;
        final TransportListener listener;
        private volatile boolean closed;

        Session(InprocRegistry registry, Simulation simulation, int id, String name, TransportListener listener) {
            this.registry = registry;
            this.simulation = simulation;
            this.id = id;
            this.name = name;
            this.listener = listener;
        }

        @Override
        public int peerId() {
            return id;
        }

        @Override
        public void send(int toPeerId, CosimMessage message) {
            if (closed) {
                return;
            }
            Session[] members = simulation.members;
            for (Session m : members) {
                if (m.id == toPeerId) {
                    m.listener.onMessage(id, message);
                    return;
                }
            }
        }

        @Override
        public void broadcast(CosimMessage message) {
            if (closed) {
                return;
            }
            Session[] members = simulation.members;
            for (Session m : members) {
                if (m != this) {
                    m.listener.onMessage(id, message);
                }
            }
        }

        @Override
        public void broadcastNextSimTask(long timePointNs, long durationNs) {
            if (closed) {
                return;
            }
            Session[] members = simulation.members;
            for (int i = 0; i < members.length; i++) {
                Session m = members[i];
                if (m != this) {
                    m.listener.onNextSimTask(id, timePointNs, durationNs);
                }
            }
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                registry.leave(this);
            }
        }

        /**
         * Test hook: cuts this session off as a transport that lost its registry does. Its
         * listener hears {@link TransportListener#onConnectionLost} and then every peer leave
         * (lost); the peers hear this one leave (lost); nothing is sent or delivered afterwards.
         * Idempotent; a closed session is left alone.
         *
         * @param reason passed to the listener
         */
        void loseConnection(String reason) {
            synchronized (registry) {
                if (closed) {
                    return;
                }
                closed = true;
                listener.onConnectionLost(reason);
                for (Session m : simulation.members) {
                    if (m != this) {
                        listener.onPeerLeft(m.id, m.name, true);
                    }
                }
                registry.leave(this, true);
            }
        }
    }
}
