package io.tandem.cle.experiment;

import io.tandem.neuro.BraitenbergBrain;
import io.tandem.neuro.BrunelNetwork;
import io.tandem.neuro.Connector;
import io.tandem.neuro.NetworkBuilder;
import io.tandem.neuro.NodeModel;
import io.tandem.neuro.Population;
import io.tandem.neuro.SpikingNetwork;
import io.tandem.neuro.SynapseSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The brain of an experiment file, as data: either a network from tandem-neuro's library
 * ({@link Builtin}) or a NEST-style description ({@link Nest}) of populations, named views,
 * connections and devices. {@link #build()} turns it into a {@link SpikingNetwork} through
 * {@link NetworkBuilder}; {@link #nodes()} names its node ids before it is built, so transfer
 * functions can look up devices ("lpg") and selections ("record") by name.
 *
 * <p>The records are immutable; building allocates the network.
 */
public sealed interface BrainSpec permits BrainSpec.Builtin, BrainSpec.Nest {

    /** @return the seed of every random number of the brain */
    long seed();

    /** @return update threads (results do not depend on them) */
    int threads();

    /** @return NEST's resolution in ns */
    long resolutionNs();

    /** @return where the brain is described */
    ExperimentFileLocation location();

    /**
     * The brain's names and their node ids, known before building: populations, views and
     * devices of a {@link Nest} brain; the fixed names of a {@link Builtin} one.
     *
     * @return name to node ids, in definition order (immutable)
     */
    Map<String, Population> nodes();

    /**
     * Builds the network.
     *
     * @return the network and its names; close it to release the network
     * @throws ExperimentFileException naming the file, line and the network builder's message when
     *                                 the builder rejects a part
     */
    Built build();

    /**
     * A built brain.
     *
     * @param network the network
     * @param nodes   name to node ids, as {@link BrainSpec#nodes()} (immutable)
     */
    record Built(SpikingNetwork network, Map<String, Population> nodes) implements AutoCloseable {
        /** Validates. */
        public Built {
            Objects.requireNonNull(network, "network");
            nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
        }

        /**
         * @param name a population, view or device name
         * @return its node ids
         * @throws IllegalArgumentException naming the known names
         */
        public Population node(String name) {
            Population p = nodes.get(name);
            if (p == null) {
                String close = ExperimentFileSchema.closest(name, new ArrayList<>(nodes.keySet()));
                throw new IllegalArgumentException("the brain has no node named '" + name + "'; it has "
                        + nodes.keySet() + (close == null ? "" : " (did you mean '" + close + "'?)"));
            }
            return p;
        }

        /** Closes the network. */
        @Override
        public void close() {
            network.close();
        }
    }

    /**
     * A brain from tandem-neuro's library at resolution 0.1 ms.
     *
     * <ul>
     *   <li>{@code braitenberg}: {@link BraitenbergBrain}; names sensors (0-4), go_on (5),
     *       actor_neurons (6, 7), record (0-7), lpg (8), rpg (9), gpg (10), actors (11, 12: the
     *       leaky integrators of 6 and 7), spikes (13) and, with {@code brunelNeurons}, background
     *       (a Brunel network from 14 on, not connected to the rest); {@code neurons} and
     *       {@code recordSpikes} are unused;
     *   <li>{@code brunel}: {@link BrunelNetwork}; names excitatory, inhibitory, neurons, noise
     *       and, with {@code recordSpikes}, spikes.
     * </ul>
     *
     * @param name         braitenberg or brunel
     * @param seed         the seed
     * @param neurons      brunel's neuron count (at least 10)
     * @param threads      update threads
     * @param recordSpikes brunel: whether to record every neuron
     * @param brunelNeurons braitenberg: the neurons of a Brunel network beside it (0: none)
     * @param location     where it is described
     */
    record Builtin(String name, long seed, int neurons, int threads, boolean recordSpikes, int brunelNeurons,
            ExperimentFileLocation location) implements BrainSpec {
        /** The builtin names. */
        public static final List<String> NAMES = List.of("braitenberg", "brunel");

        /** Validates. */
        public Builtin {
            if (!NAMES.contains(name)) {
                throw new IllegalArgumentException("unknown builtin brain '" + name + "'; known: " + NAMES);
            }
            if ("brunel".equals(name) && neurons < 10) {
                throw new IllegalArgumentException("the Brunel network needs at least 10 neurons, got " + neurons);
            }
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be >= 1, got " + threads);
            }
            if (brunelNeurons != 0 && (brunelNeurons < 10 || !"braitenberg".equals(name))) {
                throw new IllegalArgumentException("brunel_neurons is for the braitenberg brain, 0 or at least 10, got "
                        + brunelNeurons);
            }
            Objects.requireNonNull(location, "location");
        }

        /** @return 100 000 ns (the library networks' resolution) */
        @Override
        public long resolutionNs() {
            return NetworkBuilder.DEFAULT_RESOLUTION_NS;
        }

        @Override
        public Map<String, Population> nodes() {
            Map<String, Population> m = new LinkedHashMap<>();
            if ("braitenberg".equals(name)) {
                m.put("sensors", Population.range(0, 5));
                m.put("go_on", Population.range(5, 1));
                m.put("actor_neurons", Population.range(6, 2));
                m.put("record", Population.range(0, 8));
                m.put("lpg", Population.range(8, 1));
                m.put("rpg", Population.range(9, 1));
                m.put("gpg", Population.range(10, 1));
                m.put("actors", Population.range(11, 2));
                m.put("spikes", Population.range(13, 1));
                if (brunelNeurons > 0) {
                    m.put("background", Population.range(14, brunelNeurons));
                }
            } else {
                int ne = (int) Math.round(0.8 * neurons);
                m.put("excitatory", Population.range(0, ne));
                m.put("inhibitory", Population.range(ne, neurons - ne));
                m.put("neurons", Population.range(0, neurons));
                m.put("noise", Population.range(neurons, 1));
                if (recordSpikes) {
                    m.put("spikes", Population.range(neurons + 1, 1));
                }
            }
            return Collections.unmodifiableMap(m);
        }

        @Override
        public Built build() {
            SpikingNetwork net;
            if ("braitenberg".equals(name)) {
                int extra = brunelNeurons;
                net = BraitenbergBrain.build(seed, threads, b -> {
                    if (extra > 0) {
                        BrunelNetwork.define(b, extra, false);
                    }
                }).network();
            } else {
                net = BrunelNetwork.build(neurons, threads, seed, recordSpikes);
            }
            return new Built(net, nodes());
        }
    }

    /**
     * A NEST-style brain. Build order: the populations (node ids in file order), the
     * connections, then the devices (each created and connected in file order).
     *
     * @param resolutionNs NEST's resolution (ns)
     * @param seed         the seed
     * @param threads      update threads
     * @param populations  the populations (immutable)
     * @param views        named selections (immutable)
     * @param connections  the projections (immutable)
     * @param devices      the devices (immutable)
     * @param location     where the brain is described
     */
    record Nest(long resolutionNs, long seed, int threads, List<PopulationSpec> populations, List<ViewSpec> views,
            List<ConnectionSpec> connections, List<DeviceSpec> devices, ExperimentFileLocation location)
            implements BrainSpec {
        /** Pairs above which a load-time check connects only a representative pair (see {@link #validate()}). */
        static final long VALIDATE_PAIRS = 1_000_000L;

        /** Copies the lists. */
        public Nest {
            populations = List.copyOf(populations);
            views = List.copyOf(views);
            connections = List.copyOf(connections);
            devices = List.copyOf(devices);
            Objects.requireNonNull(location, "location");
        }

        @Override
        public Map<String, Population> nodes() {
            Map<String, Population> m = new LinkedHashMap<>();
            int next = 0;
            for (PopulationSpec p : populations) {
                m.put(p.name(), Population.range(next, p.n()));
                next += p.n();
            }
            for (ViewSpec v : views) {
                m.put(v.name(), v.nodes());
            }
            for (DeviceSpec d : devices) {
                m.put(d.name(), Population.range(next, d.nodeCount()));
                next += d.nodeCount();
            }
            return Collections.unmodifiableMap(m);
        }

        @Override
        public Built build() {
            NetworkBuilder b = builder();
            define(b, false);
            try {
                return new Built(b.build(), nodes());
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw new ExperimentFileException(location, "the network builder rejected the brain: " + e.getMessage(), e);
            }
        }

        /**
         * Runs every create and connect call on a scratch builder without building, so the
         * builder's checks (parameters, delays on the resolution grid, which nodes may connect)
         * report with the file's lines at load time. A connection of more than 10^6 pairs is
         * checked with its first pair only.
         *
         * @throws ExperimentFileException as {@link #build()}
         */
        void validate() {
            define(builder(), true);
        }

        private NetworkBuilder builder() {
            try {
                return SpikingNetwork.builder().resolutionNs(resolutionNs).seed(seed).threads(threads);
            } catch (IllegalArgumentException e) {
                throw new ExperimentFileException(location, e.getMessage(), e);
            }
        }

        private void define(NetworkBuilder b, boolean validateOnly) {
            for (PopulationSpec p : populations) {
                try {
                    b.create(p.model(), p.n(), p.params());
                } catch (IllegalArgumentException | IllegalStateException e) {
                    throw new ExperimentFileException(p.location(), "population \"" + p.name() + "\": "
                            + e.getMessage(), e);
                }
            }
            for (ConnectionSpec c : connections) {
                try {
                    connect(b, c.from(), c.to(), c.rule(), c.synapse(), validateOnly);
                } catch (IllegalArgumentException | IllegalStateException | IndexOutOfBoundsException e) {
                    throw new ExperimentFileException(c.location(), "connection " + c.fromText() + " -> " + c.toText()
                            + ": " + e.getMessage(), e);
                }
            }
            for (DeviceSpec d : devices) {
                try {
                    d.define(b, validateOnly);
                } catch (IllegalArgumentException | IllegalStateException | IndexOutOfBoundsException e) {
                    throw new ExperimentFileException(d.location(), "device \"" + d.name() + "\" (" + d.type() + "): "
                            + e.getMessage(), e);
                }
            }
        }

        static void connect(NetworkBuilder b, Population pre, Population post, Connector rule, SynapseSpec syn,
                boolean validateOnly) {
            long pairs = switch (rule.rule()) {
                case ALL_TO_ALL -> (long) pre.size() * post.size();
                case ONE_TO_ONE -> pre.size();
                case FIXED_INDEGREE -> (long) rule.indegree() * post.size();
            };
            if (validateOnly && pairs > VALIDATE_PAIRS) {
                if (rule.rule() == Connector.Rule.ONE_TO_ONE && pre.size() != post.size()) {
                    throw new IllegalArgumentException("one_to_one needs equal sizes, got " + pre.size()
                            + " sources and " + post.size() + " targets: use all_to_all or select matching slices");
                }
                b.connect(pre.get(0), post.get(0), Connector.allToAll(), syn);
            } else {
                b.connect(pre, post, rule, syn);
            }
        }
    }

    /**
     * A population: {@code n} nodes of {@code model} (NEST's {@code Create}).
     *
     * @param params NEST parameters (immutable)
     */
    record PopulationSpec(String name, NodeModel model, int n, Map<String, Double> params,
            ExperimentFileLocation location) {
        /** Copies the parameters, keeping their order. */
        public PopulationSpec {
            params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
        }
    }

    /**
     * A named selection of existing nodes (the NRP BIBI's populations).
     *
     * @param selector the selector as written
     * @param nodes    the node ids it selects
     */
    record ViewSpec(String name, String selector, Population nodes, ExperimentFileLocation location) {
    }

    /**
     * A projection (NEST's {@code Connect}).
     *
     * @param fromText the source selector as written
     * @param from     the source node ids
     * @param toText   the target selector as written
     * @param to       the target node ids
     */
    record ConnectionSpec(String fromText, Population from, String toText, Population to, Connector rule,
            SynapseSpec synapse, ExperimentFileLocation location) {
    }

    /**
     * A device (the NRP's brain devices, and NEST's multimeter).
     *
     * @param type        poisson, dc_source, leaky_integrator_alpha, leaky_integrator_exp, spike_recorder or
     *                    multimeter
     * @param model       the NEST model of its nodes
     * @param targetsText the target selector as written
     * @param targets     the target node ids
     * @param params      its nodes' NEST parameters, defaults included (immutable)
     * @param weight      the weight of its connections
     * @param delayMs     the delay of its connections (ms)
     * @param recordFrom  a multimeter's variables (NEST's record_from; empty for the other types; immutable)
     */
    record DeviceSpec(String name, String type, NodeModel model, String targetsText, Population targets,
            Map<String, Double> params, double weight, double delayMs, ExperimentFileLocation location,
            List<String> recordFrom) {
        /** Copies the parameters, keeping their order. */
        public DeviceSpec {
            params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
            recordFrom = List.copyOf(recordFrom);
        }

        /** A device that is not a multimeter. */
        public DeviceSpec(String name, String type, NodeModel model, String targetsText, Population targets,
                Map<String, Double> params, double weight, double delayMs, ExperimentFileLocation location) {
            this(name, type, model, targetsText, targets, params, weight, delayMs, location, List.of());
        }

        /** @return whether the device has one node per target (the leaky integrators) */
        public boolean perTarget() {
            return type.startsWith("leaky_integrator");
        }

        /** @return its node count: one per target for leaky integrators, else one */
        public int nodeCount() {
            return perTarget() ? targets.size() : 1;
        }

        void define(NetworkBuilder b, boolean validateOnly) {
            Population nodes = b.create(model, nodeCount(), params);
            if (model == NodeModel.MULTIMETER) {
                // NEST's Connect(multimeter, neurons): the multimeter is the source
                b.recordFrom(nodes, recordFrom.toArray(new String[0]));
                Nest.connect(b, nodes, targets, Connector.allToAll(), SynapseSpec.staticSynapse(1.0, delayMs),
                        validateOnly);
            } else if (model == NodeModel.SPIKE_RECORDER) {
                Nest.connect(b, targets, nodes, Connector.allToAll(), SynapseSpec.staticSynapse(1.0, delayMs),
                        validateOnly);
            } else if (perTarget()) {
                Nest.connect(b, targets, nodes, Connector.oneToOne(), SynapseSpec.staticSynapse(weight, delayMs),
                        validateOnly);
            } else {
                Nest.connect(b, nodes, targets, Connector.allToAll(), SynapseSpec.staticSynapse(weight, delayMs),
                        validateOnly);
            }
        }
    }
}
