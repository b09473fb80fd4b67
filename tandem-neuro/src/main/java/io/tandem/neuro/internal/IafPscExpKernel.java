package io.tandem.neuro.internal;

import io.tandem.neuro.NodeModel;
import java.util.Arrays;

/*
 * Implementation notes.
 *
 * NEST's iaf_psc_exp [1, 2]: V (relative to E_L) and exponentially decaying synaptic currents,
 * integrated exactly over a step h:
 *     V  <- exp(-h/tau_m) V + P20 (I_e + I_stim) + P21ex I_ex + P21in I_in   (unless refractory)
 *     I  <- exp(-h/tau_syn) I + w   (w: the weights arriving this step, a PSC jump of w pA)
 * then the threshold check (spike, V = V_reset, refractory for round(t_ref/h) steps with V
 * clamped) and the current read this step becomes I_stim of the next one.
 *
 * [1] S. Rotter, M. Diesmann (1999), Biol. Cybern. 81:381-402.
 * [2] NEST iaf_psc_exp model documentation.
 */

/** {@code iaf_psc_exp}: exact integration of the LIF neuron with exponential current synapses. */
final class IafPscExpKernel extends NeuronKernel {
    private final double p11Ex;
    private final double p11In;
    private final double p21Ex;
    private final double p21In;
    private final double p20;
    private final double p22;
    private final double iE;
    private final double eL;
    private final double theta;
    private final double vReset;
    private final int refSteps;
    private final double v0;

    private final double[] v; // V - E_L (mV)
    private final double[] iEx; // pA
    private final double[] iIn; // pA (negative)
    private final double[] i0; // current input of the previous step (pA)
    private final int[] r;

    IafPscExpKernel(int first, int count, double[] params, double h) {
        super(NodeModel.IAF_PSC_EXP, first, count, params);
        double cM = param("C_m");
        double tauM = param("tau_m");
        double tauEx = param("tau_syn_ex");
        double tauIn = param("tau_syn_in");
        eL = param("E_L");
        iE = param("I_e");
        theta = param("V_th") - eL;
        vReset = param("V_reset") - eL;
        refSteps = refractorySteps(param("t_ref"), h);
        p11Ex = Math.exp(-h / tauEx);
        p11In = Math.exp(-h / tauIn);
        p21Ex = PropagatorOps.p32(tauEx, tauM, cM, h);
        p21In = PropagatorOps.p32(tauIn, tauM, cM, h);
        p20 = PropagatorOps.p30(tauM, cM, h);
        p22 = Math.exp(-h / tauM);
        v0 = initialVm() - eL;
        v = new double[count];
        iEx = new double[count];
        iIn = new double[count];
        i0 = new double[count];
        r = new int[count];
        reset();
    }

    @Override
    void update(int from, int to, int base, RingBuffers in, SpikeSink out, double[] scratch) {
        final double[] ex = in.ex;
        final double[] inh = in.in;
        final double[] cur = in.current;
        for (int g = from; g < to; g++) {
            int k = g - first;
            int b = base + g;
            double vk = v[k];
            if (r[k] == 0) {
                vk = vk * p22 + iEx[k] * p21Ex + iIn[k] * p21In + (iE + i0[k]) * p20;
            } else {
                r[k]--;
            }
            iEx[k] = iEx[k] * p11Ex + ex[b];
            iIn[k] = iIn[k] * p11In + inh[b];
            if (vk >= theta) {
                r[k] = refSteps;
                vk = vReset;
                out.spike(g);
            }
            v[k] = vk;
            i0[k] = cur[b];
            ex[b] = 0;
            inh[b] = 0;
            cur[b] = 0;
        }
    }

    @Override
    void reset() {
        Arrays.fill(v, v0);
        Arrays.fill(iEx, 0);
        Arrays.fill(iIn, 0);
        Arrays.fill(i0, 0);
        Arrays.fill(r, 0);
    }

    @Override
    double vm(int k) {
        return v[k] + eL;
    }

    @Override
    void setVm(int k, double mV) {
        v[k] = mV - eL;
    }

    @Override
    double recordable(int k, int code) {
        switch (code) {
            case Recordables.V_M:
                return vm(k);
            case Recordables.I_SYN_EX:
                return iEx[k];
            case Recordables.I_SYN_IN:
                return iIn[k];
            default:
                throw new IllegalArgumentException(model.nestName() + " cannot record code " + code);
        }
    }

    @Override
    double state(int k, String name) {
        switch (name) {
            case "V_m":
                return vm(k);
            case "I_syn_ex":
                return iEx[k];
            case "I_syn_in":
                return iIn[k];
            case "refractory_steps":
                return r[k];
            default:
                double p = paramOrNaN(name);
                if (Double.isNaN(p)) {
                    throw unknownState(name, "V_m, I_syn_ex, I_syn_in, refractory_steps");
                }
                return p;
        }
    }
}
