package io.tandem.neuro.internal;

import io.tandem.neuro.NodeModel;
import java.util.Arrays;

/*
 * Implementation notes.
 *
 * NEST's iaf_psc_alpha [1, 2]: V (relative to E_L), and per synapse type an alpha-shaped current
 * I with its derivative dI, integrated exactly over a step h by the propagator matrix of [1]:
 *     V  <- P30 (I_stim + I_e) + P31 dI + P32 I + exp(-h/tau_m) V   (unless refractory)
 *     I  <- h P11 dI + P11 I,     dI <- P11 dI,     P11 = exp(-h/tau_syn)
 * then a spike of weight w arriving this step adds e/tau_syn * w to dI (a PSC of peak w pA at
 * tau_syn after arrival), the threshold is checked (V >= V_th - E_L: spike, V = V_reset,
 * refractory for round(t_ref/h) steps during which V is clamped), and the current input read
 * this step becomes I_stim of the next one. exp(-h/tau_m) V is computed as V + expm1(..) V, as
 * NEST does, and V is bounded below by V_min.
 *
 * [1] S. Rotter, M. Diesmann (1999), Biol. Cybern. 81:381-402.
 * [2] NEST iaf_psc_alpha model documentation.
 */

/** {@code iaf_psc_alpha}: exact integration of the LIF neuron with alpha-shaped current synapses. */
final class IafPscAlphaKernel extends NeuronKernel {
    private final double p11Ex;
    private final double p21Ex;
    private final double p31Ex;
    private final double p32Ex;
    private final double p11In;
    private final double p21In;
    private final double p31In;
    private final double p32In;
    private final double p30;
    private final double expm1TauM;
    private final double epscInit;
    private final double ipscInit;
    private final double iE;
    private final double eL;
    private final double theta;
    private final double vReset;
    private final double lowerBound;
    private final int refSteps;
    private final double v0;

    // state, one entry per neuron of the group
    private final double[] y3; // V - E_L (mV)
    private final double[] iEx; // pA
    private final double[] diEx; // pA/ms
    private final double[] iIn;
    private final double[] diIn;
    private final double[] y0; // current input of the previous step (pA)
    private final int[] r; // refractory steps left

    IafPscAlphaKernel(int first, int count, double[] params, double h) {
        super(NodeModel.IAF_PSC_ALPHA, first, count, params);
        double cM = param("C_m");
        double tauM = param("tau_m");
        double tauEx = param("tau_syn_ex");
        double tauIn = param("tau_syn_in");
        eL = param("E_L");
        iE = param("I_e");
        theta = param("V_th") - eL;
        vReset = param("V_reset") - eL;
        lowerBound = param("V_min") - eL;
        refSteps = refractorySteps(param("t_ref"), h);
        p11Ex = Math.exp(-h / tauEx);
        p21Ex = h * p11Ex;
        p31Ex = PropagatorOps.p31(tauEx, tauM, cM, h);
        p32Ex = PropagatorOps.p32(tauEx, tauM, cM, h);
        p11In = Math.exp(-h / tauIn);
        p21In = h * p11In;
        p31In = PropagatorOps.p31(tauIn, tauM, cM, h);
        p32In = PropagatorOps.p32(tauIn, tauM, cM, h);
        p30 = PropagatorOps.p30(tauM, cM, h);
        expm1TauM = Math.expm1(-h / tauM);
        epscInit = Math.E / tauEx;
        ipscInit = Math.E / tauIn;
        v0 = initialVm() - eL;
        y3 = new double[count];
        iEx = new double[count];
        diEx = new double[count];
        iIn = new double[count];
        diIn = new double[count];
        y0 = new double[count];
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
            double v = y3[k];
            double dEx = diEx[k];
            double cEx = iEx[k];
            double dIn = diIn[k];
            double cIn = iIn[k];
            if (r[k] == 0) {
                v = p30 * (y0[k] + iE) + p31Ex * dEx + p32Ex * cEx + p31In * dIn + p32In * cIn + expm1TauM * v + v;
                if (v < lowerBound) {
                    v = lowerBound;
                }
            } else {
                r[k]--;
            }
            // alpha-shaped currents
            iEx[k] = p21Ex * dEx + p11Ex * cEx;
            diEx[k] = p11Ex * dEx + epscInit * ex[b];
            iIn[k] = p21In * dIn + p11In * cIn;
            diIn[k] = p11In * dIn + ipscInit * inh[b];
            if (v >= theta) {
                r[k] = refSteps;
                v = vReset;
                out.spike(g);
            }
            y3[k] = v;
            y0[k] = cur[b];
            ex[b] = 0;
            inh[b] = 0;
            cur[b] = 0;
        }
    }

    @Override
    void reset() {
        Arrays.fill(y3, v0);
        Arrays.fill(iEx, 0);
        Arrays.fill(diEx, 0);
        Arrays.fill(iIn, 0);
        Arrays.fill(diIn, 0);
        Arrays.fill(y0, 0);
        Arrays.fill(r, 0);
    }

    @Override
    double vm(int k) {
        return y3[k] + eL;
    }

    @Override
    void setVm(int k, double mV) {
        y3[k] = mV - eL;
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
