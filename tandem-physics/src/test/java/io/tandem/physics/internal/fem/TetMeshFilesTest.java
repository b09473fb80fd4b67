package io.tandem.physics.internal.fem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Gmsh and TetGen meshes read into {@link TetMesh}: a unit cube written by hand as the programs
 * write it, meshed boxes written and read back, and each kind of bad file named at its line.
 * Cube corners are numbered v = x + 2y + 4z; the six tetrahedra are BoxMesher's Kuhn split.
 */
class TetMeshFilesTest {
    /**
     * The unit cube as Gmsh 4.1 writes it: entities (skipped), sparse node tags 1 2 5 6 10 11 12 20
     * for corners 0..7 in blocks on a point, an empty curve, a surface and the volume (parametric),
     * points, lines and triangles to skip, and the tetrahedron {0,2,7,3} written inverted.
     */
    private static final String CUBE_MSH = """
            $MeshFormat
            4.1 0 8
            $EndMeshFormat
            $PhysicalNames
            1
            3 1 "cube"
            $EndPhysicalNames
            $Entities
            2 1 1 1
            1 0 0 0 0
            2 1 0 0 0
            1 0 0 0 1 0 0 0 2 1 -2
            1 0 0 0 1 1 0 0 1 -1
            1 0 0 0 1 1 1 1 1 1 -1
            $EndEntities
            $Nodes
            5 8 1 20
            0 1 0 1
            1
            0 0 0
            0 2 0 1
            2
            1 0 0
            1 1 1 0
            2 1 0 2
            5
            6
            0 1 0
            1 1 0
            3 1 1 4
            10
            11
            12
            20
            0 0 1 0 0 1
            1 0 1 1 0 1
            0 1 1 0 1 1
            1 1 1 1 1 1
            $EndNodes
            $Elements
            4 10 1 10
            0 1 15 1
            1 1
            1 1 1 1
            2 1 2
            2 1 2 2
            3 1 2 5
            4 2 6 5
            3 1 4 6
            5 1 2 6 20
            6 1 2 20 11
            7 1 5 6 20
            8 1 5 12 20
            9 1 10 11 20
            10 1 10 20 12
            $EndElements
            """;

    /** the same cube in MSH 4.0 (entity tag before dim, "tag x y z" lines), with a geometry point no tet uses */
    private static final String CUBE_MSH40 = """
            $MeshFormat
            4 0 8
            $EndMeshFormat
            $Nodes
            3 9
            9 0 0 1
            30 5 5 5
            1 2 0 4
            1 0 0 0
            2 1 0 0
            5 0 1 0
            6 1 1 0
            1 3 0 4
            10 0 0 1
            11 1 0 1
            12 0 1 1
            20 1 1 1
            $EndNodes
            $Elements
            2 7
            1 2 2 1
            1 1 2 5
            1 3 4 6
            2 1 2 6 20
            3 1 2 20 11
            4 1 5 6 20
            5 1 5 12 20
            6 1 10 11 20
            7 1 10 20 12
            $EndElements
            """;

    private static final double[][] CORNERS = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1},
        {0, 1, 1}, {1, 1, 1}};
    /** the Kuhn split, the third tetrahedron inverted as written */
    private static final int[][] CUBE_TETS = {{0, 1, 3, 7}, {0, 1, 7, 5}, {0, 2, 3, 7}, {0, 2, 6, 7}, {0, 4, 5, 7},
        {0, 4, 7, 6}};

    @TempDir
    Path dir;

    @Test
    void readGmsh_handWrittenCube_eightNodesSixTetsVolumeOne() throws IOException {
        TetMesh m = TetMeshFiles.readGmsh(write("cube.msh", CUBE_MSH));
        assertUnitCube(m);
    }

    @Test
    void readGmsh_msh40WithAnUnusedNode_theCubeWithoutIt() throws IOException {
        TetMesh m = TetMeshFiles.readGmsh(write("cube40.msh", CUBE_MSH40));
        assertUnitCube(m);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void readTetGen_cubeWithComments_eightNodesSixTetsVolumeOne(int base) throws IOException {
        StringBuilder node = new StringBuilder("# cube.node: the unit cube's corners\n8 3 1 1  # points, dim, attributes, markers\n\n");
        for (int v = 0; v < 8; v++) {
            node.append(base + v).append("  ").append(CORNERS[v][0]).append(' ').append(CORNERS[v][1]).append(' ')
                    .append(CORNERS[v][2]).append("  0.5  1").append(v == 3 ? "   # a corner\n" : "\n");
        }
        StringBuilder ele = new StringBuilder("6 4 1 # tetrahedra, nodes per tet, region\n");
        for (int e = 0; e < 6; e++) {
            ele.append(base + e);
            for (int c : CUBE_TETS[e]) {
                ele.append(' ').append(base + c);
            }
            ele.append(" 7\n").append(e == 2 ? "# written inverted\n\n" : "");
        }
        Path nodeFile = write("cube.1.node", node.toString());
        write("cube.1.ele", ele.toString());
        assertUnitCube(TetMeshFiles.readTetGen(nodeFile));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void readGmsh_boxMesherWritten_sameMesh(boolean six) throws IOException {
        TetMesh box = BoxMesher.box(2.0, 1.0, 0.3, 3, 2, 2, six);
        Path file = dir.resolve("box.msh");
        Files.writeString(file, msh41(box));
        assertSameMesh(TetMeshFiles.readGmsh(file), box);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void readTetGen_boxMesherWritten_sameMesh(int base) throws IOException {
        TetMesh box = BoxMesher.box(0.7, 1.1, 0.5, 2, 3, 2, base == 0);
        Path nodeFile = tetGen(box, base, "box.1");
        assertSameMesh(TetMeshFiles.readTetGen(nodeFile), box);
    }

    // ---------------------------------------------------------------- bad files

    @Test
    void readGmsh_truncatedNodes_namesTheLastLine() throws IOException {
        String cut = firstLines(CUBE_MSH, lineOf(CUBE_MSH, "0 0 1 0 0 1"));
        Path file = write("cut.msh", cut);
        assertThatThrownBy(() -> TetMeshFiles.readGmsh(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(file + ":" + lineOf(CUBE_MSH, "0 0 1 0 0 1") + ": the file ends here")
                .hasMessageContaining("x, y, z")
                .hasMessageContaining("cut short");
    }

    @Test
    void readGmsh_blockAnnouncesMoreNodes_namesEndNodesAndTheCount() throws IOException {
        String text = CUBE_MSH40.replace("\n1 3 0 4\n", "\n1 3 0 5\n");
        Path file = write("more.msh", text);
        assertThatThrownBy(() -> TetMeshFiles.readGmsh(file))
                .hasMessageStartingWith(file + ":" + lineOf(text, "$EndNodes") + ": expected node tag, x, y, z, got \"$EndNodes\"")
                .hasMessageContaining("counts at line " + lineOf(text, "1 3 0 5"));
    }

    @Test
    void readGmsh_shortBlockHeader_saysWhatWasExpected() throws IOException {
        String text = CUBE_MSH.replace("\n2 1 0 2\n", "\n1 2\n");
        Path file = write("beam.msh", text);
        assertThatThrownBy(() -> TetMeshFiles.readGmsh(file))
                .hasMessage(file + ":" + lineOf(text, "1 2")
                        + ": expected 4 numbers (entity dim, entity tag, parametric, node count), got \"1 2\"");
    }

    @Test
    void readGmsh_nonNumber_namesLineAndToken() throws IOException {
        String text = CUBE_MSH.replace("\n1 1 0\n", "\n1 1 O\n");
        Path file = write("typo.msh", text);
        assertThatThrownBy(() -> TetMeshFiles.readGmsh(file))
                .hasMessageStartingWith(file + ":" + lineOf(text, "1 1 O") + ": expected a number (z), got \"O\"");
    }

    @Test
    void readGmsh_unknownNodeTag_namesLineAndTag() throws IOException {
        String text = CUBE_MSH.replace("\n9 1 10 11 20\n", "\n9 1 10 99 20\n");
        Path file = write("tag.msh", text);
        assertThatThrownBy(() -> TetMeshFiles.readGmsh(file))
                .hasMessageStartingWith(file + ":" + lineOf(text, "9 1 10 99 20") + ": ")
                .hasMessageContaining("node tag 99")
                .hasMessageContaining("$Nodes does not list");
    }

    @Test
    void readGmsh_msh22Header_namesTheVersionAndTheFix() throws IOException {
        Path file = write("old.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 0\n$EndNodes\n");
        assertThatThrownBy(() -> TetMeshFiles.readGmsh(file))
                .hasMessageStartingWith(file + ":2: MSH 2.2 ASCII found")
                .hasMessageContaining("-save -format msh41");
    }

    @Test
    void readGmsh_binaryHeader_namesBinaryAndTheFix() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes("$MeshFormat\n4.1 1 8\n".getBytes(StandardCharsets.US_ASCII));
        bytes.writeBytes(new byte[] {1, 0, 0, 0});
        bytes.writeBytes("\n$EndMeshFormat\n$Nodes\n".getBytes(StandardCharsets.US_ASCII));
        bytes.writeBytes(new byte[] {(byte) 0xff, (byte) 0xfe, (byte) 0x80, 0, 0, 0x3f, (byte) 0xf0});
        Path file = dir.resolve("bin.msh");
        Files.write(file, bytes.toByteArray());
        assertThatThrownBy(() -> TetMeshFiles.readGmsh(file))
                .hasMessageStartingWith(file + ":2: MSH 4.1 binary found")
                .hasMessageContaining("-format msh41")
                .hasMessageContaining("without -bin");
    }

    @Test
    void readGmsh_secondOrderTets_refusedWithTheFix() throws IOException {
        String text = CUBE_MSH.replace("3 1 4 6", "3 1 11 6");
        Path file = write("p2.msh", text);
        assertThatThrownBy(() -> TetMeshFiles.readGmsh(file))
                .hasMessageStartingWith(file + ":" + lineOf(text, "3 1 11 6") + ": element type 11 (10-node second-order")
                .hasMessageContaining("-order 1");
    }

    @Test
    void readGmsh_surfaceOnly_noTetrahedra() throws IOException {
        String text = firstLines(CUBE_MSH, lineOf(CUBE_MSH, "4 2 6 5")).replace("4 10 1 10", "3 4 1 4") + "$EndElements\n";
        Path file = write("skin.msh", text);
        assertThatThrownBy(() -> TetMeshFiles.readGmsh(file))
                .hasMessage(file + ": the mesh has no 4-node tetrahedra (Gmsh element type 4), only 4 other elements"
                        + " (a surface mesh?); mesh the volume with `gmsh -3`");
    }

    @Test
    void readGmsh_flatTetrahedron_namesItsLine() throws IOException {
        String text = CUBE_MSH.replace("\n10 1 10 20 12\n", "\n10 1 10 20 20\n");
        Path file = write("flat.msh", text);
        assertThatThrownBy(() -> TetMeshFiles.readGmsh(file))
                .hasMessageStartingWith(file + ":" + lineOf(text, "10 1 10 20 20") + ": this tetrahedron is flat");
    }

    @Test
    void readGmsh_missingFile_namesIt() {
        Path file = dir.resolve("nowhere.msh");
        assertThatThrownBy(() -> TetMeshFiles.readGmsh(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(file + ": no such file");
    }

    @Test
    void readTetGen_missingEle_namesTheEleFile() throws IOException {
        Path nodeFile = tetGen(BoxMesher.box(1, 1, 1, 1, 1, 1, true), 1, "lone");
        Files.delete(dir.resolve("lone.ele"));
        assertThatThrownBy(() -> TetMeshFiles.readTetGen(nodeFile))
                .hasMessageStartingWith(dir.resolve("lone.ele") + ": no such file")
                .hasMessageContaining("box.1.node");
    }

    @Test
    void readTetGen_tenNodeTets_refusedWithTheFix() throws IOException {
        Path nodeFile = tetGen(BoxMesher.box(1, 1, 1, 1, 1, 1, true), 0, "p2");
        Path ele = write("p2.ele", "# second order\n1 10 0\n0 0 1 3 7 8 9 10 11 12 13\n");
        assertThatThrownBy(() -> TetMeshFiles.readTetGen(nodeFile))
                .hasMessageStartingWith(ele + ":2: 10 nodes per tetrahedron")
                .hasMessageContaining("without -o2");
    }

    @Test
    void readTetGen_pointOutOfRange_namesLineAndPoint() throws IOException {
        Path nodeFile = tetGen(BoxMesher.box(1, 1, 1, 1, 1, 1, true), 1, "range");
        Path ele = write("range.ele", "2 4 0\n1 1 2 4 8\n2 1 2 8 9\n");
        assertThatThrownBy(() -> TetMeshFiles.readTetGen(nodeFile))
                .hasMessageStartingWith(ele + ":3: the tetrahedron names point 9, but " + nodeFile + " has points 1..8");
    }

    @Test
    void readTetGen_truncatedNodeFile_namesTheLastLine() throws IOException {
        Path nodeFile = tetGen(BoxMesher.box(1, 1, 1, 1, 1, 1, true), 0, "cut");
        String text = Files.readString(nodeFile);
        Files.writeString(nodeFile, firstLines(text, 8));
        assertThatThrownBy(() -> TetMeshFiles.readTetGen(nodeFile))
                .hasMessageStartingWith(nodeFile + ":8: the file ends here after 7 of the 8 points announced at line 1");
    }

    @Test
    void readTetGen_notANodeFile_saysWhatItNeeds() throws IOException {
        Path ele = write("mesh.ele", "1 4 0\n0 0 1 2 3\n");
        assertThatThrownBy(() -> TetMeshFiles.readTetGen(ele))
                .hasMessageStartingWith(ele + ": expected a TetGen .node file");
    }

    // ---------------------------------------------------------------- helpers

    private static void assertUnitCube(TetMesh m) {
        assertThat(m.nodeCount()).isEqualTo(8);
        assertThat(m.tetCount()).isEqualTo(6);
        for (int v = 0; v < 8; v++) {
            for (int i = 0; i < 3; i++) {
                assertThat(m.nodes()[3 * v + i]).as("corner %d", v).isEqualTo(CORNERS[v][i]);
            }
        }
        double total = 0;
        for (int e = 0; e < 6; e++) {
            assertThat(m.volume(e)).isCloseTo(1.0 / 6, within(1e-15));
            total += m.volume(e);
        }
        assertThat(total).isCloseTo(1.0, within(1e-14));
        assertThat(m.tets()).startsWith(0, 1, 3, 7, 0, 1, 7, 5, 0, 2, 7, 3); // the inverted one: last two swapped
    }

    private static void assertSameMesh(TetMesh read, TetMesh written) {
        assertThat(read.nodes()).containsExactly(written.nodes());
        assertThat(read.tets()).containsExactly(written.tets());
        for (int e = 0; e < written.tetCount(); e++) {
            assertThat(read.volume(e)).isEqualTo(written.volume(e));
        }
    }

    /** MSH 4.1 as Gmsh writes it: the nodes in the volume's block with sparse tags 7, 10, 13, ..., then the tets */
    private static String msh41(TetMesh m) {
        int n = m.nodeCount();
        StringBuilder s = new StringBuilder("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n");
        s.append("1 ").append(n).append(" 7 ").append(tag(n - 1)).append("\n3 1 0 ").append(n).append('\n');
        for (int i = 0; i < n; i++) {
            s.append(tag(i)).append('\n');
        }
        double[] x = m.nodes();
        for (int i = 0; i < n; i++) {
            s.append(x[3 * i]).append(' ').append(x[3 * i + 1]).append(' ').append(x[3 * i + 2]).append('\n');
        }
        int tets = m.tetCount();
        s.append("$EndNodes\n$Elements\n1 ").append(tets).append(" 1 ").append(tets).append("\n3 1 4 ").append(tets)
                .append('\n');
        int[] t = m.tets();
        for (int e = 0; e < tets; e++) {
            s.append(e + 1);
            for (int c = 0; c < 4; c++) {
                s.append(' ').append(tag(t[4 * e + c]));
            }
            s.append(" \n"); // Gmsh ends element lines with a blank
        }
        return s.append("$EndElements\n").toString();
    }

    private static int tag(int node) {
        return 7 + 3 * node;
    }

    /** writes NAME.node and NAME.ele numbered from base; @return the .node file */
    private Path tetGen(TetMesh m, int base, String name) throws IOException {
        StringBuilder node = new StringBuilder().append(m.nodeCount()).append(" 3 0 0\n");
        double[] x = m.nodes();
        for (int i = 0; i < m.nodeCount(); i++) {
            node.append(base + i).append(' ').append(x[3 * i]).append(' ').append(x[3 * i + 1]).append(' ')
                    .append(x[3 * i + 2]).append('\n');
        }
        StringBuilder ele = new StringBuilder().append(m.tetCount()).append(" 4 0\n");
        int[] t = m.tets();
        for (int e = 0; e < m.tetCount(); e++) {
            ele.append(base + e);
            for (int c = 0; c < 4; c++) {
                ele.append("  ").append(base + t[4 * e + c]);
            }
            ele.append('\n');
        }
        write(name + ".ele", ele.toString());
        return write(name + ".node", node.toString());
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    /** @return the 1-based number of the first line that is exactly line */
    private static int lineOf(String text, String line) {
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].equals(line)) {
                return i + 1;
            }
        }
        throw new AssertionError("no line \"" + line + "\" in the fixture");
    }

    private static String firstLines(String text, int n) {
        int end = 0;
        for (int i = 0; i < n; i++) {
            end = text.indexOf('\n', end) + 1;
        }
        return text.substring(0, end);
    }
}
