package io.tandem.world.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ShortestDecimal against a slow exact reference (BigDecimal: the rounding interval, the shortest
 * decimals in it, the closest of those), against the parser (every text parses back to its double)
 * and against Double.toString (equal on JDK 19 and later; on JDK 17 never longer).
 */
class ShortestDecimalTest {

    /** Double.toString's specification (JDK 19 on), computed exactly. */
    static String reference(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "Infinity" : "-Infinity";
        }
        if (v == 0) {
            return 1 / v > 0 ? "0.0" : "-0.0";
        }
        String sign = v < 0 ? "-" : "";
        double a = Math.abs(v);
        BigDecimal x = new BigDecimal(a);
        BigDecimal below = x.subtract(new BigDecimal(Math.nextDown(a)));
        BigDecimal above = a == Double.MAX_VALUE ? new BigDecimal(Math.ulp(a)) : new BigDecimal(Math.nextUp(a)).subtract(x);
        BigDecimal lo = x.subtract(below.divide(BigDecimal.valueOf(2)));
        BigDecimal hi = x.add(above.divide(BigDecimal.valueOf(2)));
        boolean closed = (Double.doubleToRawLongBits(a) & 1) == 0; // round half even parses the midpoints to v
        int lead = x.precision() - x.scale() - 1; // floor(log10 x)
        for (int n = 1; n <= 17; n++) {
            // every decimal of n digits or fewer near x is a multiple of u = 10^(lead - n + 1)
            int m = n == 1 ? 2 : n; // a 1-digit decimal competes with 2-digit ones (the specification)
            BigDecimal u = BigDecimal.ONE.scaleByPowerOfTen(lead - n + 1);
            BigDecimal first = lo.divide(u, 0, RoundingMode.CEILING).multiply(u);
            if (!in(first, lo, hi, closed)) {
                first = first.add(u);
            }
            if (!in(first, lo, hi, closed)) {
                continue;
            }
            BigDecimal um = BigDecimal.ONE.scaleByPowerOfTen(lead - m + 1);
            BigDecimal best = null;
            for (BigDecimal d = lo.divide(um, 0, RoundingMode.FLOOR).multiply(um); d.compareTo(hi) <= 0; d = d.add(um)) {
                if (!in(d, lo, hi, closed)) {
                    continue;
                }
                if (best == null) {
                    best = d;
                    continue;
                }
                int c = d.subtract(x).abs().compareTo(best.subtract(x).abs());
                boolean even = !d.divide(um).toBigIntegerExact().testBit(0);
                if (c < 0 || c == 0 && even) {
                    best = d;
                }
            }
            return sign + layout(best);
        }
        throw new AssertionError("no decimal of 17 digits in the rounding interval of " + v);
    }

    private static boolean in(BigDecimal d, BigDecimal lo, BigDecimal hi, boolean closed) {
        int l = d.compareTo(lo);
        int h = d.compareTo(hi);
        return closed ? l >= 0 && h <= 0 : l > 0 && h < 0;
    }

    /** Double.toString's layout of a positive decimal, from its digits and exponent. */
    private static String layout(BigDecimal d) {
        BigDecimal s = d.stripTrailingZeros();
        String digits = s.unscaledValue().toString();
        int exp = s.precision() - s.scale() - 1;
        if (exp >= -3 && exp < 7) {
            String plain = s.toPlainString();
            return plain.contains(".") ? plain : plain + ".0";
        }
        return digits.charAt(0) + "." + (digits.length() == 1 ? "0" : digits.substring(1)) + "E" + exp;
    }

    static Stream<Arguments> doubles() {
        return Stream.of(
                Arguments.of("random bit patterns (every exponent)", bits(false)),
                Arguments.of("poses: uniform in [-10, 10]", (DoubleSupplierFactory) r -> () -> r.nextDouble(-10, 10)),
                Arguments.of("quaternion components in [-1, 1]", (DoubleSupplierFactory) r -> () -> r.nextDouble(-1, 1)),
                Arguments.of("times: multiples of 2 ms", (DoubleSupplierFactory) r -> () -> r.nextInt(1, 1_000_000) * 0.002),
                Arguments.of("short decimals", (DoubleSupplierFactory) r -> () -> Double.parseDouble(r.nextInt(1, 100000) + "E" + r.nextInt(-330, 310))),
                Arguments.of("subnormals", bits(true)),
                Arguments.of("integers up to 2^60", (DoubleSupplierFactory) r -> () -> (double) (r.nextLong(1L << 60) >> r.nextInt(60))));
    }

    /** any finite double's bits, or a subnormal's */
    private static DoubleSupplierFactory bits(boolean subnormal) {
        return r -> () -> {
            while (true) {
                long b = subnormal ? r.nextLong(1L << 52) : r.nextLong();
                double d = Double.longBitsToDouble(b);
                if (Double.isFinite(d)) {
                    return d;
                }
            }
        };
    }

    interface DoubleSupplierFactory {
        DoubleSupplier of(SplittableRandom r);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("doubles")
    void append_seededDoubles_equalsExactReference(String what, DoubleSupplierFactory factory) {
        DoubleSupplier next = factory.of(new SplittableRandom(20261127));
        ShortestDecimal sd = new ShortestDecimal();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 4000; i++) {
            double v = next.getAsDouble();
            b.setLength(0);
            assertThat(sd.append(b, v).toString()).as("%s (bits %x)", v, Double.doubleToRawLongBits(v)).isEqualTo(reference(v));
        }
    }

    @Test
    void append_powersOfTwoAndTheirNeighbours_equalsExactReference() {
        // every binade's first double (c = 2^52: the closer lower neighbour), its neighbours, and the extremes
        ShortestDecimal sd = new ShortestDecimal();
        StringBuilder b = new StringBuilder();
        for (int e = -1074; e <= 1023; e++) {
            double p = Math.scalb(1.0, e);
            for (double v : new double[] {p, Math.nextUp(p), Math.nextDown(p), -p}) {
                b.setLength(0);
                assertThat(sd.append(b, v).toString()).as("2^%d neighbourhood: %s", e, v).isEqualTo(reference(v));
            }
        }
        for (double v : new double[] {Double.MAX_VALUE, Double.MIN_VALUE, Double.MIN_NORMAL, 2 * Double.MIN_VALUE,
            Math.nextDown(Double.MIN_NORMAL), 1e23, 2e23, 9007199254740993.0, 0.1, 0.3, 1e7, Math.nextDown(1e7), 1e-3,
            Math.nextDown(1e-3), 123456.789, 5e-324}) {
            b.setLength(0);
            assertThat(sd.append(b, v).toString()).as("%s", v).isEqualTo(reference(v));
        }
    }

    @Test
    void append_specialValues_asDoubleToString() {
        for (double v : new double[] {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.0, -2.5, 100.0,
            1e7, 1e-3, 4.9e-324, Double.MAX_VALUE}) {
            assertThat(ShortestDecimal.toString(v)).as("%s", v).isEqualTo(Double.toString(v));
        }
    }

    @Test
    void append_millionRandomDoubles_parsesBackAndIsNeverLongerThanDoubleToString() {
        // JDK 19 on: the same text as Double.toString; JDK 17: Double.toString is sometimes a digit longer
        // or a neighbour (JDK-4511638), never shorter than the shortest
        boolean schubfachJdk = Runtime.version().feature() >= 19;
        SplittableRandom r = new SplittableRandom(7);
        ShortestDecimal sd = new ShortestDecimal();
        StringBuilder b = new StringBuilder();
        int differ = 0;
        for (int i = 0; i < 1_000_000; i++) {
            double v = i % 2 == 0 ? Double.longBitsToDouble(r.nextLong()) : r.nextDouble(-100, 100);
            if (!Double.isFinite(v)) {
                continue;
            }
            b.setLength(0);
            String ours = sd.append(b, v).toString();
            String jdk = Double.toString(v);
            assertThat(Double.parseDouble(ours)).as("%s parses back", ours).isEqualTo(v);
            if (!ours.equals(jdk)) {
                differ++;
                assertThat(schubfachJdk).as("%s differs from Double.toString's %s", ours, jdk).isFalse();
                assertThat(digits(ours)).as("%s against Double.toString's %s", ours, jdk).isLessThanOrEqualTo(digits(jdk));
            }
        }
        assertThat(differ).as("texts unlike JDK 17's Double.toString").isLessThan(10_000);
    }

    /** The byte writer gives append's text, after what the array already holds, for every kind of double. */
    @Test
    void write_randomAndSpecialDoubles_appendsTextAsBytesAfterThePrefix() {
        SplittableRandom r = new SplittableRandom(11);
        ShortestDecimal sd = new ShortestDecimal();
        StringBuilder b = new StringBuilder();
        byte[] out = new byte[3 + ShortestDecimal.MAX_LENGTH];
        double[] special = {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -4.9e-324,
            -Double.MAX_VALUE, -1e7, -123.0, -0.001};
        for (int i = 0; i < 200_000; i++) {
            double v = i < special.length ? special[i] : i % 3 == 0 ? Double.longBitsToDouble(r.nextLong())
                    : i % 3 == 1 ? -r.nextDouble(0, 1e-2) : r.nextDouble(-1e8, 1e8);
            b.setLength(0);
            String text = sd.append(b, v).toString();
            java.util.Arrays.fill(out, (byte) 'x');
            int end = sd.write(out, 3, v);
            assertThat(new String(out, 0, end, java.nio.charset.StandardCharsets.US_ASCII)).as("%s", v).isEqualTo("xxx" + text);
            assertThat(text.length()).isLessThanOrEqualTo(ShortestDecimal.MAX_LENGTH);
        }
    }

    @Test
    void floorLogarithms_overTheirRange_areExact() {
        for (int e = -1200; e <= 1200; e++) {
            assertThat(ShortestDecimal.flog10pow2(e)).as("floor(log10 2^%d)", e).isEqualTo(floorLog10(pow2(e)));
            assertThat(ShortestDecimal.flog10threeQuartersPow2(e)).as("floor(log10 3/4 2^%d)", e)
                    .isEqualTo(floorLog10(pow2(e).multiply(new BigDecimal("0.75"))));
        }
        for (int e = -400; e <= 400; e++) {
            BigDecimal p = e >= 0 ? new BigDecimal(BigInteger.TEN.pow(e)) : BigDecimal.ONE.scaleByPowerOfTen(e);
            // floor(log2 p): the largest j with 2^j <= p
            int j = e >= 0 ? BigInteger.TEN.pow(e).bitLength() - 1 : -BigInteger.TEN.pow(-e).subtract(BigInteger.ONE).bitLength();
            assertThat(pow2(j).compareTo(p)).as("2^%d <= 10^%d", j, e).isLessThanOrEqualTo(0);
            assertThat(pow2(j + 1).compareTo(p)).as("2^%d > 10^%d", j + 1, e).isGreaterThan(0);
            assertThat(ShortestDecimal.flog2pow10(e)).as("floor(log2 10^%d)", e).isEqualTo(j);
        }
    }

    private static BigDecimal pow2(int e) {
        return e >= 0 ? new BigDecimal(BigInteger.ONE.shiftLeft(e)) : BigDecimal.ONE.divide(new BigDecimal(BigInteger.ONE.shiftLeft(-e)));
    }

    /** floor(log10 x), x > 0 exact */
    private static int floorLog10(BigDecimal x) {
        return x.precision() - x.scale() - 1;
    }

    /** significant digits of a Double.toString text */
    private static int digits(String s) {
        String m = s.replace("-", "");
        int e = m.indexOf('E');
        if (e >= 0) {
            m = m.substring(0, e);
        }
        m = m.replace(".", "").replaceFirst("^0+", "").replaceFirst("0+$", "");
        return m.length();
    }
}
