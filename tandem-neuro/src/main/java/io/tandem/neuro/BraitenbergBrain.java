package io.tandem.neuro;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The brain of the NRP Husky Braitenberg experiment (shared/specs/nrp.md section 3), in NEST
 * units as NRP-core's {@code braitenberg.py} writes it, with the devices the NRP attaches:
 *
 * <ul>
 *   <li>nodes 0-7: {@code iaf_cond_alpha} neurons; 0-4 sensors, 5 the "go-on" neuron (threshold
 *       below rest, so it fires on its own), 6 and 7 the left and right actors. Parameters:
 *       C_m 25 pF, g_L 2.5 nS, E_L -60.5 mV, V_th -60 mV, V_reset -60.5 mV, t_ref 10 ms,
 *       tau_syn 2.5 ms, E_ex 0 mV, E_in -75 mV, V_m -60.5 mV; go-on: V_reset -61.6, V_th -60.51;
 *   <li>{@code tsodyks_synapse} U 1, tau_rec 1 ms, tau_fac 1 ms (tau_psc NEST's default 3 ms),
 *       delay 0.1 ms, weights in nS: 2&rarr;7 and 3&rarr;6 0.15; 0,1&rarr;4 and 0,1&rarr;5 -1.2
 *       (inhibitory); 4&rarr;7 0.105; 5&rarr;7 0.14;
 *   <li>node 8, 9, 10: {@code poisson_generator}s "red left eye" &rarr; 0, 2; "red right eye"
 *       &rarr; 1, 3; "green-blue" &rarr; 4; weight 0.15 nS, delay 0.1 ms; rates 0 at first;
 *   <li>nodes 11, 12: leaky integrators of actors 6 and 7 ({@code leaky_integrator_alpha}): an
 *       {@code iaf_psc_alpha} with V_th 1e10, C_m 1000 pF, tau_m 10 ms, tau_syn 2 ms, E_L 0,
 *       V_reset 0, t_ref 0.1 ms, fed one-to-one with weight 10 pA, delay 0.1 ms;
 *   <li>node 13: a {@code spike_recorder} on neurons 0-7.
 * </ul>
 *
 * <p>The transfer functions' formulas are here too: {@link #setEyeInput} (rates 2000 Hz times the
 * red fraction of each half image, 75 Hz times the non-red fraction) and {@link #linearX()},
 * {@link #angularZ()} (20 min(V_L, V_R) and 100 (V_R - V_L)).
 *
 * <p>Not thread-safe (see {@link SpikingNetwork}). Close it to release the network.
 */
public final class BraitenbergBrain implements AutoCloseable {
    /** Rate of a red-eye generator for an all-red half image (Hz). */
    public static final double MAX_RED_RATE_HZ = 2000.0;
    /** Rate of the green-blue generator for an image without red (Hz). */
    public static final double MAX_NON_RED_RATE_HZ = 75.0;

    private static final int LEFT_EYE = 8;
    private static final int RIGHT_EYE = 9;
    private static final int GREEN_BLUE = 10;
    private static final int LEFT_INTEGRATOR = 11;
    private static final int RIGHT_INTEGRATOR = 12;
    private static final int RECORDER = 13;

    private final SpikingNetwork network;

    private BraitenbergBrain(SpikingNetwork network) {
        this.network = network;
    }

    /**
     * Builds the brain at NEST's resolution 0.1 ms, single-threaded.
     *
     * @param seed the seed of the Poisson trains
     */
    public static BraitenbergBrain build(long seed) {
        NetworkBuilder b = SpikingNetwork.builder().resolutionNs(NetworkBuilder.DEFAULT_RESOLUTION_NS).seed(seed);
        define(b);
        return new BraitenbergBrain(b.build());
    }

    /**
     * Builds the brain with more nodes after it (e.g. a larger network sharing the simulation, to
     * load a closed loop with a heavier brain); the brain's node ids stay as in the class notes.
     *
     * @param seed    the seed of the Poisson trains (and of whatever {@code more} adds)
     * @param threads update threads
     * @param more    adds nodes to the builder after the brain's 14. Called once.
     */
    public static BraitenbergBrain build(long seed, int threads, java.util.function.Consumer<NetworkBuilder> more) {
        NetworkBuilder b = SpikingNetwork.builder().resolutionNs(NetworkBuilder.DEFAULT_RESOLUTION_NS).seed(seed).threads(threads);
        define(b);
        more.accept(b);
        return new BraitenbergBrain(b.build());
    }

    /** The sensor and go-on parameters of nrp.md 3.2 (NEST units). */
    static Map<String, Double> sensorParams(boolean goOn) {
        Map<String, Double> p = new LinkedHashMap<>();
        p.put("E_L", -60.5);
        p.put("C_m", 25.0);
        p.put("g_L", 2.5);
        p.put("t_ref", 10.0);
        p.put("tau_syn_ex", 2.5);
        p.put("tau_syn_in", 2.5);
        p.put("E_ex", 0.0);
        p.put("E_in", -75.0);
        p.put("V_th", goOn ? -60.51 : -60.0);
        p.put("V_reset", goOn ? -61.6 : -60.5);
        p.put("V_m", -60.5);
        return p;
    }

    /** Adds the brain's 14 nodes to an empty builder (node ids as in the class notes). */
    static void define(NetworkBuilder b) {
        if (b.nodeCount() != 0) {
            throw new IllegalStateException("the Braitenberg brain needs an empty builder (its node ids are fixed)");
        }
        Population sensors = b.create("iaf_cond_alpha", 5, sensorParams(false));
        b.create("iaf_cond_alpha", 1, sensorParams(true));
        b.create("iaf_cond_alpha", 2, sensorParams(false));
        Population circuit = Population.range(0, 8);
        Map<String, Double> base = Map.of("U", 1.0, "tau_rec", 1.0, "tau_fac", 1.0, "delay", 0.1);
        connect(b, circuit.slice(2, 3), circuit.slice(7, 8), base, 0.15);
        connect(b, circuit.slice(3, 4), circuit.slice(6, 7), base, 0.15);
        connect(b, circuit.slice(0, 2), circuit.slice(4, 5), base, -1.2);
        connect(b, circuit.slice(0, 2), circuit.slice(5, 6), base, -1.2);
        connect(b, circuit.slice(4, 5), circuit.slice(7, 8), base, 0.105);
        connect(b, circuit.slice(5, 6), circuit.slice(7, 8), base, 0.14);

        SynapseSpec device = SynapseSpec.staticSynapse(0.15, 0.1);
        Population lpg = b.create("poisson_generator", 1);
        Population rpg = b.create("poisson_generator", 1);
        Population gpg = b.create("poisson_generator", 1);
        b.connect(lpg, sensors.slice(0, 3, 2), Connector.allToAll(), device);
        b.connect(rpg, sensors.slice(1, 4, 2), Connector.allToAll(), device);
        b.connect(gpg, sensors.get(4), Connector.allToAll(), device);

        Map<String, Double> leaky = new LinkedHashMap<>();
        leaky.put("V_th", 1e10);
        leaky.put("C_m", 1000.0);
        leaky.put("tau_m", 10.0);
        leaky.put("tau_syn_ex", 2.0);
        leaky.put("tau_syn_in", 2.0);
        leaky.put("E_L", 0.0);
        leaky.put("V_reset", 0.0);
        leaky.put("t_ref", 0.1);
        leaky.put("I_e", 0.0);
        leaky.put("V_m", 0.0);
        Population integrators = b.create("iaf_psc_alpha", 2, leaky);
        b.connect(circuit.slice(6, 8), integrators, Connector.oneToOne(), SynapseSpec.staticSynapse(10.0, 0.1));

        Population recorder = b.create("spike_recorder", 1);
        b.connect(circuit, recorder);
        if (lpg.first() != LEFT_EYE || integrators.first() != LEFT_INTEGRATOR || recorder.first() != RECORDER) {
            throw new AssertionError("node ids moved: " + lpg + ", " + integrators + ", " + recorder);
        }
    }

    private static void connect(NetworkBuilder b, Population pre, Population post, Map<String, Double> base, double w) {
        Map<String, Double> p = new LinkedHashMap<>(base);
        p.put("weight", w);
        b.connect(pre, post, Connector.allToAll(), SynapseSpec.of(SynapseSpec.Model.TSODYKS, p));
    }

    /** @return the network (node ids as in the class notes) */
    public SpikingNetwork network() {
        return network;
    }

    /** @return the sensor neurons 0-4 (the BIBI's {@code sensors}) */
    public Population sensors() {
        return Population.range(0, 5);
    }

    /** @return neurons 5-7 (the BIBI's {@code actors}: go-on, left actor, right actor) */
    public Population actors() {
        return Population.range(5, 3);
    }

    /** @return the node id of the red-left-eye Poisson generator (drives 0 and 2) */
    public int leftEyeGenerator() {
        return LEFT_EYE;
    }

    /** @return the node id of the red-right-eye Poisson generator (drives 1 and 3) */
    public int rightEyeGenerator() {
        return RIGHT_EYE;
    }

    /** @return the node id of the green-blue Poisson generator (drives 4) */
    public int greenBlueGenerator() {
        return GREEN_BLUE;
    }

    /** @return the node id of the left actor's leaky integrator */
    public int leftIntegrator() {
        return LEFT_INTEGRATOR;
    }

    /** @return the node id of the right actor's leaky integrator */
    public int rightIntegrator() {
        return RIGHT_INTEGRATOR;
    }

    /** @return the node id of the spike recorder on neurons 0-7 */
    public int spikeRecorder() {
        return RECORDER;
    }

    /**
     * The eye transfer function: sets the generator rates from the camera image, from the next
     * run on. Allocation-free.
     *
     * @param redLeft  red pixels of the left half over the image size, in [0, 1]
     * @param redRight red pixels of the right half over the image size, in [0, 1]
     * @param nonRed   non-red pixels over the image size, in [0, 1]
     */
    public void setEyeInput(double redLeft, double redRight, double nonRed) {
        network.setRate(LEFT_EYE, MAX_RED_RATE_HZ * redLeft);
        network.setRate(RIGHT_EYE, MAX_RED_RATE_HZ * redRight);
        network.setRate(GREEN_BLUE, MAX_NON_RED_RATE_HZ * nonRed);
    }

    /** @return the left actor's leaky-integrator voltage V_m (mV) */
    public double leftVoltage() {
        return network.vm(LEFT_INTEGRATOR);
    }

    /** @return the right actor's leaky-integrator voltage V_m (mV) */
    public double rightVoltage() {
        return network.vm(RIGHT_INTEGRATOR);
    }

    /** @return the wheel transfer function's forward speed, 20 min(V_L, V_R) */
    public double linearX() {
        return 20.0 * Math.min(leftVoltage(), rightVoltage());
    }

    /** @return the wheel transfer function's turn rate, 100 (V_R - V_L) */
    public double angularZ() {
        return 100.0 * (rightVoltage() - leftVoltage());
    }

    /** Closes the network. */
    @Override
    public void close() {
        network.close();
    }
}
