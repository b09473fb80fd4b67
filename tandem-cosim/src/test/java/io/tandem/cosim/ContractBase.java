package io.tandem.cosim;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;

/**
 * Base of the behaviour contract suites that every transport runs unchanged: a transport's test
 * class extends a contract and says how to start a registry. Each test gets a fresh registry;
 * participants made with {@link #connect} are closed after the test.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class ContractBase {
    private static final AtomicInteger COUNTER = new AtomicInteger();
    /** how long a test waits for any one outcome before failing */
    protected static final long WAIT_S = 30;

    /** the registry of the running test */
    protected Registry registry;
    private final List<Participant> participants = Collections.synchronizedList(new ArrayList<>());

    /**
     * Starts a registry of the transport under test.
     *
     * @param uniqueName a name not used by any other test in this JVM
     * @return the started registry
     */
    protected abstract Registry startRegistry(String uniqueName);

    @BeforeEach
    void startTestRegistry() {
        registry = startRegistry("contract-" + COUNTER.incrementAndGet());
    }

    @AfterEach
    void closeEverything() {
        List<Participant> copy;
        synchronized (participants) {
            copy = new ArrayList<>(participants);
        }
        Collections.reverse(copy);
        for (Participant p : copy) {
            p.close();
        }
        registry.close();
    }

    /** Connects a participant to simulation "sim". */
    protected Participant connect(String name) {
        return connect("sim", name);
    }

    /** Connects a participant to a simulation. */
    protected Participant connect(String simulation, String name) {
        Participant p = Participant.connect(registry.uri(), simulation, name);
        participants.add(p);
        return p;
    }

    /** The participants connected by this test under a name (closed ones included). */
    protected List<Participant> participantsNamed(String name) {
        List<Participant> out = new ArrayList<>();
        synchronized (participants) {
            for (Participant p : participants) {
                if (p.name().equals(name)) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /** Connects a participant "controller" that sets the workflow configuration. */
    protected Participant controller(String... required) {
        Participant c = connect("controller");
        c.createSystemController().setWorkflowConfiguration(List.of(required));
        return c;
    }

    /** Waits for a future, failing the test after {@link #WAIT_S} with every participant's state. */
    protected <T> T await(CompletableFuture<T> f) {
        try {
            return f.get(WAIT_S, TimeUnit.SECONDS);
        } catch (Exception e) {
            StringBuilder state = new StringBuilder();
            synchronized (participants) {
                for (Participant p : participants) {
                    state.append("\n  ").append(p);
                }
            }
            throw new AssertionError("did not complete within " + WAIT_S + " s: " + e + "; participants:" + state, e);
        }
    }

    /** A payload holding longs, big-endian. */
    protected static byte[] longs(long... values) {
        byte[] out = new byte[values.length * 8];
        for (int i = 0; i < values.length; i++) {
            for (int b = 0; b < 8; b++) {
                out[i * 8 + b] = (byte) (values[i] >>> (56 - 8 * b));
            }
        }
        return out;
    }

    /** The i-th long of a payload made by {@link #longs}. */
    protected static long longAt(byte[] data, int i) {
        long v = 0;
        for (int b = 0; b < 8; b++) {
            v = (v << 8) | (data[i * 8 + b] & 0xff);
        }
        return v;
    }
}
