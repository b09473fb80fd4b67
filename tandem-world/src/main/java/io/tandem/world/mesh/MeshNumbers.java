package io.tandem.world.mesh;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Decimal numbers in mesh text: a syntax check first (so {@link Double#parseDouble} never throws
 * and never accepts Java-only forms such as "0x1p3", "1d" or "Infinity"), then the value, which must be
 * finite.
 */
final class MeshNumbers {
    private MeshNumbers() {
    }

    /**
     * @param token the text of one number
     * @param what  what it is, for the message ("vertex x")
     * @param line  its line, or 0
     * @return the finite value
     */
    static double parseFinite(String token, Path file, int line, String what) {
        if (!isDecimal(token)) {
            String lower = token.toLowerCase(Locale.ROOT);
            if (lower.contains("nan") || lower.contains("inf") || lower.contains("#ind")) {
                throw MeshErrors.at(file, line, what + " is " + MeshErrors.quote(token)
                        + ", not a finite number; fix the exporter's output (a NaN or infinite coordinate comes from a"
                        + " degenerate or corrupted model) or re-export the mesh");
            }
            throw MeshErrors.at(file, line, what + " " + MeshErrors.quote(token)
                    + " is not a number; write decimal numbers such as 0.25 or -1.5e-3");
        }
        double v = Double.parseDouble(token);
        if (!Double.isFinite(v)) {
            throw MeshErrors.at(file, line, what + " " + MeshErrors.quote(token)
                    + " overflows a double (not a finite number); fix the value or re-export the mesh");
        }
        return v;
    }

    /** @return whether the text is [+-]digits[.digits][(e|E)[+-]digits] with at least one mantissa digit */
    static boolean isDecimal(String s) {
        int n = s.length();
        int i = 0;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        int digits = 0;
        while (i < n && isDigit(s.charAt(i))) {
            i++;
            digits++;
        }
        if (i < n && s.charAt(i) == '.') {
            i++;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            return false;
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            int exponentDigits = 0;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                exponentDigits++;
            }
            if (exponentDigits == 0) {
                return false;
            }
        }
        return i == n;
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
