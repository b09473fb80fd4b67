package io.tandem.world.mesh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.tandem.world.WorldFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Choosing the format, the scale, the files that cannot be read, and the triangle limit. */
class MeshFileTest {
    @TempDir
    Path dir;

    @Test
    void read_upperCaseExtensions_chooseTheFormat() throws IOException {
        TriangleMesh stl = MeshFile.read(CubeFiles.write(dir.resolve("A.STL"), CubeFiles.asciiSolid("a", 1, 1, 1)));
        TriangleMesh obj = MeshFile.read(CubeFiles.write(dir.resolve("B.Obj"), CubeFiles.obj(1, 1, 1)));
        TriangleMesh dae = MeshFile.read(CubeFiles.write(dir.resolve("C.DAE"),
                CubeFiles.dae("1", "Z_UP", 1, 1, 1, true, "")));

        assertThat(stl.triangleCount()).isEqualTo(12);
        assertThat(obj.triangleCount()).isEqualTo(12);
        assertThat(dae.triangleCount()).isEqualTo(12);
    }

    @Test
    void read_scalePerAxis_scalesEachAxis() throws IOException {
        Path file = CubeFiles.binaryStl(dir.resolve("box.stl"), "box", 0.5, 1, 1.5);

        TriangleMesh mesh = MeshFile.read(file, 2, 0.5, 0.001);

        assertThat(CubeFiles.bounds(mesh)).containsExactly(new double[] {-1, -0.5, -0.0015, 1, 0.5, 0.0015},
                within(1e-9));
        assertThat(CubeFiles.volume(mesh)).isCloseTo(6 * 2 * 0.5 * 0.001, within(1e-12));
    }

    @Test
    void read_negativeScale_mirrorsAndKeepsTheTrianglesOutward() throws IOException {
        Path file = CubeFiles.write(dir.resolve("box.obj"), CubeFiles.obj(0.5, 1, 1.5) + "v 5 0 0\n");

        TriangleMesh mesh = MeshFile.read(file, -1, 1, 1);

        assertThat(mesh.max(0)).isEqualTo(0.5);
        assertThat(CubeFiles.volume(mesh)).isCloseTo(6, within(1e-12));
    }

    @Test
    void read_zeroOrNaNScale_isAnIllegalArgument() {
        Path file = dir.resolve("box.stl");

        assertThatThrownBy(() -> MeshFile.read(file, 1, 0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sy = 0.0: a scale factor must be finite and nonzero");
        assertThatThrownBy(() -> MeshFile.read(file, Double.NaN, 1, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void read_otherExtension_namesTheFormatAndTheSupportedOnes() throws IOException {
        Path file = CubeFiles.write(dir.resolve("wheel.ply"), "ply\n");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ": the format '.ply' is not supported; Tandem reads meshes from .stl (binary or"
                        + " ASCII), .obj and .dae (COLLADA): convert it (e.g. in Blender or MeshLab) and name the"
                        + " converted file");
    }

    @Test
    void read_noExtension_saysSo() {
        Path file = dir.resolve("mesh");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith(file + ": the file has no extension; Tandem reads meshes from .stl");
    }

    @Test
    void read_missingFile_namesItAndWhereToLook() {
        Path file = dir.resolve("meshes/base_link.STL");

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ": no such mesh file; check the path (a package:// or model:// URI resolves against"
                        + " the package's or model's directory) and that the model's meshes are installed");
    }

    @Test
    void read_directory_saysSo() throws IOException {
        Path file = Files.createDirectory(dir.resolve("folder.dae"));

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ": is a directory, not a mesh file; give the path of the mesh file");
    }

    @Test
    void read_unreadableFile_saysPermissionDenied() throws IOException {
        Path file = CubeFiles.write(dir.resolve("locked.obj"), CubeFiles.obj(1, 1, 1));
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
        } catch (UnsupportedOperationException e) {
            assumeThat(false).as("POSIX permissions").isTrue();
        }
        // root reads anything
        assumeThat(Files.isReadable(file)).as("the file is unreadable to this user").isFalse();

        assertThatThrownBy(() -> MeshFile.read(file)).isInstanceOf(WorldFormatException.class)
                .hasMessage(file + ": the mesh file cannot be read (permission denied); make it readable (chmod a+r)");
    }

    @Test
    void countTriangle_pastTheLimit_isRefusedAtTheLineWithTheFix() {
        MeshAssembler mesh = new MeshAssembler(Path.of("big.obj"), 1, 1, 1);
        for (int t = 0; t < MeshFile.MAX_TRIANGLES; t++) {
            mesh.countTriangle(7);
        }

        assertThatThrownBy(() -> mesh.countTriangle(7)).isInstanceOf(WorldFormatException.class)
                .hasMessage("big.obj:7: the mesh has more than 5000000 triangles, the most Tandem reads; simplify it"
                        + " (e.g. Blender's Decimate modifier or MeshLab's quadric edge collapse) or use a few"
                        + " primitive shapes instead");
    }

    @Test
    void parts_areUnmodifiableAndArraysCopies() throws IOException {
        Path file = CubeFiles.write(dir.resolve("t.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
        TriangleMesh mesh = MeshFile.read(file);
        TriangleMesh.Part part = mesh.parts().get(0);

        part.positions()[0] = 42;
        part.triangles()[0] = 42;

        assertThat(part.coordinate(0, 0)).isEqualTo(0);
        assertThat(part.corner(0, 0)).isEqualTo(0);
        assertThatThrownBy(() -> mesh.parts().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThat(mesh).hasToString("TriangleMesh[1 parts, 3 vertices, 1 triangles, x 0.00000..1.00000, y"
                + " 0.00000..1.00000, z 0.00000..0.00000 m]");
    }
}
