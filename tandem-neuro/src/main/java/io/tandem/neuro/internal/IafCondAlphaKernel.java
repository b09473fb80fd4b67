package io.tandem.neuro.internal;

import io.tandem.neuro.NodeModel;
import java.util.Arrays;

/*
 * Implementation notes.
 *
 * NEST's iaf_cond_alpha [1]: state y = (V, dg_ex, g_ex, dg_in, g_in) with
 *     C_m dV/dt = -g_L (V - E_L) - g_ex (V - E_ex) - g_in (V - E_in) + I_stim + I_e
 *     d(dg)/dt = -dg / tau_syn,   dg/dt = dg - g / tau_syn          (ex and in alike)
 * While refractory V is clamped: the right-hand side uses V_reset and dV/dt = 0; otherwise it
 * uses min(V, V_th), as NEST's dynamics function does.
 *
 * Each resolution step is integrated with the embedded Runge-Kutta-Fehlberg 4(5) pair [2],
 * advancing with the fifth-order solution (local extrapolation), with GSL's "standard" step
 * control as NEST configures it [1, 3]: absolute tolerance 1e-3 on every component, no relative
 * term; the error ratio r = max |err_i| / 1e-3 rejects a step for r > 1.1 and shrinks it by
 * max(0.9 r^(-1/5), 0.2), and grows the next one by min(0.9 r^(-1/6), 5) (at least 1) for
 * r < 0.5. The last sub-step is shortened to end exactly on the grid. The step size carries over
 * from one resolution step to the next, per neuron, as NEST's IntegrationStep_ does. Everything
 * is deterministic.
 *
 * After the integration: refractory neurons count down with V = V_reset; otherwise V >= V_th
 * spikes (V = V_reset, refractory for round(t_ref/h) steps). Spikes arriving this step then add
 * e/tau_syn * |w| to dg (a conductance of peak |w| nS at tau_syn), and the current read this step
 * becomes I_stim of the next step.
 *
 * [1] NEST iaf_cond_alpha model documentation and its GSL setup (rkf45, control y_new(1e-3, 0)).
 * [2] E. Fehlberg (1969), NASA TR R-315; coefficients as in Hairer, Norsett, Wanner, Solving ODEs I.
 * [3] GSL reference manual, "Ordinary Differential Equations": gsl_odeiv_control_standard_new.
 */

/** {@code iaf_cond_alpha}: conductance-based LIF neuron with alpha conductances, adaptive RKF45 per neuron. */
final class IafCondAlphaKernel extends NeuronKernel {
    static final double ABS_TOL = 1e-3;
    private static final int N = 5;
    private static final int V = 0;
    private static final int DG_EX = 1;
    private static final int G_EX = 2;
    private static final int DG_IN = 3;
    private static final int G_IN = 4;
    // scratch layout: y, k1..k6, ytmp, y5, err at multiples of 8
    private static final int Y = 0;
    private static final int K1 = 8;
    private static final int K2 = 16;
    private static final int K3 = 24;
    private static final int K4 = 32;
    private static final int K5 = 40;
    private static final int K6 = 48;
    private static final int YT = 56;
    private static final int Y5 = 64;
    static final int SCRATCH = 72;

    private final double vTh;
    private final double vReset;
    private final int refSteps;
    private final double gL;
    private final double invCm;
    private final double eEx;
    private final double eIn;
    private final double eL;
    private final double tauEx;
    private final double tauIn;
    private final double iE;
    private final double psconEx;
    private final double psconIn;
    private final double h;
    private final double v0;

    // state per neuron
    private final double[] y; // (count x 5): V (mV), dg_ex (nS/ms), g_ex (nS), dg_in, g_in
    private final double[] iStim; // pA
    private final double[] hInt; // integrator step carried over (ms)
    private final int[] r;

    IafCondAlphaKernel(int first, int count, double[] params, double h) {
        super(NodeModel.IAF_COND_ALPHA, first, count, params);
        this.h = h;
        vTh = param("V_th");
        vReset = param("V_reset");
        refSteps = refractorySteps(param("t_ref"), h);
        gL = param("g_L");
        invCm = 1.0 / param("C_m");
        eEx = param("E_ex");
        eIn = param("E_in");
        eL = param("E_L");
        tauEx = param("tau_syn_ex");
        tauIn = param("tau_syn_in");
        iE = param("I_e");
        psconEx = Math.E / tauEx;
        psconIn = Math.E / tauIn;
        v0 = initialVm();
        y = new double[count * N];
        iStim = new double[count];
        hInt = new double[count];
        r = new int[count];
        reset();
    }

    /** The right-hand side at y[yo..], into f[fo..]. */
    private void rhs(double[] s, int yo, int fo, boolean refractory, double stim) {
        double vm = refractory ? vReset : Math.min(s[yo + V], vTh);
        double dgEx = s[yo + DG_EX];
        double gEx = s[yo + G_EX];
        double dgIn = s[yo + DG_IN];
        double gIn = s[yo + G_IN];
        s[fo + V] = refractory ? 0.0
                : (-gL * (vm - eL) - gEx * (vm - eEx) - gIn * (vm - eIn) + stim + iE) * invCm;
        s[fo + DG_EX] = -dgEx / tauEx;
        s[fo + G_EX] = dgEx - gEx / tauEx;
        s[fo + DG_IN] = -dgIn / tauIn;
        s[fo + G_IN] = dgIn - gIn / tauIn;
    }

    /** One RKF45 trial step of size dt from s[Y]: the 5th-order result in s[Y5]; returns the error ratio. */
    private double trial(double[] s, double dt, boolean refr, double stim) {
        rhs(s, Y, K1, refr, stim);
        for (int i = 0; i < N; i++) {
            s[YT + i] = s[Y + i] + dt * (0.25 * s[K1 + i]);
        }
        rhs(s, YT, K2, refr, stim);
        for (int i = 0; i < N; i++) {
            s[YT + i] = s[Y + i] + dt * (3.0 / 32 * s[K1 + i] + 9.0 / 32 * s[K2 + i]);
        }
        rhs(s, YT, K3, refr, stim);
        for (int i = 0; i < N; i++) {
            s[YT + i] = s[Y + i] + dt * (1932.0 / 2197 * s[K1 + i] - 7200.0 / 2197 * s[K2 + i] + 7296.0 / 2197 * s[K3 + i]);
        }
        rhs(s, YT, K4, refr, stim);
        for (int i = 0; i < N; i++) {
            s[YT + i] = s[Y + i] + dt * (439.0 / 216 * s[K1 + i] - 8.0 * s[K2 + i] + 3680.0 / 513 * s[K3 + i]
                    - 845.0 / 4104 * s[K4 + i]);
        }
        rhs(s, YT, K5, refr, stim);
        for (int i = 0; i < N; i++) {
            s[YT + i] = s[Y + i] + dt * (-8.0 / 27 * s[K1 + i] + 2.0 * s[K2 + i] - 3544.0 / 2565 * s[K3 + i]
                    + 1859.0 / 4104 * s[K4 + i] - 11.0 / 40 * s[K5 + i]);
        }
        rhs(s, YT, K6, refr, stim);
        double ratio = 0;
        for (int i = 0; i < N; i++) {
            s[Y5 + i] = s[Y + i] + dt * (16.0 / 135 * s[K1 + i] + 6656.0 / 12825 * s[K3 + i] + 28561.0 / 56430 * s[K4 + i]
                    - 9.0 / 50 * s[K5 + i] + 2.0 / 55 * s[K6 + i]);
            // difference of the 5th- and 4th-order solutions
            double err = dt * (1.0 / 360 * s[K1 + i] - 128.0 / 4275 * s[K3 + i] - 2197.0 / 75240 * s[K4 + i]
                    + 1.0 / 50 * s[K5 + i] + 2.0 / 55 * s[K6 + i]);
            double q = Math.abs(err) / ABS_TOL;
            if (q > ratio) {
                ratio = q;
            }
        }
        return ratio;
    }

    @Override
    void update(int from, int to, int base, RingBuffers in, SpikeSink out, double[] s) {
        final double[] ex = in.ex;
        final double[] inh = in.in;
        final double[] cur = in.current;
        for (int g = from; g < to; g++) {
            int k = g - first;
            int o = k * N;
            int b = base + g;
            boolean refr = r[k] > 0;
            double stim = iStim[k];
            System.arraycopy(y, o, s, Y, N);
            double t = 0;
            double dt = hInt[k];
            while (t < h) {
                boolean last = false;
                double step = dt;
                if (t + step >= h) {
                    step = h - t;
                    last = true;
                }
                double ratio = trial(s, step, refr, stim);
                if (ratio > 1.1 && step > 1e-12) {
                    // reject: shrink and retry from the same point
                    double f = 0.9 * Math.pow(ratio, -1.0 / 5);
                    dt = step * Math.max(f, 0.2);
                    continue;
                }
                System.arraycopy(s, Y5, s, Y, N);
                t = last ? h : t + step;
                dt = step;
                if (ratio < 0.5) {
                    double f = 0.9 * Math.pow(ratio, -1.0 / 6);
                    dt = step * Math.max(1.0, Math.min(f, 5.0));
                }
            }
            hInt[k] = dt;
            // refractoriness and spike generation
            if (refr) {
                r[k]--;
                s[Y + V] = vReset;
            } else if (s[Y + V] >= vTh) {
                r[k] = refSteps;
                s[Y + V] = vReset;
                out.spike(g);
            }
            // arriving spikes: excitatory weights are positive, inhibitory ones negative
            s[Y + DG_EX] += psconEx * ex[b];
            s[Y + DG_IN] -= psconIn * inh[b];
            System.arraycopy(s, Y, y, o, N);
            iStim[k] = cur[b];
            ex[b] = 0;
            inh[b] = 0;
            cur[b] = 0;
        }
    }

    @Override
    void reset() {
        Arrays.fill(y, 0);
        for (int k = 0; k < count; k++) {
            y[k * N + V] = v0;
        }
        Arrays.fill(iStim, 0);
        Arrays.fill(hInt, h);
        Arrays.fill(r, 0);
    }

    @Override
    double vm(int k) {
        return y[k * N + V];
    }

    @Override
    void setVm(int k, double mV) {
        y[k * N + V] = mV;
    }

    @Override
    double recordable(int k, int code) {
        switch (code) {
            case Recordables.V_M:
                return y[k * N + V];
            case Recordables.G_EX:
                return y[k * N + G_EX];
            case Recordables.G_IN:
                return y[k * N + G_IN];
            default:
                throw new IllegalArgumentException(model.nestName() + " cannot record code " + code);
        }
    }

    @Override
    double state(int k, String name) {
        switch (name) {
            case "V_m":
                return vm(k);
            case "g_ex":
                return y[k * N + G_EX];
            case "g_in":
                return y[k * N + G_IN];
            case "dg_ex":
                return y[k * N + DG_EX];
            case "dg_in":
                return y[k * N + DG_IN];
            case "refractory_steps":
                return r[k];
            default:
                double p = paramOrNaN(name);
                if (Double.isNaN(p)) {
                    throw unknownState(name, "V_m, g_ex, g_in, dg_ex, dg_in, refractory_steps");
                }
                return p;
        }
    }
}
