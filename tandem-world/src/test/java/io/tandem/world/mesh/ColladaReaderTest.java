package io.tandem.world.mesh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tandem.world.WorldFormatException;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * COLLADA: unit, up axis (ignored as Gazebo does, or rotated as the specification says), node
 * transforms in document order, primitives, instancing, and the errors at their elements' lines.
 */
class ColladaReaderTest {
    /** a row-major matrix: 90 degrees about z, then a move by (10, 20, 30) */
    static final String MATRIX = "<matrix sid=\"transform\">0 -1 0 10  1 0 0 20  0 0 1 30  0 0 0 1</matrix>";

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        return CubeFiles.write(dir.resolve(name), text);
    }

    /** Box half-extents 50, 100, 150 cm; z turned 90 degrees: x from -y, y from x; moved by 10, 20, 30 cm. */
    @Test
    void read_yUpCentimetresWithMatrixAndPolylist_appliesUnitAndMatrixAndIgnoresUpAxisAsGazebo() throws IOException {
        Path file = write("box.dae", CubeFiles.dae("0.01", "Y_UP", 50, 100, 150, true, MATRIX));

        TriangleMesh mesh = MeshFile.read(file);

        assertThat(mesh.parts()).extracting(TriangleMesh.Part::name).containsExactly("Box");
        assertThat(mesh.triangleCount()).isEqualTo(12);
        assertThat(mesh.vertexCount()).isEqualTo(8);
        assertThat(CubeFiles.bounds(mesh))
                .containsExactly(new double[] {-0.9, -0.3, -1.2, 1.1, 0.7, 1.8}, within(1e-12));
        assertThat(CubeFiles.volume(mesh)).isCloseTo(6, within(1e-12));
    }

    @Test
    void read_yUpWithRotateToZUp_turnsYIntoZ() throws IOException {
        Path file = write("box.dae", CubeFiles.dae("0.01", "Y_UP", 50, 100, 150, true, MATRIX));

        TriangleMesh mesh = MeshFile.read(file, 1, 1, 1, UpAxisHandling.ROTATE_TO_Z_UP);

        // (x, y, z) -> (x, -z, y) after the node's matrix
        assertThat(CubeFiles.bounds(mesh))
                .containsExactly(new double[] {-0.9, -1.8, -0.3, 1.1, 1.2, 0.7}, within(1e-12));
        assertThat(CubeFiles.volume(mesh)).isCloseTo(6, within(1e-12));
    }

    @Test
    void read_noUpAxisWithRotateToZUp_takesTheSpecificationsDefaultYUp() throws IOException {
        Path file = write("box.dae", CubeFiles.dae("1", null, 1, 2, 3, false, ""));

        TriangleMesh mesh = MeshFile.read(file, 1, 1, 1, UpAxisHandling.ROTATE_TO_Z_UP);

        assertThat(CubeFiles.bounds(mesh)).containsExactly(new double[] {-1, -3, -2, 1, 3, 2}, within(1e-12));
    }

    @Test
    void read_xUpWithRotateToZUp_turnsXIntoZ() throws IOException {
        Path file = write("box.dae", CubeFiles.dae("1", "X_UP", 1, 2, 3, false, ""));

        TriangleMesh mesh = MeshFile.read(file, 1, 1, 1, UpAxisHandling.ROTATE_TO_Z_UP);

        // (x, y, z) -> (-y, -z, x)
        assertThat(CubeFiles.bounds(mesh)).containsExactly(new double[] {-2, -3, -1, 2, 3, 1}, within(1e-12));
        assertThat(CubeFiles.volume(mesh)).isCloseTo(48, within(1e-12));
    }

    @Test
    void read_trianglesWithoutVisualScene_takesEachGeometryUntransformedNamedAfterIt() throws IOException {
        Path file = write("box.dae", CubeFiles.dae("1", "Z_UP", 1, 2, 3, false, null));

        TriangleMesh mesh = MeshFile.read(file, 1, 1, 1, UpAxisHandling.ROTATE_TO_Z_UP);

        assertThat(mesh.parts()).extracting(TriangleMesh.Part::name).containsExactly("box");
        assertThat(CubeFiles.bounds(mesh)).containsExactly(new double[] {-1, -2, -3, 1, 2, 3}, within(1e-12));
        assertThat(CubeFiles.volume(mesh)).isCloseTo(48, within(1e-12));
    }

    /** translate, then rotate 90 degrees about x, then scale 2 along y, applied to the box (last first). */
    @Test
    void read_translateRotateScale_composeInDocumentOrder() throws IOException {
        Path file = write("box.dae", CubeFiles.dae("1", "Z_UP", 1, 2, 3, false,
                "<translate>1 0 0</translate><rotate>1 0 0 90</rotate><scale>1 2 1</scale>"));

        TriangleMesh mesh = MeshFile.read(file);

        // scale: y in +-4; rotate about x: (x, y, z) -> (x, -z, y): y in +-3, z in +-4; translate x by 1
        assertThat(CubeFiles.bounds(mesh)).containsExactly(new double[] {0, -3, -4, 2, 3, 4}, within(1e-12));
        assertThat(CubeFiles.volume(mesh)).isCloseTo(96, within(1e-12));
    }

    @Test
    void read_mirroringNode_keepsTheTrianglesOutward() throws IOException {
        Path file = write("box.dae", CubeFiles.dae("1", "Z_UP", 1, 2, 3, false, "<scale>-1 1 1</scale>"));

        TriangleMesh mesh = MeshFile.read(file);

        assertThat(CubeFiles.volume(mesh)).isCloseTo(48, within(1e-12));
    }

    @Test
    void read_nestedNodesInstanceNodeAndPolygons_givesOnePartPerInstance() throws IOException {
        String text = "<?xml version=\"1.0\"?>\n"
                + "<COLLADA version=\"1.5.0\">\n"
                + "  <library_geometries>\n"
                + "    <geometry id=\"quad\">\n"
                + "      <mesh>\n"
                + "        <source id=\"p\"><float_array id=\"pa\" count=\"12\">0 0 0 1 0 0 1 1 0 0 1 0</float_array>\n"
                + "          <technique_common><accessor source=\"#pa\" count=\"4\" stride=\"3\"/></technique_common>\n"
                + "        </source>\n"
                + "        <vertices id=\"v\"><input semantic=\"POSITION\" source=\"#p\"/></vertices>\n"
                + "        <lines count=\"1\"><input semantic=\"VERTEX\" source=\"#v\" offset=\"0\"/>"
                + "<p>0 1</p></lines>\n"
                + "        <polygons count=\"1\"><input semantic=\"VERTEX\" source=\"#v\" offset=\"0\"/>"
                + "<p>0 1 2 3</p></polygons>\n"
                + "      </mesh>\n"
                + "    </geometry>\n"
                + "  </library_geometries>\n"
                + "  <library_nodes>\n"
                + "    <node id=\"tile\" name=\"tile\"><translate>0 0 5</translate>"
                + "<instance_geometry url=\"#quad\"/></node>\n"
                + "  </library_nodes>\n"
                + "  <library_visual_scenes>\n"
                + "    <visual_scene id=\"s\">\n"
                + "      <node name=\"floor\"><translate>10 0 0</translate>\n"
                + "        <node><instance_geometry url=\"#quad\"/></node>\n"
                + "        <node name=\"raised\"><instance_node url=\"#tile\"/></node>\n"
                + "      </node>\n"
                + "    </visual_scene>\n"
                + "  </library_visual_scenes>\n"
                + "  <scene><instance_visual_scene url=\"#s\"/></scene>\n"
                + "</COLLADA>\n";
        Path file = write("tiles.dae", text);

        TriangleMesh mesh = MeshFile.read(file);

        assertThat(mesh.parts()).extracting(TriangleMesh.Part::name).containsExactly("floor", "tile");
        assertThat(mesh.parts()).extracting(TriangleMesh.Part::triangleCount).containsExactly(2, 2);
        TriangleMesh.Part tile = mesh.parts().get(1);
        assertThat(tile.positions()).containsExactly(10, 0, 5, 11, 0, 5, 11, 1, 5, 10, 1, 5);
        assertThat(tile.triangles()).containsExactly(0, 1, 2, 0, 2, 3);
    }

    @Test
    void read_scale_comesAfterTheUnit() throws IOException {
        Path file = write("box.dae", CubeFiles.dae("0.001", "Z_UP", 1000, 2000, 3000, true, ""));

        TriangleMesh mesh = MeshFile.read(file, 2, 1, 0.5);

        assertThat(CubeFiles.bounds(mesh)).containsExactly(new double[] {-2, -2, -1.5, 2, 2, 1.5}, within(1e-12));
    }

    @Test
    void read_malformedXml_namesTheLine() throws IOException {
        String text = CubeFiles.dae("1", "Z_UP", 1, 2, 3, true, "").replace("</vertices>", "</vertex>");
        Path file = write("broken.dae", text);

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageMatching(".*broken\\.dae:24: not well-formed XML: .*; fix the XML or re-export the mesh"
                        + " \\(is the file cut short\\?\\)");
    }

    @Test
    void read_cutShortXml_isNotWellFormed() throws IOException {
        String text = CubeFiles.dae("1", "Z_UP", 1, 2, 3, true, "");
        Path file = write("cut.dae", text.substring(0, text.length() / 2));

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageMatching(".*cut\\.dae(:[0-9]+)?: not well-formed XML: .*");
    }

    @Test
    void read_documentWithoutGeometry_saysSo() throws IOException {
        Path file = write("empty.dae", "<?xml version=\"1.0\"?>\n<COLLADA version=\"1.4.1\">\n"
                + "  <asset><unit meter=\"1\"/></asset>\n  <library_visual_scenes/>\n</COLLADA>\n");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ":2: the document has no <geometry> in <library_geometries>, so no mesh; export the"
                        + " model's meshes (not only its scene, cameras or lights)");
    }

    @Test
    void read_notCollada_namesTheRoot() throws IOException {
        Path file = write("robot.dae", "<?xml version=\"1.0\"?>\n<robot name=\"r\"/>\n");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith(file + ":2: the root element is <robot>, not <COLLADA>");
    }

    @Test
    void read_indexOutOfRange_namesTheLineOfP() throws IOException {
        String text = CubeFiles.dae("1", "Z_UP", 1, 2, 3, false, "").replace("<p>0 0 4 0", "<p>0 0 8 0");
        Path file = write("far.dae", text);

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ":28: index 8 of the VERTEX input is out of range: its positions (source"
                        + " #box-positions) hold 8 vertices, indices 0 to 7; fix the index or the source");
    }

    @Test
    void read_nonNumericPosition_namesTheLineOfTheArray() throws IOException {
        String text = CubeFiles.dae("1", "Z_UP", 1, 2, 3, false, "").replace(" -1.0 -2.0 -3.0", " -1.0 -2.O -3.0");
        Path file = write("word.dae", text);

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ":11: number 2 of the <float_array> '-2.O' is not a number; write decimal numbers"
                        + " such as 0.25 or -1.5e-3");
    }

    @Test
    void read_infinitePosition_namesTheLineOfTheArray() throws IOException {
        String text = CubeFiles.dae("1", "Z_UP", 1, 2, 3, false, "").replace(" -1.0 -2.0 -3.0", " -1.0 -2.0 -INF");
        Path file = write("inf.dae", text);

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith(file + ":11: number 3 of the <float_array> is '-INF', not a finite number");
    }

    @Test
    void read_countDisagreeingWithTheNumbers_saysTheListIsCutShort() throws IOException {
        String text = CubeFiles.dae("1", "Z_UP", 1, 2, 3, false, "").replace("count=\"24\"", "count=\"25\"");
        Path file = write("count.dae", text);

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ":11: <float_array count=\"25\"> holds 24 numbers; make count match the numbers (is"
                        + " the list cut short?)");
    }

    @Test
    void read_unknownGeometryReference_namesTheInstance() throws IOException {
        String text = CubeFiles.dae("1", "Z_UP", 1, 2, 3, false, "").replace("url=\"#box-mesh\"", "url=\"#bx\"");
        Path file = write("ref.dae", text);

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ":37: <instance_geometry url='#bx'> names no element of this file; fix the id");
    }

    @Test
    void read_polylistCountsDisagreeingWithP_namesP() throws IOException {
        String text = CubeFiles.dae("1", "Z_UP", 1, 2, 3, true, "").replace("4 4 4 4 4 4", "4 4 4 4 4 3");
        Path file = write("vcount.dae", text);

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ":29: <p> holds 48 indices, but <vcount> (line 28) counts 23 corners of 2 inputs"
                        + " each = 46; make them agree");
    }

    @Test
    void read_onlyLines_isEmpty() throws IOException {
        String text = CubeFiles.dae("1", "Z_UP", 1, 2, 3, false, "").replace("triangles", "lines");
        Path file = write("wire.dae", text);

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ": the mesh has no triangles, so nothing to collide with or draw; export the mesh's"
                        + " faces (<triangles>, <polylist> or <polygons>), not only lines or points");
    }

    @Test
    void read_badUnit_namesItsLine() throws IOException {
        Path file = write("unit.dae", CubeFiles.dae("-1", "Z_UP", 1, 2, 3, false, ""));

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ":4: <unit meter='-1'> is not a positive number of metres per unit; write e.g."
                        + " meter=\"0.01\" for centimetres or meter=\"1\"");
    }

    @Test
    void read_instanceNodeCycle_isRefused() throws IOException {
        String text = CubeFiles.dae("1", "Z_UP", 1, 2, 3, false, "<instance_node url=\"#Box\"/>");
        Path file = write("cycle.dae", text);

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageContaining("nodes nest deeper than 128 levels; does an <instance_node> instantiate one of"
                        + " its own ancestors? remove the cycle");
    }
}
