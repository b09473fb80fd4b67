package io.tandem.world.mesh;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The parts of one file as a reader adds them, the triangle limit over all of them, and the end:
 * empty parts dropped, the caller's scale applied, the mesh refused when it has no triangle.
 */
final class MeshAssembler {
    final Path file;
    private final double sx;
    private final double sy;
    private final double sz;
    private final List<PartBuilder> parts = new ArrayList<>();
    private long triangles;

    MeshAssembler(Path file, double sx, double sy, double sz) {
        this.file = file;
        this.sx = sx;
        this.sy = sy;
        this.sz = sz;
    }

    /** @return a new, empty part after those already started */
    PartBuilder part(String name) {
        PartBuilder p = new PartBuilder(this, name);
        parts.add(p);
        return p;
    }

    void countTriangle(int line) {
        if (++triangles > MeshFile.MAX_TRIANGLES) {
            throw tooLarge(line);
        }
    }

    /** Refuses the mesh when {@code more} triangles would take it past the limit. */
    void requireRoom(long more, int line) {
        if (triangles + more > MeshFile.MAX_TRIANGLES) {
            throw tooLarge(line);
        }
    }

    private io.tandem.world.WorldFormatException tooLarge(int line) {
        return MeshErrors.at(file, line, String.format(Locale.ROOT,
                "the mesh has more than %d triangles, the most Tandem reads; simplify it (e.g. Blender's Decimate"
                        + " modifier or MeshLab's quadric edge collapse) or use a few primitive shapes instead",
                MeshFile.MAX_TRIANGLES));
    }

    /** @return the mesh: parts with triangles, scaled, in the order started */
    TriangleMesh finish(String emptyHint) {
        // the scale mirrors when an odd number of its factors is negative
        boolean scaleMirrors = (sx < 0) ^ (sy < 0) ^ (sz < 0);
        List<TriangleMesh.Part> out = new ArrayList<>();
        for (PartBuilder p : parts) {
            if (p.triangleCount == 0) {
                continue;
            }
            p.complete();
            double[] xyz = p.positions;
            for (int i = 0; i < xyz.length; i += 3) {
                xyz[i] *= sx;
                xyz[i + 1] *= sy;
                xyz[i + 2] *= sz;
                if (!Double.isFinite(xyz[i]) || !Double.isFinite(xyz[i + 1]) || !Double.isFinite(xyz[i + 2])) {
                    throw MeshErrors.at(file, 0, "a vertex of part " + MeshErrors.quote(p.name)
                            + " overflows a double once transformed and scaled; check the file's unit and transforms"
                            + " and the scale");
                }
            }
            // keep the triangles counter-clockwise seen from outside under a mirroring transform
            if (p.mirrored ^ scaleMirrors) {
                int[] t = p.triangles;
                for (int i = 0; i < t.length; i += 3) {
                    int b = t[i + 1];
                    t[i + 1] = t[i + 2];
                    t[i + 2] = b;
                }
            }
            out.add(new TriangleMesh.Part(p.name, xyz, p.triangles));
        }
        if (out.isEmpty()) {
            throw MeshErrors.at(file, 0, "the mesh has no triangles, so nothing to collide with or draw; " + emptyHint);
        }
        return new TriangleMesh(out);
    }
}
