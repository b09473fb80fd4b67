package io.tandem.world.mesh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tandem.world.WorldFormatException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** STL, binary and ASCII: a box welded to 8 vertices, solids as parts, and each way the bytes can be wrong. */
class StlReaderTest {
    @TempDir
    Path dir;

    @Test
    void read_binaryBox_weldsToEightVerticesAndTwelveOutwardTriangles() throws IOException {
        Path file = CubeFiles.binaryStl(dir.resolve("box.stl"), "exported by a CAD tool", 0.5, 1, 1.5);

        TriangleMesh mesh = MeshFile.read(file);

        assertThat(mesh.parts()).hasSize(1);
        assertThat(mesh.parts().get(0).name()).isEqualTo("box");
        assertThat(mesh.vertexCount()).isEqualTo(8);
        assertThat(mesh.triangleCount()).isEqualTo(12);
        assertThat(CubeFiles.bounds(mesh)).containsExactly(new double[] {-0.5, -1, -1.5, 0.5, 1, 1.5}, within(1e-7));
        assertThat(CubeFiles.volume(mesh)).isCloseTo(6, within(1e-6));
    }

    @Test
    void read_binaryWhoseHeaderStartsWithSolid_isReadAsBinaryByItsLength() throws IOException {
        Path file = CubeFiles.binaryStl(dir.resolve("solid.STL"), "solid box exported by SolidWorks", 0.5, 1, 1.5);

        TriangleMesh mesh = MeshFile.read(file);

        assertThat(mesh.triangleCount()).isEqualTo(12);
        assertThat(mesh.vertexCount()).isEqualTo(8);
    }

    @Test
    void read_asciiBox_weldsAndNamesThePartAfterTheSolid() throws IOException {
        Path file = CubeFiles.write(dir.resolve("box.stl"), CubeFiles.asciiSolid("my box", 0.5, 1, 1.5));

        TriangleMesh mesh = MeshFile.read(file);

        assertThat(mesh.parts()).extracting(TriangleMesh.Part::name).containsExactly("my box");
        assertThat(mesh.vertexCount()).isEqualTo(8);
        assertThat(mesh.triangleCount()).isEqualTo(12);
        assertThat(CubeFiles.bounds(mesh)).containsExactly(new double[] {-0.5, -1, -1.5, 0.5, 1, 1.5}, within(1e-12));
        assertThat(CubeFiles.volume(mesh)).isCloseTo(6, within(1e-12));
    }

    @Test
    void read_asciiWithTwoSolidsUpperCaseAndCrLf_givesTwoParts() throws IOException {
        String second = CubeFiles.asciiSolid("", 1, 1, 1).toUpperCase(Locale.ROOT);
        String text = (CubeFiles.asciiSolid("first", 0.5, 0.5, 0.5) + second).replace("\n", "\r\n");
        Path file = CubeFiles.write(dir.resolve("two.stl"), text);

        TriangleMesh mesh = MeshFile.read(file);

        assertThat(mesh.parts()).extracting(TriangleMesh.Part::name).containsExactly("first", "two");
        assertThat(mesh.parts()).extracting(TriangleMesh.Part::vertexCount).containsExactly(8, 8);
        assertThat(mesh.triangleCount()).isEqualTo(24);
        assertThat(mesh.max(2)).isEqualTo(1);
    }

    @Test
    void read_asciiQuadFacet_isFanned() throws IOException {
        Path file = CubeFiles.write(dir.resolve("quad.stl"), "solid q\nfacet normal 0 0 1\nouter loop\n"
                + "vertex 0 0 0\nvertex 1 0 0\nvertex 1 1 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid q\n");

        TriangleMesh mesh = MeshFile.read(file);

        assertThat(mesh.triangleCount()).isEqualTo(2);
        assertThat(mesh.parts().get(0).triangles()).containsExactly(0, 1, 2, 0, 2, 3);
    }

    @Test
    void read_truncatedBinary_namesTheCountAndTheBytes() throws IOException {
        Path file = CubeFiles.binaryStl(dir.resolve("cut.stl"), "binary", 0.5, 1, 1.5);
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length - 7));

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ": truncated binary STL: its header says 12 triangles, which take 84 + 50 x 12 ="
                        + " 684 bytes, but the file has 677 bytes; re-export the mesh or repair it (e.g. with MeshLab"
                        + " or admesh)");
    }

    @Test
    void read_truncatedBinaryWhoseHeaderStartsWithSolid_isStillTruncatedBinary() throws IOException {
        Path file = CubeFiles.binaryStl(dir.resolve("cut.stl"), "solid", 0.5, 1, 1.5);
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, 300));

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith(file + ": truncated binary STL: its header says 12 triangles");
    }

    @Test
    void read_shorterThanTheHeader_saysSo() throws IOException {
        Path file = CubeFiles.write(dir.resolve("tiny.stl"), "abc");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith(file + ": the file has 3 bytes, fewer than the 84-byte header")
                .hasMessageContaining("re-export");
    }

    @Test
    void read_binaryWithNaN_namesTheTriangle() throws IOException {
        Path file = CubeFiles.binaryStl(dir.resolve("nan.stl"), "binary", 0.5, 1, 1.5);
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putFloat(84 + 50 * 3 + 12 + 4, Float.NaN);
        Files.write(file, bytes);

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith(file + ": triangle 3 (byte 234) has a NaN or infinite coordinate")
                .hasMessageContaining("repair the mesh");
    }

    @Test
    void read_binaryWithoutTriangles_isEmpty() throws IOException {
        Path file = dir.resolve("empty.stl");
        Files.write(file, new byte[84]);

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ": the mesh has no triangles, so nothing to collide with or draw; re-export the"
                        + " mesh from the CAD tool with its facets");
    }

    @Test
    void read_asciiWithoutFacets_isEmpty() throws IOException {
        Path file = CubeFiles.write(dir.resolve("empty.stl"), "solid nothing\nendsolid nothing\n");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith(file + ": the mesh has no triangles");
    }

    @Test
    void read_binaryCountOverTheLimit_isRefusedBeforeReading() throws IOException {
        Path file = dir.resolve("huge.stl");
        long count = MeshFile.MAX_TRIANGLES + 1L;
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            // sparse: only the header is written
            f.setLength(84 + 50 * count);
            f.seek(80);
            f.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) count).array());
        }

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith(file + ": the mesh has more than 5000000 triangles, the most Tandem reads;"
                        + " simplify it");
    }

    @Test
    void read_asciiNonNumericCoordinate_namesTheLine() throws IOException {
        String text = CubeFiles.asciiSolid("box", 0.5, 1, 1.5).replaceFirst("vertex -0.5 -1.0", "vertex -0.5 one");
        Path file = CubeFiles.write(dir.resolve("word.stl"), text);

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ":4: vertex y 'one' is not a number; write decimal numbers such as 0.25 or -1.5e-3");
    }

    @Test
    void read_asciiInfiniteCoordinate_namesTheLine() throws IOException {
        String text = CubeFiles.asciiSolid("box", 0.5, 1, 1.5)
                .replaceFirst("vertex -0.5 -1.0 -1.5", "vertex -0.5 -1.0 -inf");
        Path file = CubeFiles.write(dir.resolve("inf.stl"), text);

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith(file + ":4: vertex z is '-inf', not a finite number; fix the exporter's")
                .hasMessageContaining("re-export the mesh");
    }

    @Test
    void read_asciiOverflowingCoordinate_namesTheLine() throws IOException {
        String text = CubeFiles.asciiSolid("box", 0.5, 1, 1.5).replaceFirst("vertex -0.5", "vertex 1e999");
        Path file = CubeFiles.write(dir.resolve("big.stl"), text);

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith(file + ":4: vertex x '1e999' overflows a double");
    }

    @Test
    void read_asciiCutInsideAFacet_saysItIsCutShort() throws IOException {
        String text = CubeFiles.asciiSolid("box", 0.5, 1, 1.5);
        Path file = CubeFiles.write(dir.resolve("cut.stl"), text.substring(0, text.indexOf("endloop", 200)));

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageMatching(".*cut\\.stl:[0-9]+: the file ends inside the facet of line 9; it is cut short:"
                        + " re-export it");
    }

    @Test
    void read_asciiUnknownKeyword_namesTheLineAndTheKeywords() throws IOException {
        Path file = CubeFiles.write(dir.resolve("odd.stl"), "solid x\n  facet normal 0 0 1\n  outer loop\n"
                + "  vertx 0 0 0\n");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith(file + ":4: unexpected 'vertx'; an ASCII STL holds only solid, facet normal");
    }

    @Test
    void read_asciiFacetOfTwoVertices_namesTheFacet() throws IOException {
        Path file = CubeFiles.write(dir.resolve("two.stl"), "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\n"
                + "vertex 1 0 0\nendloop\nendfacet\nendsolid\n");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ":7: the facet of line 2 has 2 vertices; a facet needs 3 'vertex x y z' lines");
    }

    /** A large binary file (100 000 triangles of a grid) reads whole, its shared corners merged. (Speed is not timed here.) */
    @Test
    void read_binaryOfHundredThousandTriangles_everyTriangleAndMergedCorners() throws IOException {
        int n = 100_000;
        ByteBuffer b = ByteBuffer.allocate(84 + 50 * n).order(ByteOrder.LITTLE_ENDIAN);
        b.position(80);
        b.putInt(n);
        // a 250 x 200 grid of quads, two triangles each
        int columns = 250;
        for (int t = 0; t < n; t++) {
            int q = t / 2;
            float x = q % columns;
            float y = q / columns;
            b.putFloat(0).putFloat(0).putFloat(1);
            if (t % 2 == 0) {
                b.putFloat(x).putFloat(y).putFloat(0).putFloat(x + 1).putFloat(y).putFloat(0);
                b.putFloat(x + 1).putFloat(y + 1).putFloat(0);
            } else {
                b.putFloat(x).putFloat(y).putFloat(0).putFloat(x + 1).putFloat(y + 1).putFloat(0);
                b.putFloat(x).putFloat(y + 1).putFloat(0);
            }
            b.putShort((short) 0);
        }
        Path file = dir.resolve("grid.stl");
        Files.write(file, b.array());

        TriangleMesh mesh = MeshFile.read(file);

        assertThat(mesh.triangleCount()).isEqualTo(n);
        assertThat(mesh.vertexCount()).isEqualTo(251 * 201);
    }
}
