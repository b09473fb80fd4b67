package io.tandem.world.mesh;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * A triangle mesh read from a file: one or more named {@link Part}s, each with its own vertices
 * (metres, in the mesh's frame: after the file's unit, its up-axis handling and the caller's scale)
 * and counter-clockwise triangles (outward normals by the right-hand rule when the file has them so).
 *
 * <p>Immutable and thread-safe. The accessors that return arrays copy them (they allocate); the
 * indexed accessors do not.
 */
public final class TriangleMesh {
    private final List<Part> parts;
    private final int vertexCount;
    private final int triangleCount;
    private final double[] bounds; // (6): min x, y, z, max x, y, z, metres

    TriangleMesh(List<Part> parts) {
        this.parts = Collections.unmodifiableList(new ArrayList<>(parts));
        int v = 0;
        int t = 0;
        double[] b = {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (Part p : parts) {
            v += p.vertexCount();
            t += p.triangleCount();
            for (int i = 0; i < p.positions.length; i += 3) {
                for (int axis = 0; axis < 3; axis++) {
                    double c = p.positions[i + axis];
                    b[axis] = Math.min(b[axis], c);
                    b[3 + axis] = Math.max(b[3 + axis], c);
                }
            }
        }
        this.vertexCount = v;
        this.triangleCount = t;
        this.bounds = b;
    }

    /** @return the parts, in file order (unmodifiable; never empty) */
    public List<Part> parts() {
        return parts;
    }

    /** @return the number of vertices over all parts */
    public int vertexCount() {
        return vertexCount;
    }

    /** @return the number of triangles over all parts (at least 1) */
    public int triangleCount() {
        return triangleCount;
    }

    /**
     * @param axis 0, 1 or 2 for x, y, z
     * @return the smallest coordinate of any vertex on that axis, metres
     */
    public double min(int axis) {
        return bounds[checkAxis(axis)];
    }

    /**
     * @param axis 0, 1 or 2 for x, y, z
     * @return the largest coordinate of any vertex on that axis, metres
     */
    public double max(int axis) {
        return bounds[3 + checkAxis(axis)];
    }

    private static int checkAxis(int axis) {
        if (axis < 0 || axis > 2) {
            throw new IndexOutOfBoundsException(axis + " is not 0, 1 or 2");
        }
        return axis;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "TriangleMesh[%d parts, %d vertices, %d triangles, x %g..%g, y %g..%g, z"
                + " %g..%g m]",
                parts.size(), vertexCount, triangleCount, bounds[0], bounds[3], bounds[1], bounds[4], bounds[2],
                bounds[5]);
    }

    /**
     * One named piece of a mesh: an STL solid, an OBJ object or group, a COLLADA geometry instance.
     * Its triangles index its own vertices only. Immutable and thread-safe.
     */
    public static final class Part {
        private final String name;
        private final double[] positions; // (3 vertexCount): x, y, z of each vertex, metres
        private final int[] triangles; // (3 triangleCount): the three vertex indices of each triangle

        /** Takes the arrays without copying them. */
        Part(String name, double[] positions, int[] triangles) {
            this.name = name;
            this.positions = positions;
            this.triangles = triangles;
        }

        /** @return the name the file gives the part (the file's name without extension when it gives none) */
        public String name() {
            return name;
        }

        /** @return the number of vertices */
        public int vertexCount() {
            return positions.length / 3;
        }

        /** @return the number of triangles (at least 1) */
        public int triangleCount() {
            return triangles.length / 3;
        }

        /**
         * @param vertex 0 .. vertexCount() - 1
         * @param axis   0, 1 or 2 for x, y, z
         * @return the coordinate, metres
         */
        public double coordinate(int vertex, int axis) {
            return positions[3 * vertex + checkAxis(axis)];
        }

        /**
         * @param triangle 0 .. triangleCount() - 1
         * @param corner   0, 1 or 2, counter-clockwise
         * @return the index of that corner's vertex
         */
        public int corner(int triangle, int corner) {
            return triangles[3 * triangle + checkAxis(corner)];
        }

        /** @return a copy of the positions (3 vertexCount: x, y, z of each vertex, metres); allocates */
        public double[] positions() {
            return positions.clone();
        }

        /** @return a copy of the triangles (3 triangleCount: the vertex indices of each); allocates */
        public int[] triangles() {
            return triangles.clone();
        }

        @Override
        public String toString() {
            return "Part[" + name + ", " + vertexCount() + " vertices, " + triangleCount() + " triangles]";
        }
    }
}
