package io.tandem.world.mesh;

import io.tandem.world.WorldFormatException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/*
 * Implementation notes.
 *
 * The format is chosen by the extension, ignoring case: .stl [1] (binary or ASCII, StlReader),
 * .obj [2] (ObjReader), .dae, COLLADA 1.4.1 and 1.5 [3, 4] (ColladaReader). Every reader adds parts
 * to a MeshAssembler, which counts triangles against MAX_TRIANGLES as they come (a binary STL's
 * count is refused before anything is allocated) and at the end drops empty parts, applies the
 * caller's scale and refuses a mesh without triangles.
 *
 * Frames and units, as Gazebo [5] builds a <mesh> (so that a model looks the same in both):
 * STL and OBJ have no unit and are taken in metres; COLLADA's <unit meter> scales; COLLADA's
 * <up_axis> is ignored by default, as Gazebo, RViz and MoveIt do [6, 7], or applied
 * (UpAxisHandling.ROTATE_TO_Z_UP); the caller's scale (<mesh><scale>, URDF's scale="x y z") comes
 * last, in the mesh's frame. A transform that mirrors (negative determinant: a negative scale
 * factor, a mirrored COLLADA node) swaps each triangle's last two corners, so that the winding
 * stays counter-clockwise seen from outside.
 *
 * Text formats stream through TextLines (a byte buffer, one line buffer, no regular expressions);
 * numbers go through a syntax check and Double.parseDouble. Binary STL streams through a 200 kB
 * buffer. Measured on the 2-core development machine, 100 000 triangles: binary STL 160 ms cold
 * (first read in the JVM), 18 ms warm; ASCII STL (12 MB) 460 ms cold, 94 ms warm; OBJ 20 ms warm
 * (StlReaderTest holds the binary case under half a second).
 *
 * Errors: every problem with the bytes is a WorldFormatException of one line, "file:line: what is
 * wrong; how to fix it" (no line for binary STL and for problems of the whole file); the fuzz test
 * (MeshFileFuzzTest) holds that no other exception escapes.
 *
 * [1] 3D Systems, "StereoLithography Interface Specification", 1988.
 * [2] Wavefront Technologies, "Object Files (.obj)", Advanced Visualizer manual, Appendix B1.
 * [3] Khronos, "COLLADA - Digital Asset Schema Release 1.4.1 Specification", 2nd ed., 2008.
 * [4] Khronos, "COLLADA - Digital Asset Schema Release 1.5.0 Specification", 2008.
 * [5] gazebosim/gz-common, graphics/src/ColladaLoader.cc, MeshManager.cc.
 * [6] gazebosim/gazebo-classic issue 1305, "Collada up_axis tag" (the loader ignores it).
 * [7] ros-visualization/rviz issue 1045 and moveit/geometric_shapes PR 52 (the root transform dropped).
 */

/**
 * Reads a triangle mesh from an STL (binary or ASCII), Wavefront OBJ or COLLADA (.dae) file, as
 * Gazebo and ROS models name them in {@code <mesh>}, into a {@link TriangleMesh} in metres.
 *
 * <p>Formats are chosen by the file's extension, ignoring case. STL and OBJ coordinates are
 * metres; COLLADA's {@code <unit meter>} is applied, its {@code <up_axis>} per {@link UpAxisHandling}
 * (ignored by default, as Gazebo does), its visual scene's node transforms are applied to each
 * geometry instance. Parts: one per STL solid, OBJ object or group ({@code o}, {@code g}), COLLADA
 * geometry instance. Normals, texture coordinates and materials are not read.
 *
 * <p>Every problem with the file is a {@link WorldFormatException} whose one-line message names
 * the file, the line for text formats (ASCII STL, OBJ, the element's line in COLLADA), what is
 * wrong and how to fix it; no other exception comes from a file's contents.
 *
 * <p>Thread-safe: the methods keep no state between calls and may run concurrently. They allocate
 * the result and working buffers proportional to the mesh; STL and OBJ are streamed, a COLLADA
 * document is held in memory while read.
 */
public final class MeshFile {
    /** the most triangles a mesh may have (over all its parts) */
    public static final int MAX_TRIANGLES = 5_000_000;
    /** the largest STL or OBJ file, bytes (1 GiB; an ASCII STL of the triangle limit takes about as much) */
    public static final long MAX_FILE_BYTES = 1L << 30;
    /** the largest COLLADA file, bytes (128 MiB; the document is held in memory, several times its size, while read) */
    public static final long MAX_COLLADA_BYTES = 1L << 27;
    /** the extensions read, for messages */
    private static final String SUPPORTED = ".stl (binary or ASCII), .obj and .dae (COLLADA)";

    private MeshFile() {
    }

    /**
     * Reads a mesh at scale 1, ignoring a COLLADA up axis (as Gazebo does).
     *
     * @param file the mesh file (.stl, .obj or .dae, any case). Not modified.
     * @return the mesh, in metres
     * @throws WorldFormatException when the file is missing, unreadable, of another format, malformed,
     *                              without triangles or too large
     */
    public static TriangleMesh read(Path file) {
        return read(file, 1, 1, 1, UpAxisHandling.IGNORE);
    }

    /**
     * Reads a mesh scaled per axis (Gazebo's {@code <mesh><scale>}, URDF's {@code scale="x y z"}),
     * ignoring a COLLADA up axis (as Gazebo does).
     *
     * @param file the mesh file (.stl, .obj or .dae, any case). Not modified.
     * @param sx   the factor on x after the file's unit (1 keeps the size; negative mirrors)
     * @param sy   the factor on y
     * @param sz   the factor on z
     * @return the mesh, in metres
     * @throws WorldFormatException     when the file is missing, unreadable, of another format,
     *                                  malformed, without triangles or too large
     * @throws IllegalArgumentException when a factor is zero, NaN or infinite
     */
    public static TriangleMesh read(Path file, double sx, double sy, double sz) {
        return read(file, sx, sy, sz, UpAxisHandling.IGNORE);
    }

    /**
     * Reads a mesh scaled per axis, with a choice of what a COLLADA {@code <up_axis>} does.
     *
     * @param file   the mesh file (.stl, .obj or .dae, any case). Not modified.
     * @param sx     the factor on x after the file's unit and up axis (1 keeps the size; negative mirrors)
     * @param sy     the factor on y
     * @param sz     the factor on z
     * @param upAxis what a COLLADA file's up axis does (STL and OBJ have none)
     * @return the mesh, in metres
     * @throws WorldFormatException     when the file is missing, unreadable, of another format,
     *                                  malformed, without triangles or too large
     * @throws IllegalArgumentException when a factor is zero, NaN or infinite
     */
    public static TriangleMesh read(Path file, double sx, double sy, double sz, UpAxisHandling upAxis) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(upAxis, "upAxis");
        requireFactor(sx, "sx");
        requireFactor(sy, "sy");
        requireFactor(sz, "sz");
        Path name = file.getFileName();
        String lower = name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
        boolean stl = lower.endsWith(".stl");
        boolean obj = lower.endsWith(".obj");
        boolean dae = lower.endsWith(".dae");
        if (!stl && !obj && !dae) {
            int dot = lower.lastIndexOf('.');
            throw MeshErrors.at(file, 0, (dot < 0 ? "the file has no extension" : "the format "
                    + MeshErrors.quote(lower.substring(dot)) + " is not supported") + "; Tandem reads meshes from "
                    + SUPPORTED + ": convert it (e.g. in Blender or MeshLab) and name the converted file");
        }
        long size = size(file);
        long limit = dae ? MAX_COLLADA_BYTES : MAX_FILE_BYTES;
        if (size > limit) {
            throw MeshErrors.at(file, 0, String.format(Locale.ROOT, "the file has %d bytes, more than the %d Tandem"
                    + " reads from a %s file; simplify the mesh (e.g. Blender's Decimate modifier)%s", size, limit,
                    dae ? "COLLADA" : stl ? "STL" : "OBJ", dae ? " or convert it to binary STL" : ""));
        }
        MeshAssembler out = new MeshAssembler(file, sx, sy, sz);
        String emptyHint;
        try {
            if (stl) {
                StlReader.read(file, size, out);
                emptyHint = StlReader.EMPTY_HINT;
            } else {
                try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
                    if (obj) {
                        ObjReader.read(file, in, out);
                        emptyHint = ObjReader.EMPTY_HINT;
                    } else {
                        ColladaReader.read(file, in, out, upAxis);
                        emptyHint = ColladaReader.EMPTY_HINT;
                    }
                }
            }
        } catch (NoSuchFileException e) {
            throw missing(file);
        } catch (AccessDeniedException e) {
            throw denied(file);
        } catch (IOException e) {
            throw MeshErrors.at(file, 0, "cannot read the file: " + e + "; check the disk and the file");
        }
        return out.finish(emptyHint);
    }

    private static void requireFactor(double factor, String name) {
        if (factor == 0 || !Double.isFinite(factor)) {
            throw new IllegalArgumentException(name + " = " + factor + ": a scale factor must be finite and nonzero");
        }
    }

    private static long size(Path file) {
        if (Files.isDirectory(file)) {
            throw MeshErrors.at(file, 0, "is a directory, not a mesh file; give the path of the mesh file");
        }
        try {
            return Files.size(file);
        } catch (NoSuchFileException e) {
            throw missing(file);
        } catch (AccessDeniedException e) {
            throw denied(file);
        } catch (IOException e) {
            throw MeshErrors.at(file, 0, "cannot read the file: " + e + "; check the disk and the file");
        }
    }

    private static WorldFormatException missing(Path file) {
        return MeshErrors.at(file, 0, "no such mesh file; check the path (a package:// or model:// URI resolves"
                + " against the package's or model's directory) and that the model's meshes are installed");
    }

    private static WorldFormatException denied(Path file) {
        return MeshErrors.at(file, 0, "the mesh file cannot be read (permission denied); make it readable (chmod a+r)");
    }
}
