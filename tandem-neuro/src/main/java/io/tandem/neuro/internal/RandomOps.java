package io.tandem.neuro.internal;

/*
 * Implementation notes.
 *
 * Random streams are SplitMix64 generators [1] whose 64-bit state lives in a long[] slot, one
 * slot per stream (a Poisson connection), so the engine holds no generator objects and a stream's
 * numbers depend only on the network seed and the stream's key (device and target ids), never on
 * threads or creation order of other streams. Stream states are derived by hashing seed and key
 * with the SplitMix64 finalizer; distinct streams start at unrelated points of the 2^64 cycle.
 *
 * Poisson counts use sequential inversion [2] for means up to 10, searching a cdf table built
 * once per run (no division or exp per draw); a larger mean m is split into ceil(m / 10) equal
 * parts whose counts are summed (the sum of independent Poisson variables is Poisson), which is
 * exact and costs O(m) like inversion itself.
 *
 * [1] G. Steele, D. Lea, C. Flood (2014), Fast splittable pseudorandom number generators. OOPSLA.
 * [2] L. Devroye (1986), Non-Uniform Random Variate Generation, ch. X.3.
 */

/** Static kernels for SplitMix64 streams stored in {@code long[]} slots and Poisson sampling. Allocation-free. */
public final class RandomOps {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    /** Largest mean sampled by one inversion. */
    public static final double MAX_INVERSION_MEAN = 10.0;

    private RandomOps() {
    }

    /** @return the SplitMix64 finalizer of {@code z} */
    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** @return a stream state from a seed and a two-part key */
    public static long streamState(long seed, long keyA, long keyB) {
        return mix64(mix64(seed + GOLDEN) ^ mix64(keyA * GOLDEN + 0x632BE59BD9B4E019L) ^ mix64(keyB + 0x7F4A7C159E3779B9L));
    }

    /** @return the next 64 random bits of stream {@code i}. Modifies {@code state[i]}. */
    public static long nextLong(long[] state, int i) {
        long z = state[i] + GOLDEN;
        state[i] = z;
        return mix64(z);
    }

    /** @return a uniform double in [0, 1) from stream {@code i}. Modifies {@code state[i]}. */
    public static double nextDouble(long[] state, int i) {
        return (nextLong(state, i) >>> 11) * 0x1.0p-53;
    }

    /**
     * Fills {@code cdf[base .. base + length)} with the Poisson cdf P(X <= k) for {@code mean}
     * (at most {@link #MAX_INVERSION_MEAN}), accumulated as inversion accumulates it.
     *
     * @param cdf the table. Modified.
     */
    public static void poissonCdf(double mean, double[] cdf, int base, int length) {
        double p = Math.exp(-mean);
        double c = p;
        for (int k = 0; k < length; k++) {
            cdf[base + k] = c;
            p *= mean / (k + 1);
            c += p;
        }
        // guard rounding: the last entry catches every u < 1
        cdf[base + length - 1] = 1.0;
    }

    /**
     * Fills {@code guide[gBase .. gBase + guides)} with the first index k of the cdf table with
     * cdf[k] >= g / guides: where a sequential search for u in [g / guides, (g + 1) / guides)
     * may start (the guide table of Chen and Asau, Devroye 1986 section III.2.4).
     *
     * @param guide the guide table. Modified.
     */
    public static void guideTable(double[] cdf, int base, int length, int[] guide, int gBase, int guides) {
        int k = 0;
        for (int g = 0; g < guides; g++) {
            double level = (double) g / guides;
            while (k < length - 1 && cdf[base + k] < level) {
                k++;
            }
            guide[gBase + g] = k;
        }
    }

    /**
     * A Poisson count: the first k with u <= cdf[k], searched from the guide entry of u (the same
     * k as a search from 0, in about one comparison). Modifies {@code state[i]}.
     */
    public static int poissonFromCdf(long[] state, int i, double[] cdf, int base, int[] guide, int gBase, int guides) {
        double u = nextDouble(state, i);
        int k = guide[gBase + (int) (u * guides)];
        // cdf ends with 1.0 > u, so the search stops
        while (u > cdf[base + k]) {
            k++;
        }
        return k;
    }
}
