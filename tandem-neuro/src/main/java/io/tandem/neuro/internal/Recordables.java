package io.tandem.neuro.internal;

/**
 * Integer codes of the state variables a multimeter samples (NEST's recordable names), so the
 * sampling loop switches on an int instead of comparing strings. Stateless.
 */
final class Recordables {
    /** {@code V_m}, mV. */
    static final int V_M = 0;
    /** {@code I_syn_ex}, pA. */
    static final int I_SYN_EX = 1;
    /** {@code I_syn_in}, pA. */
    static final int I_SYN_IN = 2;
    /** {@code g_ex}, nS. */
    static final int G_EX = 3;
    /** {@code g_in}, nS. */
    static final int G_IN = 4;

    private Recordables() {
    }

    /**
     * @param name a NEST recordable name, checked against the neuron model before
     * @return its code
     */
    static int code(String name) {
        switch (name) {
            case "V_m":
                return V_M;
            case "I_syn_ex":
                return I_SYN_EX;
            case "I_syn_in":
                return I_SYN_IN;
            case "g_ex":
                return G_EX;
            case "g_in":
                return G_IN;
            default:
                throw new IllegalArgumentException("unknown recordable '" + name + "'");
        }
    }
}
