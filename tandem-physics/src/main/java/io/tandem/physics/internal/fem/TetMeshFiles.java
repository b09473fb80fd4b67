package io.tandem.physics.internal.fem;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/*
 * Tetrahedral meshes from the files users already have, following the formats' own documents:
 *
 *  - Gmsh MSH 4.1 ASCII, and 4.0 [1]: "$MeshFormat" (version, file type 0 = ASCII, data size);
 *    "$Nodes": counts, then entity blocks of "entityDim entityTag parametric numNodesInBlock",
 *    the block's node tags one a line, then their "x y z" (followed by entityDim parametric
 *    coordinates when parametric is 1); 4.0 writes "entityTag entityDim ..." and "tag x y z" lines;
 *    "$Elements": counts, then entity blocks of "entityDim entityTag elementType
 *    numElementsInBlock" and "elementTag nodeTag..." lines. Element type 4 (4-node tetrahedron) is
 *    kept; points, lines, triangles and quadrangles are skipped; other volume elements (10-node
 *    tetrahedra, type 11; hexahedra, prisms, pyramids) are refused. Node tags may be sparse. Other
 *    sections ($PhysicalNames, $Entities, $Periodic, data) are skipped. MSH 2.x and binary files are
 *    refused with the command that re-exports them.
 *  - TetGen's .node and .ele [2]: "<#points> <dimension> <#attributes> <boundary markers>" then
 *    "index x y z [attributes] [marker]"; "<#tetrahedra> <nodes per tetrahedron> <region
 *    attribute>" then "index n1 n2 n3 n4 [region]"; points numbered consecutively from 0 or 1;
 *    "#" starts a comment anywhere on a line.
 *
 * Both formats are read line by line (as both programs write them), blank lines are skipped.
 *
 * [1] Gmsh reference manual, section "MSH file format" (https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format)
 *     and "Node ordering" (the reference tetrahedron).
 * [2] H. Si, "TetGen User's Manual", version 1.5, WIAS Technical Report 13 (2013), section 5.2
 *     (.node and .ele files); https://wias-berlin.de/software/tetgen/fformats.html
 */

/**
 * Reads tetrahedral meshes written by Gmsh (MSH 4.1 or 4.0 ASCII) or TetGen (.node with its .ele)
 * into a {@link TetMesh}.
 *
 * <p>Units: neither format has one; coordinates are taken as metres, as written (scale a CAD model
 * drawn in millimetres before building a body from it).
 *
 * <p>What is kept: the 4-node tetrahedra, in file order, and the nodes they use, in their order of
 * appearance in the file (a node no tetrahedron uses, such as a geometry point, is dropped: it would
 * have no mass). Orientation: a tetrahedron of negative volume has its last two nodes swapped, so
 * every element of the result has positive volume; a flat (degenerate) one is an error naming its
 * line.
 *
 * <p>Errors: every problem with a file's content is an {@link IllegalArgumentException} with a
 * one-line message {@code FILE:LINE: what was expected, what was found, the fix} (FILE as given,
 * LINE 1-based; where the file ends early, its last line); a missing file, or a mesh without
 * tetrahedra, is {@code FILE: ...}. A failure to read an existing file is an
 * {@link UncheckedIOException}.
 *
 * <p>Allocation: one pass over each file, reading it as UTF-8 (malformed bytes read as U+FFFD and
 * fail as a bad number on their line, rather than as a decoder error before the header is seen).
 * Growable node and element arrays, a node-tag hash table (primitive), one String per line and per
 * coordinate; then the result's arrays (which {@link TetMesh} copies once more). Static, stateless,
 * safe from any thread.
 */
public final class TetMeshFiles {
    /** Gmsh's element type of the 4-node tetrahedron */
    private static final int GMSH_TET4 = 4;

    private TetMeshFiles() {
    }

    /**
     * Reads a Gmsh mesh file, MSH 4.1 ASCII (or 4.0 ASCII).
     *
     * @param file the .msh file
     * @return its 4-node tetrahedra and the nodes they use (m), every tetrahedron of positive volume
     * @throws IllegalArgumentException {@code FILE:LINE: ...} for a missing or malformed file, another
     *                                  version (2.x) or binary file, second-order or non-tetrahedral
     *                                  volume elements, an unknown node tag, counts that do not match,
     *                                  a flat tetrahedron; {@code FILE: ...} for a mesh without
     *                                  tetrahedra (a surface mesh)
     * @throws UncheckedIOException     when the file exists but cannot be read
     */
    public static TetMesh readGmsh(Path file) {
        String name = file.toString();
        try (Lines in = Lines.open(file, false, "give the path of a Gmsh .msh file")) {
            if (!in.next()) {
                throw in.error("the file is empty; expected a Gmsh mesh starting with $MeshFormat");
            }
            if (!in.tokenIs(0, "$MeshFormat")) {
                throw in.error("expected $MeshFormat on the first line (a Gmsh .msh file starts with it), got \""
                        + in.text() + "\"; give the path of a Gmsh .msh file");
            }
            boolean v41 = gmshFormat(in);
            Builder mesh = new Builder();
            TagMap tags = null;
            int others = 0; // elements skipped: points, lines, surface elements
            boolean elements = false;
            while (in.next()) {
                if (in.tokenIs(0, "$Nodes")) {
                    if (tags != null) {
                        throw in.error("a second $Nodes section; a Gmsh mesh has one: remove this one or merge them");
                    }
                    tags = new TagMap();
                    gmshNodes(in, v41, tags, mesh);
                } else if (in.tokenIs(0, "$Elements")) {
                    if (tags == null) {
                        throw in.error("$Elements before $Nodes: Gmsh writes the nodes first; write the file again with Gmsh");
                    }
                    if (elements) {
                        throw in.error("a second $Elements section; a Gmsh mesh has one: remove this one or merge them");
                    }
                    elements = true;
                    others += gmshElements(in, v41, tags, mesh);
                } else if (in.text().startsWith("$")) {
                    skipSection(in);
                } else {
                    throw in.error("expected a section such as $Nodes or $Elements, got \"" + in.text()
                            + "\": text between sections; remove it");
                }
            }
            if (tags == null) {
                throw in.error("the file ends here without a $Nodes section; export the mesh, not only the geometry"
                        + " (`gmsh -3 FILE`)");
            }
            if (mesh.tetCount == 0) {
                throw new IllegalArgumentException(name + ": the mesh has no 4-node tetrahedra (Gmsh element type 4), only "
                        + others + " other elements (a surface mesh?); mesh the volume with `gmsh -3`");
            }
            return mesh.finish(in);
        }
    }

    /**
     * Reads a TetGen mesh: the given .node file and the .ele file next to it with the same base name
     * ({@code box.1.node} and {@code box.1.ele}).
     *
     * @param nodeFile the .node file
     * @return its tetrahedra and the points they use (m), every tetrahedron of positive volume
     * @throws IllegalArgumentException {@code FILE:LINE: ...} for a missing or malformed file, 10-node
     *                                  tetrahedra, a point index out of range, counts that do not
     *                                  match, a flat tetrahedron
     * @throws UncheckedIOException     when a file exists but cannot be read
     */
    public static TetMesh readTetGen(Path nodeFile) {
        Path base = nodeFile.getFileName();
        String name = base == null ? "" : base.toString();
        if (!name.endsWith(".node")) {
            throw new IllegalArgumentException(nodeFile + ": expected a TetGen .node file (its .ele is read from"
                    + " next to it), got a file named \"" + name + "\"; give the path of the .node file");
        }
        Path eleFile = nodeFile.resolveSibling(name.substring(0, name.length() - ".node".length()) + ".ele");
        Builder mesh = new Builder();
        int first;
        int points;
        try (Lines in = Lines.open(nodeFile, true, "give the path of a TetGen .node file")) {
            if (!in.next()) {
                throw in.error("the file is empty; expected the header"
                        + " \"<#points> <dimension 3> <#attributes> <boundary markers 0|1>\"");
            }
            in.expectBetween(1, 4, "#points, dimension, #attributes, boundary markers");
            int header = in.line();
            points = in.count(0, "#points");
            long dim = in.tokens() > 1 ? in.integer(1, "dimension") : 3;
            int attributes = in.tokens() > 2 ? in.count(2, "#attributes") : 0;
            int markers = in.tokens() > 3 ? in.flag(3, "boundary markers") : 0;
            if (points == 0) {
                throw in.error("the header announces 0 points; a mesh needs its points listed here (this may be the"
                        + " .node of a .poly: give the .node that tetgen wrote with its .ele)");
            }
            if (dim != 3) {
                throw in.error("dimension " + dim + ": a tetrahedral mesh has dimension 3; give a 3-D TetGen .node file");
            }
            int fields = 4 + attributes + markers;
            String what = "point index, x, y, z" + (attributes > 0 ? ", " + attributes + " attributes" : "")
                    + (markers > 0 ? ", boundary marker" : "");
            first = 0;
            for (int k = 0; k < points; k++) {
                if (!in.next()) {
                    throw in.error("the file ends here after " + k + " of the " + points + " points announced at line "
                            + header + "; the file is cut short (write it again) or the count is too large");
                }
                in.expect(fields, what);
                long index = in.integer(0, "point index");
                if (k == 0) {
                    if (index != 0 && index != 1) {
                        throw in.error("the first point's index is " + index + "; TetGen numbers points from 0 or 1:"
                                + " renumber them");
                    }
                    first = (int) index;
                } else if (index != first + k) {
                    throw in.error("expected point index " + (first + k) + " (points are numbered consecutively from "
                            + first + "), got " + index + "; renumber the points");
                }
                mesh.addNode(in.real(1, "x"), in.real(2, "y"), in.real(3, "z"));
            }
            if (in.next()) {
                throw in.error("expected the end of the file after the " + points + " points announced at line " + header
                        + ", got \"" + in.text() + "\": the header announces fewer points than the file lists; fix the count");
            }
        }
        try (Lines in = Lines.open(eleFile, true, "TetGen writes the tetrahedra of " + nodeFile + " there: give the"
                + " .node that tetgen wrote with its .ele (box.1.node for box.1.ele, not the input box.node)")) {
            if (!in.next()) {
                throw in.error("the file is empty; expected the header"
                        + " \"<#tetrahedra> <nodes per tetrahedron 4> <region attribute 0|1>\"");
            }
            in.expectBetween(1, 3, "#tetrahedra, nodes per tetrahedron, region attribute");
            int header = in.line();
            int tets = in.count(0, "#tetrahedra");
            long perTet = in.tokens() > 1 ? in.integer(1, "nodes per tetrahedron") : 4;
            int region = in.tokens() > 2 ? in.flag(2, "region attribute") : 0;
            if (perTet == 10) {
                throw in.error("10 nodes per tetrahedron (second order, `tetgen -o2`): only 4-node tetrahedra are"
                        + " supported; run tetgen without -o2");
            }
            if (perTet != 4) {
                throw in.error("expected 4 (or 10) nodes per tetrahedron, got " + perTet + "; give a TetGen .ele file");
            }
            if (tets == 0) {
                throw new IllegalArgumentException(eleFile + ": the mesh has no 4-node tetrahedra (the header at line "
                        + header + " announces 0); mesh the volume with `tetgen -p`");
            }
            String what = "tetrahedron index and its 4 points" + (region > 0 ? ", region attribute" : "");
            for (int k = 0; k < tets; k++) {
                if (!in.next()) {
                    throw in.error("the file ends here after " + k + " of the " + tets + " tetrahedra announced at line "
                            + header + "; the file is cut short (write it again) or the count is too large");
                }
                in.expect(5 + region, what);
                in.integer(0, "tetrahedron index");
                int a = point(in, 1, first, points, nodeFile);
                int b = point(in, 2, first, points, nodeFile);
                int c = point(in, 3, first, points, nodeFile);
                int d = point(in, 4, first, points, nodeFile);
                mesh.addTet(a, b, c, d, in.line());
            }
            if (in.next()) {
                throw in.error("expected the end of the file after the " + tets + " tetrahedra announced at line "
                        + header + ", got \"" + in.text() + "\": the header announces fewer tetrahedra than the file lists;"
                        + " fix the count");
            }
            return mesh.finish(in);
        }
    }

    private static int point(Lines in, int i, int first, int points, Path nodeFile) {
        long p = in.integer(i, "point index");
        if (p < first || p >= (long) first + points) {
            throw in.error("the tetrahedron names point " + p + ", but " + nodeFile + " has points " + first + ".."
                    + (first + points - 1) + "; fix the index or give the matching .node file");
        }
        return (int) (p - first);
    }

    // ---------------------------------------------------------------- Gmsh sections

    /** reads the $MeshFormat section after its first line; @return true for 4.1, false for 4.0 */
    private static boolean gmshFormat(Lines in) {
        if (!in.next()) {
            throw in.error("the file ends here; expected the format line \"4.1 0 8\" (version, file type, data size)");
        }
        in.expect(3, "version, file type, data size");
        String version = in.token(0);
        boolean binary = !in.tokenIs(1, "0");
        boolean v41 = version.equals("4.1");
        if (!(v41 || version.equals("4") || version.equals("4.0")) || binary) {
            String found = "MSH " + version + (binary ? " binary" : " ASCII");
            throw in.error(found + " found; this reader takes MSH 4.1 ASCII (or 4.0): re-export it with `gmsh "
                    + in.name + " -save -format msh41 -o OUT.msh` (ASCII: without -bin)");
        }
        if (!in.next() || !in.tokenIs(0, "$EndMeshFormat")) {
            throw in.error("expected $EndMeshFormat after the format line; write the file again with Gmsh");
        }
        return v41;
    }

    /** reads the $Nodes section after its first line: every node, its tag into tags */
    private static void gmshNodes(Lines in, boolean v41, TagMap tags, Builder mesh) {
        int section = in.line();
        gmshData(in, v41 ? 4 : 2, v41 ? "entity block count, node count, min node tag, max node tag"
                : "entity block count, node count", section);
        int counts = in.line();
        int blocks = in.count(0, "entity block count");
        long announced = in.integer(1, "node count");
        long listed = 0;
        String blockWhat = v41 ? "entity dim, entity tag, parametric, node count"
                : "entity tag, entity dim, parametric, node count";
        for (int b = 0; b < blocks; b++) {
            gmshData(in, 4, blockWhat, counts);
            int block = in.line();
            long dim = in.integer(v41 ? 0 : 1, "entity dim");
            if (dim < 0 || dim > 3) {
                throw in.error("entity dim " + dim + ": Gmsh's entities have dimension 0 to 3; write the file again with Gmsh");
            }
            int extra = in.flag(2, "parametric") == 1 ? (int) dim : 0;
            int n = in.count(3, "node count");
            int firstIndex = mesh.nodeCount;
            if (v41) {
                for (int k = 0; k < n; k++) {
                    gmshData(in, 1, "a node tag", block);
                    addTag(in, tags, firstIndex + k);
                }
                for (int k = 0; k < n; k++) {
                    gmshData(in, 3 + extra, extra == 0 ? "x, y, z" : "x, y, z and parametric coordinates", block);
                    mesh.addNode(in.real(0, "x"), in.real(1, "y"), in.real(2, "z"));
                }
            } else {
                for (int k = 0; k < n; k++) {
                    gmshData(in, 4 + extra, extra == 0 ? "node tag, x, y, z" : "node tag, x, y, z, parametric coordinates",
                            block);
                    addTag(in, tags, firstIndex + k);
                    mesh.addNode(in.real(1, "x"), in.real(2, "y"), in.real(3, "z"));
                }
            }
            listed += n;
        }
        sectionEnd(in, "$EndNodes", counts, "node", announced, listed);
    }

    private static void addTag(Lines in, TagMap tags, int index) {
        long tag = in.integer(0, "node tag");
        if (tag <= 0) {
            throw in.error("node tag " + tag + ": Gmsh's node tags are positive; renumber the nodes");
        }
        if (!tags.put(tag, index)) {
            throw in.error("node tag " + tag + " is listed twice; node tags are unique in a mesh: renumber the nodes");
        }
    }

    /** reads the $Elements section after its first line; @return how many elements were skipped */
    private static int gmshElements(Lines in, boolean v41, TagMap tags, Builder mesh) {
        int section = in.line();
        gmshData(in, v41 ? 4 : 2, v41 ? "entity block count, element count, min element tag, max element tag"
                : "entity block count, element count", section);
        int counts = in.line();
        int blocks = in.count(0, "entity block count");
        long announced = in.integer(1, "element count");
        long listed = 0;
        int skipped = 0;
        String blockWhat = v41 ? "entity dim, entity tag, element type, element count"
                : "entity tag, entity dim, element type, element count";
        for (int b = 0; b < blocks; b++) {
            gmshData(in, 4, blockWhat, counts);
            int block = in.line();
            long dim = in.integer(v41 ? 0 : 1, "entity dim");
            long type = in.integer(2, "element type");
            int n = in.count(3, "element count");
            if (type == GMSH_TET4) {
                for (int k = 0; k < n; k++) {
                    gmshData(in, 5, "element tag and its 4 node tags", block);
                    int a = node(in, 1, tags);
                    int c1 = node(in, 2, tags);
                    int c2 = node(in, 3, tags);
                    int c3 = node(in, 4, tags);
                    mesh.addTet(a, c1, c2, c3, in.line());
                }
            } else if (dim == 3 || type == 11) {
                throw in.error(volumeElement(type) + ": only 4-node tetrahedra (Gmsh element type 4) are supported; "
                        + (type == 11 ? "mesh with first-order elements: `gmsh -3 -order 1`"
                        : "mesh the volume with tetrahedra only (no recombination): `gmsh -3 -order 1`"));
            } else {
                for (int k = 0; k < n; k++) {
                    gmshData(in, -1, "an element", block);
                }
                skipped += n;
            }
            listed += n;
        }
        sectionEnd(in, "$EndElements", counts, "element", announced, listed);
        return skipped;
    }

    private static String volumeElement(long type) {
        String what = type == 5 ? "8-node hexahedra" : type == 6 ? "6-node prisms" : type == 7 ? "5-node pyramids"
                : type == 11 ? "10-node second-order tetrahedra" : "volume elements";
        return "element type " + type + " (" + what + ")";
    }

    private static int node(Lines in, int i, TagMap tags) {
        long tag = in.integer(i, "node tag");
        int index = tags.get(tag);
        if (index < 0) {
            throw in.error("the element names node tag " + tag + ", which $Nodes does not list; fix the tag or add the node");
        }
        return index;
    }

    /**
     * Reads the next data line of a section, which must have n fields (any, for n < 0).
     *
     * @param announced the line whose counts call for this line
     */
    private static void gmshData(Lines in, int n, String what, int announced) {
        if (!in.next()) {
            throw in.error("the file ends here, but " + what + " was still expected (the counts at line " + announced
                    + " announce more); the file is cut short: write it again");
        }
        if (in.text().startsWith("$")) {
            throw in.error("expected " + what + ", got \"" + in.text() + "\": the section ends before the counts at line "
                    + announced + " are reached; fix those counts or write the file again");
        }
        if (n >= 0) {
            in.expect(n, what);
        }
    }

    private static void sectionEnd(Lines in, String end, int counts, String kind, long announced, long listed) {
        if (!in.next()) {
            throw in.error("the file ends here; expected " + end + " (the file is cut short: write it again)");
        }
        if (!in.tokenIs(0, end)) {
            throw in.error("expected " + end + " after the blocks announced at line " + counts + ", got \"" + in.text()
                    + "\": the section lists more than its counts say; fix the counts at line " + counts);
        }
        if (listed != announced) {
            throw in.error("the counts at line " + counts + " announce " + announced + " " + kind + "s, the blocks list "
                    + listed + "; fix the " + kind + " count");
        }
    }

    /** skips a section Tandem does not need, up to its $End line */
    private static void skipSection(Lines in) {
        String start = in.token(0);
        String end = "$End" + start.substring(1);
        int line = in.line();
        while (in.next()) {
            if (in.tokenIs(0, end)) {
                return;
            }
        }
        throw in.error("the file ends here inside the " + start + " section of line " + line + "; expected " + end
                + " (the file is cut short: write it again)");
    }

    // ---------------------------------------------------------------- shared

    /** the nodes and tetrahedra read so far, growing; then the checked mesh */
    private static final class Builder {
        double[] nodes = new double[3 * 256];
        int nodeCount;
        int[] tets = new int[4 * 256];
        int[] tetLines = new int[256];
        int tetCount;

        void addNode(double x, double y, double z) {
            if (3 * nodeCount == nodes.length) {
                nodes = Arrays.copyOf(nodes, 2 * nodes.length);
            }
            nodes[3 * nodeCount] = x;
            nodes[3 * nodeCount + 1] = y;
            nodes[3 * nodeCount + 2] = z;
            nodeCount++;
        }

        void addTet(int a, int b, int c, int d, int line) {
            if (tetCount == tetLines.length) {
                tets = Arrays.copyOf(tets, 2 * tets.length);
                tetLines = Arrays.copyOf(tetLines, 2 * tetLines.length);
            }
            tets[4 * tetCount] = a;
            tets[4 * tetCount + 1] = b;
            tets[4 * tetCount + 2] = c;
            tets[4 * tetCount + 3] = d;
            tetLines[tetCount] = line;
            tetCount++;
        }

        /** drops unused nodes, orients every tetrahedron positively; errors name a line of elementFile */
        TetMesh finish(Lines elementFile) {
            int[] index = new int[nodeCount];
            for (int i = 0; i < 4 * tetCount; i++) {
                index[tets[i]] = 1;
            }
            int kept = 0;
            for (int i = 0; i < nodeCount; i++) {
                index[i] = index[i] == 1 ? kept++ : -1;
            }
            double[] x = new double[3 * kept];
            for (int i = 0; i < nodeCount; i++) {
                if (index[i] >= 0) {
                    System.arraycopy(nodes, 3 * i, x, 3 * index[i], 3);
                }
            }
            int[] t = new int[4 * tetCount];
            for (int i = 0; i < t.length; i++) {
                t[i] = index[tets[i]];
            }
            for (int e = 0; e < tetCount; e++) {
                double det = TetMesh.det(x, t, e);
                double edge = TetMesh.longestEdge(x, t, e);
                if (!(Math.abs(det) > TetMesh.DEGENERATE * edge * edge * edge)) {
                    throw elementFile.errorAt(tetLines[e], "this tetrahedron is flat (degenerate): its volume " + det / 6
                            + " m^3 is about zero for its size " + edge + " m; remove it or move its nodes apart");
                }
                if (det < 0) { // inverted as written: swap its last two nodes
                    int s = t[4 * e + 2];
                    t[4 * e + 2] = t[4 * e + 3];
                    t[4 * e + 3] = s;
                }
            }
            return new TetMesh(x, t);
        }
    }

    /** node tag to dense index: open addressing with linear probing over positive long keys */
    private static final class TagMap {
        private long[] keys = new long[1024];
        private int[] values = new int[1024];
        private int size;

        boolean put(long key, int value) {
            if (2 * (size + 1) > keys.length) {
                grow();
            }
            int mask = keys.length - 1;
            for (int i = slot(key, mask); ; i = (i + 1) & mask) {
                if (keys[i] == 0) {
                    keys[i] = key;
                    values[i] = value;
                    size++;
                    return true;
                }
                if (keys[i] == key) {
                    return false;
                }
            }
        }

        /** @return the index of key, or -1 */
        int get(long key) {
            if (key <= 0) {
                return -1;
            }
            int mask = keys.length - 1;
            for (int i = slot(key, mask); ; i = (i + 1) & mask) {
                if (keys[i] == key) {
                    return values[i];
                }
                if (keys[i] == 0) {
                    return -1;
                }
            }
        }

        private void grow() {
            long[] oldKeys = keys;
            int[] oldValues = values;
            keys = new long[2 * oldKeys.length];
            values = new int[2 * oldValues.length];
            size = 0;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldKeys[i] != 0) {
                    put(oldKeys[i], oldValues[i]);
                }
            }
        }

        private static int slot(long key, int mask) {
            long h = key * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 32)) & mask;
        }
    }

    /** a text file read line by line, each line split into whitespace-separated tokens, errors at the line */
    private static final class Lines implements Closeable {
        final String name;
        private final BufferedReader reader;
        private final boolean hashComments;
        private String text = "";
        private int line;
        private int count;
        private int[] from = new int[16];
        private int[] to = new int[16];

        private Lines(String name, BufferedReader reader, boolean hashComments) {
            this.name = name;
            this.reader = reader;
            this.hashComments = hashComments;
        }

        /**
         * @param hashComments whether "#" starts a comment
         * @param missingFix   what to do when the file does not exist
         */
        static Lines open(Path file, boolean hashComments, String missingFix) {
            try {
                // REPLACE, not Files.newBufferedReader's REPORT: a binary file's header must still be read
                return new Lines(file.toString(), new BufferedReader(new InputStreamReader(Files.newInputStream(file),
                        StandardCharsets.UTF_8), 1 << 16), hashComments);
            } catch (NoSuchFileException e) {
                throw new IllegalArgumentException(file + ": no such file; " + missingFix);
            } catch (IOException e) {
                throw new UncheckedIOException(file + ": cannot open the file: " + e.getMessage(), e);
            }
        }

        /** moves to the next line with a token (blank and comment lines skipped); @return false at the end */
        boolean next() {
            while (true) {
                String s;
                try {
                    s = reader.readLine();
                } catch (IOException e) {
                    throw new UncheckedIOException(name + ":" + (line + 1) + ": cannot read the file: " + e.getMessage(), e);
                }
                if (s == null) {
                    count = 0;
                    return false;
                }
                line++;
                text = s;
                tokenize();
                if (count > 0) {
                    return true;
                }
            }
        }

        private void tokenize() {
            int end = text.length();
            if (hashComments) {
                int hash = text.indexOf('#');
                if (hash >= 0) {
                    end = hash;
                }
            }
            count = 0;
            int i = 0;
            while (true) {
                while (i < end && text.charAt(i) <= ' ') {
                    i++;
                }
                if (i == end) {
                    return;
                }
                if (count == from.length) {
                    from = Arrays.copyOf(from, 2 * count);
                    to = Arrays.copyOf(to, 2 * count);
                }
                from[count] = i;
                while (i < end && text.charAt(i) > ' ') {
                    i++;
                }
                to[count++] = i;
            }
        }

        /** @return the current line's 1-based number (the last line's, at the end of the file) */
        int line() {
            return Math.max(1, line);
        }

        /** @return the current line without surrounding blanks */
        String text() {
            return text.strip();
        }

        /** @return how many tokens the current line has */
        int tokens() {
            return count;
        }

        String token(int i) {
            return text.substring(from[i], to[i]);
        }

        boolean tokenIs(int i, String s) {
            return i < count && to[i] - from[i] == s.length() && text.startsWith(s, from[i]);
        }

        void expect(int n, String what) {
            if (count != n) {
                throw error("expected " + n + (n == 1 ? " number (" : " numbers (") + what + "), got \"" + text() + "\"");
            }
        }

        void expectBetween(int min, int max, String what) {
            if (count < min || count > max) {
                throw error("expected " + min + " to " + max + " numbers (" + what + "), got \"" + text() + "\"");
            }
        }

        long integer(int i, String what) {
            try {
                return Long.parseLong(text, from[i], to[i], 10);
            } catch (NumberFormatException e) {
                throw error("expected an integer (" + what + "), got \"" + token(i) + "\"; fix the number");
            }
        }

        /** @return a count in 0..Integer.MAX_VALUE */
        int count(int i, String what) {
            long n = integer(i, what);
            if (n < 0 || n > Integer.MAX_VALUE) {
                throw error("expected a count from 0 to " + Integer.MAX_VALUE + " (" + what + "), got " + n
                        + "; fix the number");
            }
            return (int) n;
        }

        /** @return 0 or 1 */
        int flag(int i, String what) {
            long n = integer(i, what);
            if (n != 0 && n != 1) {
                throw error("expected 0 or 1 (" + what + "), got " + n + "; fix the number");
            }
            return (int) n;
        }

        double real(int i, String what) {
            String s = token(i);
            double v;
            try {
                v = Double.parseDouble(s);
            } catch (NumberFormatException e) {
                throw error("expected a number (" + what + "), got \"" + s + "\"; fix the number");
            }
            if (!Double.isFinite(v)) {
                throw error("expected a finite number (" + what + "), got \"" + s + "\"; fix the number");
            }
            return v;
        }

        IllegalArgumentException error(String message) {
            return errorAt(line(), message);
        }

        IllegalArgumentException errorAt(int at, String message) {
            return new IllegalArgumentException(name + ":" + at + ": " + message);
        }

        @Override
        public void close() {
            try {
                reader.close();
            } catch (IOException e) {
                throw new UncheckedIOException(name + ": cannot close the file: " + e.getMessage(), e);
            }
        }
    }
}
