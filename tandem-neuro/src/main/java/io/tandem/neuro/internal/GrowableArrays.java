package io.tandem.neuro.internal;

import java.util.Arrays;

/** Growable primitive arrays for building networks (not used while stepping). Not thread-safe. */
final class GrowableArrays {
    private GrowableArrays() {
    }

    /** A growable int array. */
    static final class Ints {
        int[] a = new int[16];
        int size;

        void add(int v) {
            if (size == a.length) {
                a = Arrays.copyOf(a, a.length * 2);
            }
            a[size++] = v;
        }

        int[] toArray() {
            return Arrays.copyOf(a, size);
        }
    }

    /** A growable double array. */
    static final class Doubles {
        double[] a = new double[16];
        int size;

        void add(double v) {
            if (size == a.length) {
                a = Arrays.copyOf(a, a.length * 2);
            }
            a[size++] = v;
        }

        double[] toArray() {
            return Arrays.copyOf(a, size);
        }
    }
}
