package io.tandem.neuro.internal;

/*
 * Implementation notes.
 *
 * Exact integration of linear subthreshold dynamics over one resolution step h [1, 2]. The
 * membrane obeys dV/dt = -V/tau_m + I/C_m. For a current I(t) = I0 exp(-t/tau_s) the membrane
 * moves by
 *     P32 I0,  P32 = (1/C_m) exp(-h/tau_m) expm1(a h) / a,  a = 1/tau_m - 1/tau_s,
 * and for an alpha current started with dI(0) = dI0, I(0) = 0 (I(t) = dI0 t exp(-t/tau_s)) by
 *     P31 dI0, P31 = (1/C_m) exp(-h/tau_m) h^2 g(a h),  g(x) = (x e^x - expm1(x)) / x^2.
 * Both have a removable singularity at tau_m == tau_s (a = 0): expm1 keeps P32 accurate near it,
 * and g switches to its Taylor series sum_{n>=2} x^(n-2) (n-1)/n! for |x| < 1e-3. NEST guards the
 * same singularity in its propagator classes [3].
 *
 * [1] S. Rotter, M. Diesmann (1999), Exact digital simulation of time-invariant linear systems with
 *     applications to neuronal modeling. Biol. Cybern. 81:381-402.
 * [2] NEST iaf_psc_alpha / iaf_psc_exp model documentation (propagators P11..P32).
 * [3] NEST libnestutil propagator_stability / PropagatorAlpha, PropagatorExp.
 */

/** Static propagator kernels for the exact integration of the current-based models. Allocation-free. */
public final class PropagatorOps {
    private PropagatorOps() {
    }

    /** @return the voltage (mV) after {@code h} ms per pA of an exponential current (tau_s ms) at t=0, from V=0 */
    public static double p32(double tauSyn, double tauM, double cM, double h) {
        double a = 1.0 / tauM - 1.0 / tauSyn;
        double x = a * h;
        double f = x == 0.0 ? h : Math.expm1(x) / a;
        return Math.exp(-h / tauM) * f / cM;
    }

    /** @return the voltage (mV) after {@code h} ms per pA/ms of alpha-current derivative dI(0), from V=0, I=0 */
    public static double p31(double tauSyn, double tauM, double cM, double h) {
        double a = 1.0 / tauM - 1.0 / tauSyn;
        double x = a * h;
        double g;
        if (Math.abs(x) < 1e-3) {
            // series of (x e^x - expm1(x)) / x^2
            g = 0.5 + x * (1.0 / 3 + x * (1.0 / 8 + x * (1.0 / 30 + x / 144)));
        } else {
            g = (x * Math.exp(x) - Math.expm1(x)) / (x * x);
        }
        return Math.exp(-h / tauM) * h * h * g / cM;
    }

    /** @return the voltage (mV) after {@code h} ms per pA of constant current, from V=0 */
    public static double p30(double tauM, double cM, double h) {
        return -tauM / cM * Math.expm1(-h / tauM);
    }
}
