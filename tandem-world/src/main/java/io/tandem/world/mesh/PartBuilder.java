package io.tandem.world.mesh;

import java.util.Arrays;

/**
 * One part as it is read: growing arrays of vertices (in the file's coordinates after the reader's
 * transform, before the caller's scale) and triangles, and optionally a table that welds vertices
 * of exactly equal coordinates (STL, which repeats each vertex in every facet).
 */
final class PartBuilder {
    private static final double[] NO_POSITIONS = new double[0];

    final String name;
    private final MeshAssembler mesh;
    double[] positions = new double[3 * 64]; // (3 vertexCount)
    int vertexCount;
    int[] triangles = new int[3 * 64]; // (3 triangleCount)
    int triangleCount;
    /** whether the reader's transform mirrors (negative determinant): the triangles are turned back */
    boolean mirrored;
    // open addressing over vertex indices + 1 (0 = empty), for weld()
    private int[] weldTable;

    PartBuilder(MeshAssembler mesh, String name) {
        this.mesh = mesh;
        this.name = name;
    }

    /** @return the new vertex's index */
    int add(double x, double y, double z) {
        if (3 * vertexCount + 3 > positions.length) {
            positions = Arrays.copyOf(positions, grow(positions.length));
        }
        int i = 3 * vertexCount;
        positions[i] = x;
        positions[i + 1] = y;
        positions[i + 2] = z;
        return vertexCount++;
    }

    /** @return the index of the vertex at exactly these coordinates (0.0 and -0.0 equal), added if new */
    int weld(double x, double y, double z) {
        // normalize -0.0 to 0.0 so that they weld
        x += 0.0;
        y += 0.0;
        z += 0.0;
        if (weldTable == null) {
            weldTable = new int[256];
        } else if (2 * (vertexCount + 1) > weldTable.length) {
            rehash(weldTable.length * 2);
        }
        int mask = weldTable.length - 1;
        int slot = hash(x, y, z) & mask;
        while (true) {
            int entry = weldTable[slot];
            if (entry == 0) {
                int v = add(x, y, z);
                weldTable[slot] = v + 1;
                return v;
            }
            int p = 3 * (entry - 1);
            if (positions[p] == x && positions[p + 1] == y && positions[p + 2] == z) {
                return entry - 1;
            }
            slot = (slot + 1) & mask;
        }
    }

    private void rehash(int capacity) {
        int[] table = new int[capacity];
        int mask = capacity - 1;
        for (int v = 0; v < vertexCount; v++) {
            int p = 3 * v;
            int slot = hash(positions[p], positions[p + 1], positions[p + 2]) & mask;
            while (table[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            table[slot] = v + 1;
        }
        weldTable = table;
    }

    private static int hash(double x, double y, double z) {
        long h = Double.doubleToLongBits(x);
        h = h * 0x9E3779B97F4A7C15L + Double.doubleToLongBits(y);
        h = h * 0x9E3779B97F4A7C15L + Double.doubleToLongBits(z);
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return (int) (h ^ (h >>> 32));
    }

    /**
     * Adds a triangle of vertices already added, counting it against the mesh's limit.
     *
     * @param line the line it is read from, or 0, for the message when the mesh is too large
     */
    void triangle(int a, int b, int c, int line) {
        mesh.countTriangle(line);
        if (3 * triangleCount + 3 > triangles.length) {
            triangles = Arrays.copyOf(triangles, grow(triangles.length));
        }
        int i = 3 * triangleCount;
        triangles[i] = a;
        triangles[i + 1] = b;
        triangles[i + 2] = c;
        triangleCount++;
    }

    private static int grow(int length) {
        long n = (long) length * 2;
        if (n > Integer.MAX_VALUE - 8) {
            // the triangle limit keeps real parts far below this
            throw new IllegalStateException("a part grew past the largest Java array");
        }
        return (int) n;
    }

    /** Releases the weld table and trims the arrays (the part is complete). */
    void complete() {
        weldTable = null;
        positions = vertexCount == 0 ? NO_POSITIONS : Arrays.copyOf(positions, 3 * vertexCount);
        triangles = Arrays.copyOf(triangles, 3 * triangleCount);
    }
}
