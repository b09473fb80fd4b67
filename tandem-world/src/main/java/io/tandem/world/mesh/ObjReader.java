package io.tandem.world.mesh;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/*
 * Wavefront OBJ [1] geometry, in metres (the format has no unit; Gazebo takes metres).
 *
 *  - "v x y z [w]" adds a vertex (w, or the r g b some exporters append, is ignored);
 *  - "f v1 v2 v3 ..." with each corner written i, i/t, i//n or i/t/n: 1-based indices into the
 *    vertices defined so far, or negative ones counting back from the last (-1); a polygon is
 *    fanned from its first corner;
 *  - "o name" and "g name ..." start a new part (the first is "default", OBJ's default group);
 *    parts without faces are dropped; a part's vertices are those its faces use, in first use;
 *  - vt, vn, vp, usemtl, mtllib, s, l, p, comments and other statements are ignored;
 *  - a line ending in a backslash continues on the next.
 *
 * [1] Wavefront Technologies, "Object Files (.obj)", Advanced Visualizer manual, Appendix B1.
 */
final class ObjReader {
    static final String EMPTY_HINT = "an OBJ mesh needs 'v x y z' lines and 'f' lines that use them";
    /** the most "v" lines, three per triangle of the limit */
    static final int MAX_VERTICES = 3 * MeshFile.MAX_TRIANGLES;

    private final Path file;
    private final MeshAssembler out;
    private double[] vertices = new double[3 * 1024]; // (3 vertexCount), as written
    private int vertexCount;
    // per file vertex: its index in the current part, valid when stamp equals the part's number
    private int[] local = new int[1024];
    private int[] stamp = new int[1024];
    private int partNumber;
    private PartBuilder part;
    private int[] face = new int[16];

    private ObjReader(Path file, MeshAssembler out) {
        this.file = file;
        this.out = out;
    }

    static void read(Path file, InputStream in, MeshAssembler out) throws IOException {
        new ObjReader(file, out).read(new TextLines(in, file));
    }

    private void read(TextLines lines) throws IOException {
        startPart("default");
        while (lines.next(true)) {
            if (!lines.nextToken()) {
                continue;
            }
            int c = lines.tokenFirstByte();
            if (c == 'v' && lines.tokenIs("v")) {
                vertex(lines);
            } else if (c == 'f' && lines.tokenIs("f")) {
                face(lines);
            } else if (lines.tokenIs("o") || lines.tokenIs("g")) {
                String name = lines.rest();
                startPart(name.isEmpty() ? "default" : name);
            }
            // everything else (vt, vn, usemtl, mtllib, s, l, comments, ...) carries no geometry
        }
    }

    private void startPart(String name) {
        part = out.part(name);
        partNumber++;
    }

    private void vertex(TextLines lines) {
        int line = lines.number();
        if (vertexCount == MAX_VERTICES) {
            throw MeshErrors.at(file, line, String.format(Locale.ROOT,
                    "the file has more than %d vertices, the most Tandem reads; simplify the mesh (e.g. Blender's"
                            + " Decimate modifier)", MAX_VERTICES));
        }
        double x = lines.nextNumber("vertex x");
        double y = lines.nextNumber("vertex y");
        double z = lines.nextNumber("vertex z");
        if (3 * vertexCount + 3 > vertices.length) {
            vertices = Arrays.copyOf(vertices, 2 * vertices.length);
            local = Arrays.copyOf(local, 2 * local.length);
            stamp = Arrays.copyOf(stamp, 2 * stamp.length);
        }
        int i = 3 * vertexCount++;
        vertices[i] = x;
        vertices[i + 1] = y;
        vertices[i + 2] = z;
    }

    private void face(TextLines lines) {
        int line = lines.number();
        int n = 0;
        while (lines.nextToken()) {
            if (n == face.length) {
                face = Arrays.copyOf(face, 2 * face.length);
            }
            face[n++] = partVertex(resolve(lines, line));
        }
        if (n < 3) {
            throw MeshErrors.at(file, line, "the face has " + n + " corner" + (n == 1 ? "" : "s")
                    + "; a face needs at least 3 (write lines as 'l', not 'f')");
        }
        for (int k = 1; k + 1 < n; k++) {
            part.triangle(face[0], face[k], face[k + 1], line);
        }
    }

    /** @return the 0-based file vertex of the current corner token (its part before any '/') */
    private int resolve(TextLines lines, int line) {
        byte[] b = lines.bytes();
        int i = lines.tokenStart();
        int end = lines.tokenEnd();
        boolean negative = false;
        if (b[i] == '-') {
            negative = true;
            i++;
        }
        long value = 0;
        int digits = 0;
        while (i < end && b[i] >= '0' && b[i] <= '9') {
            if (digits < 12) {
                value = value * 10 + (b[i] - '0');
            }
            digits++;
            i++;
        }
        if (digits == 0 || (i < end && b[i] != '/')) {
            throw MeshErrors.at(file, line, "face corner " + MeshErrors.quote(lines.token()) + " is not a vertex"
                    + " index; write i, i/t, i//n or i/t/n with whole numbers (1 for the first vertex, -1 for the"
                    + " last)");
        }
        if (digits > 11) {
            value = Long.MAX_VALUE / 2;
        }
        long index = negative ? vertexCount - value : value - 1;
        if (value == 0 || index < 0 || index >= vertexCount) {
            throw MeshErrors.at(file, line, "face corner " + MeshErrors.quote(lines.token()) + " refers to "
                    + (value == 0 ? "vertex 0" : "a vertex that does not exist") + ": " + vertexCount
                    + " vertices are defined above this line; OBJ indices start at 1 and negative ones count back from"
                    + " the last vertex (-1), so fix the index or define the vertex before the face");
        }
        return (int) index;
    }

    /** @return the part's vertex for the file vertex, added on first use */
    private int partVertex(int v) {
        if (stamp[v] != partNumber) {
            int i = 3 * v;
            stamp[v] = partNumber;
            local[v] = part.add(vertices[i], vertices[i + 1], vertices[i + 2]);
        }
        return local[v];
    }
}
