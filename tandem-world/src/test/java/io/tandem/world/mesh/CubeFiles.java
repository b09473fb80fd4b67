package io.tandem.world.mesh;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A box in each format, written by the tests: corners (+-hx, +-hy, +-hz), corner i at bit 0 = x,
 * bit 1 = y, bit 2 = z; six faces counter-clockwise from outside.
 */
final class CubeFiles {
    /** the six faces as quads of corner indices, counter-clockwise seen from outside */
    static final int[][] QUADS = {
        {0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};

    private CubeFiles() {
    }

    /** @return the 8 corners, x y z each */
    static double[][] corners(double hx, double hy, double hz) {
        double[][] c = new double[8][];
        for (int i = 0; i < 8; i++) {
            c[i] = new double[] {(i & 1) == 0 ? -hx : hx, (i & 2) == 0 ? -hy : hy, (i & 4) == 0 ? -hz : hz};
        }
        return c;
    }

    /** @return the 12 triangles, corner indices */
    static int[][] triangles() {
        int[][] t = new int[12][];
        for (int f = 0; f < 6; f++) {
            int[] q = QUADS[f];
            t[2 * f] = new int[] {q[0], q[1], q[2]};
            t[2 * f + 1] = new int[] {q[0], q[2], q[3]};
        }
        return t;
    }

    static Path binaryStl(Path file, String header, double hx, double hy, double hz) throws IOException {
        double[][] c = corners(hx, hy, hz);
        int[][] t = triangles();
        ByteBuffer b = ByteBuffer.allocate(84 + 50 * t.length).order(ByteOrder.LITTLE_ENDIAN);
        byte[] h = header.getBytes(StandardCharsets.US_ASCII);
        b.put(h, 0, Math.min(80, h.length));
        b.position(80);
        b.putInt(t.length);
        for (int[] tri : t) {
            b.putFloat(0).putFloat(0).putFloat(0);
            for (int k : tri) {
                b.putFloat((float) c[k][0]).putFloat((float) c[k][1]).putFloat((float) c[k][2]);
            }
            b.putShort((short) 0);
        }
        Files.write(file, b.array());
        return file;
    }

    /** @return an ASCII STL solid (no trailing newline after endsolid) */
    static String asciiSolid(String name, double hx, double hy, double hz) {
        double[][] c = corners(hx, hy, hz);
        StringBuilder s = new StringBuilder("solid " + name + "\n");
        for (int[] tri : triangles()) {
            s.append("  facet normal 0 0 0\n    outer loop\n");
            for (int k : tri) {
                s.append(String.format(Locale.ROOT, "      vertex %s %s %s%n", c[k][0], c[k][1], c[k][2]));
            }
            s.append("    endloop\n  endfacet\n");
        }
        return s.append("endsolid ").append(name).append('\n').toString();
    }

    static Path write(Path file, String text) throws IOException {
        Files.write(file, text.getBytes(StandardCharsets.UTF_8));
        return file;
    }

    /**
     * An OBJ box in two groups: "bottom" with the -z, -x and -y faces as quads in the corner forms
     * i, i/t, i//n and i/t/n; "top" with the others by negative indices; texture coordinates,
     * normals, materials, smoothing, comments and a continued line about them.
     */
    static String obj(double hx, double hy, double hz) {
        double[][] c = corners(hx, hy, hz);
        StringBuilder s = new StringBuilder("# box\nmtllib box.mtl\no box\n");
        for (double[] v : c) {
            s.append(String.format(Locale.ROOT, "v %s %s %s%n", v[0], v[1], v[2]));
        }
        s.append("vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 0 -1\nvn 0 0 1\n");
        s.append("g bottom\nusemtl grey\ns off\n");
        s.append(face(QUADS[4], "", 0)).append(face(QUADS[0], "/1", 0)).append(face(QUADS[2], "//1", 0));
        s.append("g top\nusemtl red\ns 1\n");
        s.append(face(QUADS[1], "/2/2", -8));
        // a continued line
        int[] q = QUADS[3];
        s.append("f ").append(q[0] - 8).append(' ').append(q[1] - 8).append(" \\\n  ").append(q[2] - 8).append(' ')
                .append(q[3] - 8).append('\n');
        s.append(face(QUADS[5], "", -8));
        s.append("l 1 2\n");
        return s.toString();
    }

    /** @param base 0 for 1-based indices, -8 for negative ones after the 8 vertices */
    private static String face(int[] quad, String suffix, int base) {
        StringBuilder s = new StringBuilder("f");
        for (int k : quad) {
            s.append(' ').append(base == 0 ? k + 1 : k + base).append(suffix);
        }
        return s.append('\n').toString();
    }

    /**
     * A COLLADA box with normals interleaved (stride 2), as a polylist of quads or as triangles,
     * instantiated by a node with these transform elements (none: no visual scene at all when null).
     */
    static String dae(String unitMeter, String upAxis, double hx, double hy, double hz, boolean polylist,
            String nodeTransforms) {
        double[][] c = corners(hx, hy, hz);
        StringBuilder pos = new StringBuilder();
        for (double[] v : c) {
            pos.append(String.format(Locale.ROOT, " %s %s %s", v[0], v[1], v[2]));
        }
        StringBuilder prim = new StringBuilder();
        if (polylist) {
            prim.append("        <polylist material=\"m\" count=\"6\">\n")
                    .append("          <input semantic=\"VERTEX\" source=\"#box-vertices\" offset=\"0\"/>\n")
                    .append("          <input semantic=\"NORMAL\" source=\"#box-normals\" offset=\"1\"/>\n")
                    .append("          <vcount>4 4 4 4 4 4</vcount>\n          <p>");
            for (int[] q : QUADS) {
                for (int k : q) {
                    prim.append(k).append(" 0 ");
                }
            }
            prim.append("</p>\n        </polylist>\n");
        } else {
            prim.append("        <triangles count=\"12\">\n")
                    .append("          <input semantic=\"NORMAL\" source=\"#box-normals\" offset=\"1\"/>\n")
                    .append("          <input semantic=\"VERTEX\" source=\"#box-vertices\" offset=\"0\"/>\n")
                    .append("          <p>");
            for (int[] t : triangles()) {
                for (int k : t) {
                    prim.append(k).append(" 0 ");
                }
            }
            prim.append("</p>\n        </triangles>\n");
        }
        String scene = nodeTransforms == null ? "" : "  <library_visual_scenes>\n"
                + "    <visual_scene id=\"Scene\" name=\"Scene\">\n"
                + "      <node id=\"Box\" name=\"Box\" type=\"NODE\">\n"
                + "        " + nodeTransforms + "\n"
                + "        <instance_geometry url=\"#box-mesh\" name=\"Box\"/>\n"
                + "      </node>\n"
                + "    </visual_scene>\n"
                + "  </library_visual_scenes>\n"
                + "  <scene><instance_visual_scene url=\"#Scene\"/></scene>\n";
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
                + "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
                + "  <asset>\n    <unit name=\"unit\" meter=\"" + unitMeter + "\"/>\n"
                + (upAxis == null ? "" : "    <up_axis>" + upAxis + "</up_axis>\n") + "  </asset>\n"
                + "  <library_geometries>\n"
                + "    <geometry id=\"box-mesh\" name=\"box\">\n"
                + "      <mesh>\n"
                + "        <source id=\"box-positions\">\n"
                + "          <float_array id=\"box-positions-array\" count=\"24\">" + pos + "</float_array>\n"
                + "          <technique_common>\n"
                + "            <accessor source=\"#box-positions-array\" count=\"8\" stride=\"3\">\n"
                + "              <param name=\"X\" type=\"float\"/><param name=\"Y\" type=\"float\"/>"
                + "<param name=\"Z\" type=\"float\"/>\n"
                + "            </accessor>\n"
                + "          </technique_common>\n"
                + "        </source>\n"
                + "        <source id=\"box-normals\">\n"
                + "          <float_array id=\"box-normals-array\" count=\"3\">0 0 1</float_array>\n"
                + "          <technique_common><accessor source=\"#box-normals-array\" count=\"1\" stride=\"3\"/>"
                + "</technique_common>\n"
                + "        </source>\n"
                + "        <vertices id=\"box-vertices\">\n"
                + "          <input semantic=\"POSITION\" source=\"#box-positions\"/>\n"
                + "        </vertices>\n"
                + prim
                + "      </mesh>\n"
                + "    </geometry>\n"
                + "  </library_geometries>\n"
                + scene
                + "</COLLADA>\n";
    }

    /** @return the mesh's signed volume, m^3 (positive when the triangles wind counter-clockwise seen from outside) */
    static double volume(TriangleMesh mesh) {
        double v = 0;
        for (TriangleMesh.Part p : mesh.parts()) {
            for (int t = 0; t < p.triangleCount(); t++) {
                int a = p.corner(t, 0);
                int b = p.corner(t, 1);
                int c = p.corner(t, 2);
                double ax = p.coordinate(a, 0);
                double ay = p.coordinate(a, 1);
                double az = p.coordinate(a, 2);
                double bx = p.coordinate(b, 0);
                double by = p.coordinate(b, 1);
                double bz = p.coordinate(b, 2);
                double cx = p.coordinate(c, 0);
                double cy = p.coordinate(c, 1);
                double cz = p.coordinate(c, 2);
                v += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
            }
        }
        return v / 6;
    }

    /** @return min x, y, z, max x, y, z */
    static double[] bounds(TriangleMesh mesh) {
        return new double[] {mesh.min(0), mesh.min(1), mesh.min(2), mesh.max(0), mesh.max(1), mesh.max(2)};
    }
}
