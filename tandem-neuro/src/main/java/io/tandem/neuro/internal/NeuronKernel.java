package io.tandem.neuro.internal;

import io.tandem.neuro.NodeModel;

/**
 * The update kernel and flat state of one group of neurons of one model and one parameter set
 * (one {@code create} call): neurons {@code [first, first + count)} in global neuron indices.
 * The constants derived from the parameters (propagators) are final; the state arrays are
 * preallocated and reset explicitly.
 *
 * <p>Thread-safety: {@link #update} may run concurrently on disjoint neuron ranges.
 */
public abstract class NeuronKernel {
    /** First global neuron index. */
    final int first;
    /** Number of neurons. */
    final int count;
    /** Parameter values in {@link NodeModel#parameterNames()} order. */
    final double[] params;
    final NodeModel model;

    NeuronKernel(NodeModel model, int first, int count, double[] params) {
        this.model = model;
        this.first = first;
        this.count = count;
        this.params = params.clone();
    }

    final double param(String name) {
        return params[model.parameterNames().indexOf(name)];
    }

    /** @return the refractory period in whole steps (NEST rounds t_ref to the grid) */
    static int refractorySteps(double tRefMs, double h) {
        return (int) Math.round(tRefMs / h);
    }

    /**
     * Advances neurons {@code [from, to)} (global indices, inside this group) by one step: reads
     * and clears their inputs at {@code base} (slot * neurons) and reports spikes. Allocation-free.
     *
     * @param scratch per-thread scratch of {@link Partition#SCRATCH} doubles. Modified.
     */
    abstract void update(int from, int to, int base, RingBuffers in, SpikeSink out, double[] scratch);

    /** Restores the initial state. */
    abstract void reset();

    /** @return V_m (mV) of local neuron {@code k} */
    abstract double vm(int k);

    /** Sets V_m (mV) of local neuron {@code k}. */
    abstract void setVm(int k, double mV);

    /**
     * @return the state variable {@code name} of local neuron {@code k} (NEST recordable names)
     * @throws IllegalArgumentException for an unknown name
     */
    abstract double state(int k, String name);

    /**
     * The value a multimeter samples. Allocation-free.
     *
     * @param code a {@link Recordables} code the model has (checked when connecting)
     * @return V_m (mV), a synaptic current (pA) or conductance (nS) of local neuron {@code k}
     */
    abstract double recordable(int k, int code);

    final IllegalArgumentException unknownState(String name, String known) {
        return new IllegalArgumentException("unknown state or parameter '" + name + "' of " + model.nestName() + "; known: "
                + known + ", and the parameters " + model.parameterNames());
    }

    /** @return parameter {@code name}, or NaN if there is none */
    final double paramOrNaN(String name) {
        int i = model.parameterNames().indexOf(name);
        return i < 0 ? Double.NaN : params[i];
    }

    /** @return the initial V_m: the V_m parameter, or E_L when unset */
    final double initialVm() {
        double v = param("V_m");
        return Double.isNaN(v) ? param("E_L") : v;
    }
}
