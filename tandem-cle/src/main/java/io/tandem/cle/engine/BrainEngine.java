package io.tandem.cle.engine;

import io.tandem.cle.Engine;
import io.tandem.cle.device.DcSource;
import io.tandem.cle.device.Device;
import io.tandem.cle.device.LeakyIntegrator;
import io.tandem.cle.device.Multimeter;
import io.tandem.cle.device.PoissonSource;
import io.tandem.cle.device.PopulationRate;
import io.tandem.cle.device.SpikeRecorder;
import io.tandem.neuro.NodeModel;
import io.tandem.neuro.SampleHandler;
import io.tandem.neuro.SpikeHandler;
import io.tandem.neuro.SpikingNetwork;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The brain as an {@link Engine}: a {@link SpikingNetwork} (NEST semantics) and its named devices
 * (NRP-core's nest_json engine). Its timestep is the network's resolution; an advance is NEST's
 * {@code Simulate}. Devices: {@link PoissonSource} and {@link DcSource} (commands, applied with
 * {@code SetStatus} at the sync, so they act from the next advance on, as in NEST),
 * {@link LeakyIntegrator} and {@link PopulationRate} (the cell's V_m after the advance),
 * {@link SpikeRecorder} (the spikes of the advance) and {@link Multimeter} (a NEST multimeter's
 * samples of the advance). Build the devices' nodes with
 * {@link BrainDevices}, or name nodes a network already has (e.g. the Braitenberg brain's). A
 * generator's activity window set on its device ({@link PoissonSource#setWindowMs}) is applied
 * with {@link SpikingNetwork#set} at the sync, like its rate or amplitude.
 *
 * <p>Threads as {@link Engine}; nothing allocates per step (see {@link SpikeRecorder} and
 * {@link Multimeter} for growth).
 * Closing the engine closes the network.
 */
public final class BrainEngine implements Engine {
    private final String name;
    private final SpikingNetwork network;
    private final Map<String, Device> devices;
    private final PoissonSource[] poisson;
    private final int[] poissonNode;
    private final DcSource[] dc;
    private final int[] dcNode;
    private final LeakyIntegrator[] integrators;
    private final int[] integratorNode;
    private final PopulationRate[] rates;
    private final int[] rateNode;
    private final SpikeRecorder[] recorders;
    private final int[] recorderNode;
    private final RecorderSink[] sinks;
    private final Multimeter[] meters;
    private final int[] meterNode;
    private final MeterSink[] meterSinks;

    private BrainEngine(Builder b) {
        this.name = b.name;
        this.network = b.network;
        this.devices = new LinkedHashMap<>();
        List<PoissonSource> ps = new ArrayList<>();
        List<DcSource> ds = new ArrayList<>();
        List<LeakyIntegrator> li = new ArrayList<>();
        List<PopulationRate> pr = new ArrayList<>();
        List<SpikeRecorder> sr = new ArrayList<>();
        List<Integer> psN = new ArrayList<>();
        List<Integer> dsN = new ArrayList<>();
        List<Integer> liN = new ArrayList<>();
        List<Integer> prN = new ArrayList<>();
        List<Integer> srN = new ArrayList<>();
        List<Multimeter> mm = new ArrayList<>();
        List<Integer> mmN = new ArrayList<>();
        for (Map.Entry<String, int[]> e : b.specs.entrySet()) {
            String dn = e.getKey();
            int kind = e.getValue()[0];
            int node = e.getValue()[1];
            Device d;
            switch (kind) {
                case POISSON:
                    PoissonSource p = new PoissonSource(dn, name, network.rate(node), network.resolutionMs(),
                            network.get(node, "start"), network.get(node, "stop"), network.get(node, "origin"));
                    ps.add(p);
                    psN.add(node);
                    d = p;
                    break;
                case DC:
                    DcSource c = new DcSource(dn, name, network.amplitude(node), network.resolutionMs(),
                            network.get(node, "start"), network.get(node, "stop"), network.get(node, "origin"));
                    ds.add(c);
                    dsN.add(node);
                    d = c;
                    break;
                case INTEGRATOR:
                    LeakyIntegrator l = new LeakyIntegrator(dn, name);
                    li.add(l);
                    liN.add(node);
                    d = l;
                    break;
                case RATE:
                    PopulationRate r = new PopulationRate(dn, name);
                    pr.add(r);
                    prN.add(node);
                    d = r;
                    break;
                case RECORDER:
                    SpikeRecorder s = new SpikeRecorder(dn, name, 4096);
                    sr.add(s);
                    srN.add(node);
                    d = s;
                    break;
                case MULTIMETER:
                    Multimeter meter = new Multimeter(dn, name, network.recordFrom(node), 1024);
                    mm.add(meter);
                    mmN.add(node);
                    d = meter;
                    break;
                default:
                    throw new AssertionError(kind);
            }
            devices.put(dn, d);
        }
        poisson = ps.toArray(new PoissonSource[0]);
        poissonNode = ints(psN);
        dc = ds.toArray(new DcSource[0]);
        dcNode = ints(dsN);
        integrators = li.toArray(new LeakyIntegrator[0]);
        integratorNode = ints(liN);
        rates = pr.toArray(new PopulationRate[0]);
        rateNode = ints(prN);
        recorders = sr.toArray(new SpikeRecorder[0]);
        recorderNode = ints(srN);
        sinks = new RecorderSink[recorders.length];
        for (int i = 0; i < sinks.length; i++) {
            sinks[i] = new RecorderSink(recorders[i]);
        }
        meters = mm.toArray(new Multimeter[0]);
        meterNode = ints(mmN);
        meterSinks = new MeterSink[meters.length];
        for (int i = 0; i < meters.length; i++) {
            meterSinks[i] = new MeterSink(meters[i]);
        }
    }

    private static int[] ints(List<Integer> l) {
        int[] a = new int[l.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = l.get(i);
        }
        return a;
    }

    /**
     * @param name    the engine's name
     * @param network the network (the engine owns it: closing the engine closes it)
     * @return a builder naming the network's device nodes
     */
    public static Builder builder(String name, SpikingNetwork network) {
        return new Builder(name, network);
    }

    /** @return the network (touch it only while the loop is not running) */
    public SpikingNetwork network() {
        return network;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long timestepNs() {
        return network.resolutionNs();
    }

    @Override
    public long timeNs() {
        return network.timeNs();
    }

    @Override
    public <D extends Device> D device(String deviceName, Class<D> type) {
        Device d = devices.get(deviceName);
        if (d == null) {
            return null;
        }
        if (!type.isInstance(d)) {
            throw new IllegalArgumentException("device '" + deviceName + "' is a " + d.getClass().getSimpleName() + ", not a "
                    + type.getSimpleName());
        }
        return type.cast(d);
    }

    @Override
    public List<String> deviceNames() {
        List<String> l = new ArrayList<>();
        for (Device d : devices.values()) {
            l.add(d.name() + " (" + d.getClass().getSimpleName() + ")");
        }
        return l;
    }

    @Override
    public void initialize() {
    }

    @Override
    public void applyInputs() {
        for (int i = 0; i < poisson.length; i++) {
            if (poisson[i].takeChanged()) {
                network.setRate(poissonNode[i], poisson[i].rate());
            }
            if (poisson[i].takeWindowChanged()) {
                setWindow(poissonNode[i], poisson[i].startMs(), poisson[i].stopMs(), poisson[i].originMs());
            }
        }
        for (int i = 0; i < dc.length; i++) {
            if (dc[i].takeChanged()) {
                network.setAmplitude(dcNode[i], dc[i].amplitude());
            }
            if (dc[i].takeWindowChanged()) {
                setWindow(dcNode[i], dc[i].startMs(), dc[i].stopMs(), dc[i].originMs());
            }
        }
    }

    /** Applies a window the device checked, in an order whose every intermediate window is valid (stop >= start). */
    private void setWindow(int node, double start, double stop, double origin) {
        network.set(node, "origin", origin);
        if (start > network.get(node, "stop")) {
            network.set(node, "stop", stop);
            network.set(node, "start", start);
        } else {
            network.set(node, "start", start);
            network.set(node, "stop", stop);
        }
    }

    @Override
    public void advance(long durationNs) {
        network.simulate(durationNs);
    }

    @Override
    public void publishOutputs() {
        for (int i = 0; i < integrators.length; i++) {
            integrators[i].publish(network.vm(integratorNode[i]));
        }
        for (int i = 0; i < rates.length; i++) {
            rates[i].publish(network.vm(rateNode[i]));
        }
        for (int i = 0; i < recorders.length; i++) {
            recorders[i].beginPublish();
            network.drainSpikes(recorderNode[i], sinks[i]);
        }
        for (int i = 0; i < meters.length; i++) {
            meters[i].beginPublish();
            network.drainSamples(meterNode[i], meterSinks[i]);
        }
    }

    @Override
    public void reset() {
        // the built rates and amplitudes are the devices' initial values
        network.reset();
    }

    @Override
    public void close() {
        network.close();
    }

    /** Forwards drained spikes into a recorder device's back buffer (preallocated; no capture). */
    private static final class RecorderSink implements SpikeHandler {
        private final SpikeRecorder device;

        RecorderSink(SpikeRecorder device) {
            this.device = device;
        }

        @Override
        public void onSpike(int sender, long timeNs) {
            device.publishSpike(sender, timeNs);
        }
    }

    /** Forwards drained samples into a multimeter device's back buffer (preallocated; no capture). */
    private static final class MeterSink implements SampleHandler {
        private final Multimeter device;

        MeterSink(Multimeter device) {
            this.device = device;
        }

        @Override
        public void onSample(int sender, long timeNs, double[] values, int offset, int count) {
            device.publishSample(sender, timeNs, values, offset);
        }
    }

    private static final int POISSON = 0;
    private static final int DC = 1;
    private static final int INTEGRATOR = 2;
    private static final int RATE = 3;
    private static final int RECORDER = 4;
    private static final int MULTIMETER = 5;

    /** Names device nodes of the network; each is checked against its node model. Not thread-safe. */
    public static final class Builder {
        private final String name;
        private final SpikingNetwork network;
        private final Map<String, int[]> specs = new LinkedHashMap<>();

        private Builder(String name, SpikingNetwork network) {
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("a brain engine needs a non-empty name");
            }
            if (network == null) {
                throw new IllegalArgumentException("brain engine '" + name + "' needs a network");
            }
            this.name = name;
            this.network = network;
        }

        /**
         * @param device the device's name
         * @param node   a {@code poisson_generator} node
         * @return this
         */
        public Builder poissonSource(String device, int node) {
            return add(device, POISSON, node, NodeModel.POISSON_GENERATOR);
        }

        /**
         * @param device the device's name
         * @param node   a {@code dc_generator} node
         * @return this
         */
        public Builder dcSource(String device, int node) {
            return add(device, DC, node, NodeModel.DC_GENERATOR);
        }

        /**
         * @param device the device's name
         * @param node   the integrator cell (a neuron; {@link BrainDevices#addLeakyIntegratorAlpha})
         * @return this
         */
        public Builder leakyIntegrator(String device, int node) {
            return add(device, INTEGRATOR, node, null);
        }

        /**
         * @param device the device's name
         * @param node   the rate cell (a neuron; {@link BrainDevices#addPopulationRate})
         * @return this
         */
        public Builder populationRate(String device, int node) {
            return add(device, RATE, node, null);
        }

        /**
         * @param device the device's name
         * @param node   a {@code spike_recorder} node
         * @return this
         */
        public Builder spikeRecorder(String device, int node) {
            return add(device, RECORDER, node, NodeModel.SPIKE_RECORDER);
        }

        /**
         * @param device the device's name
         * @param node   a {@code multimeter} node (its record_from gives the device's variables)
         * @return this
         */
        public Builder multimeter(String device, int node) {
            return add(device, MULTIMETER, node, NodeModel.MULTIMETER);
        }

        private Builder add(String device, int kind, int node, NodeModel model) {
            if (device == null || device.isEmpty()) {
                throw new IllegalArgumentException("brain engine '" + name + "': a device needs a non-empty name");
            }
            if (specs.containsKey(device)) {
                throw new IllegalArgumentException("brain engine '" + name + "': device '" + device + "' is defined twice");
            }
            if (node < 0 || node >= network.nodeCount()) {
                throw new IllegalArgumentException("brain engine '" + name + "': device '" + device + "' names node " + node
                        + ", but the network has nodes 0.." + (network.nodeCount() - 1));
            }
            NodeModel m = network.model(node);
            if (model == null ? m.kind() != NodeModel.Kind.NEURON : m != model) {
                throw new IllegalArgumentException("brain engine '" + name + "': device '" + device + "' needs a "
                        + (model == null ? "neuron (the integrator cell)" : model.nestName()) + " node, but node " + node + " is a " + m);
            }
            specs.put(device, new int[] {kind, node});
            return this;
        }

        /** @return the engine */
        public BrainEngine build() {
            return new BrainEngine(this);
        }
    }
}
