package io.tandem.world.record;

import java.math.BigInteger;

/*
 * Implementation notes.
 *
 * R. Giulietti, "The Schubfach way to render doubles" (2020; the algorithm of Double.toString from
 * JDK 19 on, JDK-4511638). A finite positive double is v = c 2^q with an integer significand c.
 * Its rounding interval R_v holds the reals that parse back to v: between the midpoints to its two
 * neighbours, the midpoints included when c is even (round half even). Scaled by 10^-k with
 * k = floor(log10 2^q) (section 9; k = floor(log10(3/4 2^q)) at a power of two, whose lower
 * neighbour is closer), the scaled v and its interval bounds vl, vr are found to 2 fractional bits
 * plus a sticky bit ("round to odd", section 9.1) as vb = 4 v 10^-k, vbl and vbr, from a
 * 126-bit g ~ 10^-k 2^-r (one table row per k, built here with BigInteger) and two 64x64-bit
 * products. Then s = floor(v 10^-k) has 16 or 17 digits, and (section 9.3):
 *   - if exactly one of the two multiples of 10 around s, s' = 10 floor(s / 10) and t' = s' + 10,
 *     lies in R_v, it is the decimal (one digit shorter than s);
 *   - otherwise if exactly one of s and t = s + 1 lies in R_v it is the decimal;
 *   - otherwise both do and the closer to v is taken (ties: the even one).
 * Trailing zeros are stripped from the result, so a shorter decimal (0.5, 300.0) comes out as such.
 * The tiniest subnormals (c < 3) are scaled by 10 first so that, as Double.toString's specification
 * asks, a 2-digit decimal closer than the 1-digit one is chosen (4.9E-324, not 5.0E-324).
 *
 * The text is laid out as Double.toString does: plain for 10^-3 <= |v| < 10^7 with at least one
 * digit after the point, computerized scientific notation (d.dddE-n) otherwise. On JDK 19 and later
 * the result equals Double.toString's; JDK 17's Double.toString sometimes writes a digit more than
 * needed or a neighbour of the closest decimal (JDK-4511638), which parses back to the same double
 * too. ShortestDecimalTest checks every digit of this against a slow exact reference (BigDecimal),
 * and against Double.toString.
 */

/**
 * Writes a double as the shortest decimal that parses back to it (the closest such decimal, ties
 * to the even one), in {@link Double#toString(double)}'s layout, with the same text on every JDK
 * (so records written on JDK 17 and JDK 21 compare exactly). Against JDK 17's
 * {@code Double.toString} it is faster (DoubleTextBenchmark in tandem-bench) and, more to a
 * recording's point, a few hundred bytes of code for the JIT to compile instead of FloatingDecimal's
 * and FDBigInteger's thousands. An instance holds small scratch arrays: not thread-safe, one per
 * writing thread; {@link #append} allocates nothing (but what the builder grows by).
 */
public final class ShortestDecimal {
    private static final int K_MIN = -324;
    private static final int K_MAX = 292;
    private static final long MASK_63 = (1L << 63) - 1;
    private static final long C_MIN = 1L << 52; // the smallest normal significand
    private static final int Q_MIN = -1074; // the exponent of subnormals
    private static final long C_TINY = 3; // subnormal significands below this get the 2-digit rule
    /** g1, g0 of each k in [K_MIN, K_MAX]: g = g1 2^63 + g0 = floor(10^-k 2^-r) + 1, r = flog2pow10(-k) - 125 */
    private static final long[] G = table();

    private static final long[] POW10 = new long[18];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = 10 * POW10[i - 1];
        }
    }

    /** the 17 digits of the decimal */
    private final char[] digits = new char[17];
    /** the most characters of a double's text: -1.2345678901234567E-308 */
    public static final int MAX_LENGTH = 24;
    /** the text being laid out */
    private final char[] text = new char[32];

    /** @return v's text (allocates the string) */
    public static String toString(double v) {
        StringBuilder b = new StringBuilder(24);
        new ShortestDecimal().append(b, v);
        return b.toString();
    }

    /**
     * Appends v's text to b.
     *
     * @param b the builder
     * @param v any double (NaN and the infinities are written as Double.toString writes them)
     * @return b
     */
    public StringBuilder append(StringBuilder b, double v) {
        return b.append(text, 0, text(v));
    }

    /**
     * Writes v's text into a byte array (ASCII), as {@link #append} appends it.
     *
     * @param out where to write: at least {@link #MAX_LENGTH} bytes from at
     * @param at  the first byte to write
     * @param v   any double
     * @return the index after the text
     */
    public int write(byte[] out, int at, double v) {
        int n = text(v);
        char[] c = text;
        for (int i = 0; i < n; i++) {
            out[at + i] = (byte) c[i];
        }
        return at + n;
    }

    /** @return the length of v's text, laid out in {@link #text} */
    private int text(double v) {
        long bits = Double.doubleToRawLongBits(v);
        long t = bits & (C_MIN - 1);
        int bq = (int) (bits >>> 52) & 0x7ff;
        if (bq == 0x7ff) {
            return chars(t != 0 ? "NaN" : bits > 0 ? "Infinity" : "-Infinity");
        }
        int sign = 0;
        if (bits < 0) {
            text[0] = '-';
            sign = 1;
        }
        if (bq != 0) {
            int mq = 1075 - bq; // v = c 2^-mq
            long c = C_MIN | t;
            if (0 < mq && mq < 53) {
                long f = c >> mq;
                if (f << mq == c) {
                    return layout(sign, f, 0); // an integer
                }
            }
            return decimal(sign, -mq, c, 0);
        }
        if (t == 0) {
            return sign + chars(sign, "0.0");
        }
        return t < C_TINY ? decimal(sign, Q_MIN, 10 * t, -1) : decimal(sign, Q_MIN, t, 0);
    }

    private int chars(String s) {
        return chars(0, s);
    }

    /** @return the length of s, copied into text from at */
    private int chars(int at, String s) {
        s.getChars(0, s.length(), text, at);
        return s.length();
    }

    /** The decimal of c 2^q 10^dk (section 9 of the paper), laid out in text from at; @return the text's length. */
    private int decimal(int at, int q, long c, int dk) {
        long out = c & 1;
        long cb = c << 2;
        long cbr = cb + 2;
        long cbl;
        int k;
        if (c != C_MIN || q == Q_MIN) {
            cbl = cb - 2;
            k = flog10pow2(q);
        } else {
            cbl = cb - 1;
            k = flog10threeQuartersPow2(q);
        }
        int h = q + flog2pow10(-k) + 2;
        int row = 2 * (k - K_MIN);
        long g1 = G[row];
        long g0 = G[row + 1];
        long vb = roundToOdd(g1, g0, cb << h);
        long vbl = roundToOdd(g1, g0, cbl << h);
        long vbr = roundToOdd(g1, g0, cbr << h);
        long s = vb >> 2;
        if (s >= 100) {
            long sp10 = s / 10 * 10;
            long tp10 = sp10 + 10;
            boolean upIn = vbl + out <= sp10 << 2;
            boolean wpIn = (tp10 << 2) + out <= vbr;
            if (upIn != wpIn) {
                return layout(at, upIn ? sp10 : tp10, k + dk);
            }
        }
        long t = s + 1;
        boolean uIn = vbl + out <= s << 2;
        boolean wIn = (t << 2) + out <= vbr;
        if (uIn != wIn) {
            return layout(at, uIn ? s : t, k + dk);
        }
        long cmp = vb - (s + t << 1);
        return layout(at, cmp < 0 || cmp == 0 && (s & 1) == 0 ? s : t, k + dk);
    }

    /** floor(g cp / 2^127), its lowest bit set when the rest is not zero (section 9.1), g = g1 2^63 + g0. */
    private static long roundToOdd(long g1, long g0, long cp) {
        long x1 = Math.multiplyHigh(g0, cp);
        long y0 = g1 * cp;
        long y1 = Math.multiplyHigh(g1, cp);
        long z = (y0 >>> 1) + x1;
        long vbp = y1 + (z >>> 63);
        return vbp | (z & MASK_63) + MASK_63 >>> 63;
    }

    /** Lays out f 10^e (0 < f < 10^17) in Double.toString's layout in text from at; @return the text's length. */
    private int layout(int at, long f, int e) {
        // f as 17 digits 0.ddd...d 10^exp1 (section 10 of the paper), the trailing zeros then dropped
        int len = flog10pow2(Long.SIZE - Long.numberOfLeadingZeros(f));
        if (f >= POW10[len]) {
            len++;
        }
        f *= POW10[17 - len];
        char[] d = digits;
        long hm = f / 100_000_000;
        int l = (int) (f - 100_000_000 * hm);
        int h = (int) (hm / 100_000_000);
        int m = (int) (hm - 100_000_000L * h);
        d[0] = (char) ('0' + h);
        eight(d, 1, m);
        eight(d, 9, l);
        int nd = 17;
        while (d[nd - 1] == '0') {
            nd--;
        }
        int exp = e + len - 1; // the leading digit's power of ten
        char[] c = text;
        int n = at;
        if (exp >= 0 && exp < 7) {
            int whole = exp + 1;
            if (nd <= whole) { // an integer: digits, zeros, ".0"
                for (int i = 0; i < nd; i++) {
                    c[n++] = d[i];
                }
                for (int i = nd; i < whole; i++) {
                    c[n++] = '0';
                }
                c[n++] = '.';
                c[n++] = '0';
            } else { // the digits with the point after the whole part's
                for (int i = 0; i < whole; i++) {
                    c[n++] = d[i];
                }
                c[n++] = '.';
                for (int i = whole; i < nd; i++) {
                    c[n++] = d[i];
                }
            }
        } else if (exp < 0 && exp >= -3) { // 0.00ddd
            c[n++] = '0';
            c[n++] = '.';
            for (int i = -1; i > exp; i--) {
                c[n++] = '0';
            }
            for (int i = 0; i < nd; i++) {
                c[n++] = d[i];
            }
        } else { // d.dddE-n
            c[n++] = d[0];
            c[n++] = '.';
            if (nd == 1) {
                c[n++] = '0';
            }
            for (int i = 1; i < nd; i++) {
                c[n++] = d[i];
            }
            c[n++] = 'E';
            int x = exp;
            if (x < 0) {
                c[n++] = '-';
                x = -x;
            }
            if (x >= 100) {
                c[n++] = (char) ('0' + x / 100);
                x %= 100;
                c[n++] = (char) ('0' + x / 10);
            } else if (x >= 10) {
                c[n++] = (char) ('0' + x / 10);
            }
            c[n++] = (char) ('0' + x % 10);
        }
        return n;
    }

    /** Writes x (0 <= x < 10^8) as eight digits into d from off. */
    private static void eight(char[] d, int off, int x) {
        int hi = x / 10_000;
        four(d, off, hi);
        four(d, off + 4, x - 10_000 * hi);
    }

    private static void four(char[] d, int off, int x) {
        int hi = x / 100;
        int lo = x - 100 * hi;
        d[off] = (char) ('0' + hi / 10);
        d[off + 1] = (char) ('0' + hi % 10);
        d[off + 2] = (char) ('0' + lo / 10);
        d[off + 3] = (char) ('0' + lo % 10);
    }

    /** floor(log10(2^e)), |e| <= 5_456_721 */
    static int flog10pow2(int e) {
        return (int) (e * 661_971_961_083L >> 41);
    }

    /** floor(log10(3/4 2^e)), |e| <= 5_456_721 */
    static int flog10threeQuartersPow2(int e) {
        return (int) (e * 661_971_961_083L + -274_743_187_321L >> 41);
    }

    /** floor(log2(10^e)), |e| <= 1_838_394 */
    static int flog2pow10(int e) {
        return (int) (e * 913_124_641_741L >> 38);
    }

    private static long[] table() {
        // 10^|k| kept from one row to the next (one multiplication each, not a power per row)
        long[] g = new long[2 * (K_MAX - K_MIN + 1)];
        BigInteger p = BigInteger.ONE;
        for (int k = 0; k >= K_MIN; k--, p = p.multiply(BigInteger.TEN)) {
            int r = flog2pow10(-k) - 125;
            row(g, k, r <= 0 ? p.shiftLeft(-r) : p.shiftRight(r));
        }
        p = BigInteger.TEN;
        for (int k = 1; k <= K_MAX; k++, p = p.multiply(BigInteger.TEN)) {
            row(g, k, BigInteger.ONE.shiftLeft(125 - flog2pow10(-k)).divide(p));
        }
        return g;
    }

    /** Stores g = floor(10^-k 2^-r) + 1 of row k, given the floor. */
    private static void row(long[] g, int k, BigInteger floor) {
        BigInteger x = floor.add(BigInteger.ONE);
        g[2 * (k - K_MIN)] = x.shiftRight(63).longValueExact();
        g[2 * (k - K_MIN) + 1] = x.longValue() & MASK_63;
    }
}
