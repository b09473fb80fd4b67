package io.tandem.world.mesh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tandem.world.WorldFormatException;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Wavefront OBJ: corner forms, negative indices, groups as parts, fanned polygons, and the errors at their lines. */
class ObjReaderTest {
    @TempDir
    Path dir;

    @Test
    void read_boxOfQuadsInTwoGroupsWithNegativeIndices_givesTwoPartsOfTheirVertices() throws IOException {
        Path file = CubeFiles.write(dir.resolve("box.obj"), CubeFiles.obj(0.5, 1, 1.5));

        TriangleMesh mesh = MeshFile.read(file);

        // "o box" holds no face before "g bottom": dropped
        assertThat(mesh.parts()).extracting(TriangleMesh.Part::name).containsExactly("bottom", "top");
        assertThat(mesh.parts()).extracting(TriangleMesh.Part::triangleCount).containsExactly(6, 6);
        // bottom uses corners 0..6 except 7; top uses all but 0
        assertThat(mesh.parts()).extracting(TriangleMesh.Part::vertexCount).containsExactly(7, 7);
        assertThat(mesh.triangleCount()).isEqualTo(12);
        assertThat(CubeFiles.bounds(mesh)).containsExactly(new double[] {-0.5, -1, -1.5, 0.5, 1, 1.5}, within(1e-12));
        assertThat(CubeFiles.volume(mesh)).isCloseTo(6, within(1e-12));
    }

    @Test
    void read_partVertices_areInFirstUseOrder() throws IOException {
        Path file = CubeFiles.write(dir.resolve("tri.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 9 9 9\nf 3 1 2\n");

        TriangleMesh.Part part = MeshFile.read(file).parts().get(0);

        assertThat(part.name()).isEqualTo("default");
        assertThat(part.positions()).containsExactly(0, 1, 0, 0, 0, 0, 1, 0, 0);
        assertThat(part.triangles()).containsExactly(0, 1, 2);
    }

    @Test
    void read_pentagon_isFannedFromItsFirstCorner() throws IOException {
        Path file = CubeFiles.write(dir.resolve("five.obj"), "v 0 0 0\nv 1 0 0\nv 2 1 0\nv 1 2 0\nv 0 1 0\n"
                + "f 1 2 3 4 5\n");

        TriangleMesh.Part part = MeshFile.read(file).parts().get(0);

        assertThat(part.triangles()).containsExactly(0, 1, 2, 0, 2, 3, 0, 3, 4);
    }

    @Test
    void read_indexPastTheVertices_namesTheLineTheCountAndTheFix() throws IOException {
        Path file = CubeFiles.write(dir.resolve("far.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\n\nf 1 2 4\n");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ":5: face corner '4' refers to a vertex that does not exist: 3 vertices are defined"
                        + " above this line; OBJ indices start at 1 and negative ones count back from the last vertex"
                        + " (-1), so fix the index or define the vertex before the face");
    }

    @Test
    void read_negativeIndexPastTheFirstVertex_isOutOfRange() throws IOException {
        Path file = CubeFiles.write(dir.resolve("back.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -4/1/1\n");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith(file + ":4: face corner '-4/1/1' refers to a vertex that does not exist");
    }

    @Test
    void read_indexZero_isRefused() throws IOException {
        Path file = CubeFiles.write(dir.resolve("zero.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith(file + ":4: face corner '0' refers to vertex 0: 3 vertices are defined")
                .hasMessageContaining("OBJ indices start at 1");
    }

    @Test
    void read_wordAsIndex_isRefused() throws IOException {
        Path file = CubeFiles.write(dir.resolve("word.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 c\n");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ":4: face corner 'c' is not a vertex index; write i, i/t, i//n or i/t/n with whole"
                        + " numbers (1 for the first vertex, -1 for the last)");
    }

    @Test
    void read_nonNumericVertex_namesTheLine() throws IOException {
        Path file = CubeFiles.write(dir.resolve("bad.obj"), "# c\nv 0 0 0\nv 1,5 0 0\n");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ":3: vertex x '1,5' is not a number; write decimal numbers such as 0.25 or -1.5e-3");
    }

    @Test
    void read_vertexMissingZ_namesTheLine() throws IOException {
        Path file = CubeFiles.write(dir.resolve("short.obj"), "v 0 0\n");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ":1: vertex z is missing; the line needs three numbers x y z");
    }

    @Test
    void read_nanVertex_namesTheLine() throws IOException {
        Path file = CubeFiles.write(dir.resolve("nan.obj"), "v 0 0 0\r\nv NaN 0 0\r\n");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith(file + ":2: vertex x is 'NaN', not a finite number");
    }

    @Test
    void read_faceOfTwoCorners_namesTheLine() throws IOException {
        Path file = CubeFiles.write(dir.resolve("line.obj"), "v 0 0 0\nv 1 0 0\nf 1 2\n");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ":3: the face has 2 corners; a face needs at least 3 (write lines as 'l', not 'f')");
    }

    @Test
    void read_continuedFaceWithBadIndex_namesItsFirstLine() throws IOException {
        Path file = CubeFiles.write(dir.resolve("cont.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 \\\n 7\n");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith(file + ":4: face corner '7'");
    }

    @Test
    void read_onlyVerticesAndLines_isEmpty() throws IOException {
        Path file = CubeFiles.write(dir.resolve("wire.obj"), "v 0 0 0\nv 1 0 0\nl 1 2\n");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ": the mesh has no triangles, so nothing to collide with or draw; an OBJ mesh needs"
                        + " 'v x y z' lines and 'f' lines that use them");
    }
}
