package io.tandem.world.internal;

import io.tandem.world.Geometry;
import io.tandem.world.WorldFormatException;
import io.tandem.world.mesh.MeshFile;
import io.tandem.world.mesh.TriangleMesh;
import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Finds and reads the mesh files a world names ({@code <mesh><uri>} in SDF, {@code <mesh
 * filename>} in URDF), as Gazebo resolves them:
 *
 * <ul>
 *   <li>{@code model://NAME/path}: NAME/path under each folder of GZ_SIM_RESOURCE_PATH,
 *       IGN_GAZEBO_RESOURCE_PATH and SDF_PATH in turn, then in the folders above the file that names
 *       it (a model's meshes beside its model.sdf);
 *   <li>{@code package://PKG/path} (ROS): PKG/path under each folder of ROS_PACKAGE_PATH and of the
 *       Gazebo paths above, then a folder PKG above the naming file (a URDF in PKG/urdf);
 *   <li>{@code file://} URIs and absolute paths as they are; other paths from the naming file's
 *       folder.
 * </ul>
 *
 * A file read once per loader is reused (wheels share their mesh). Build time only; allocates;
 * not thread-safe.
 */
public final class MeshSources {
    private final List<Path> modelPath;
    private final List<Path> packagePath;
    private final Map<String, TriangleMesh> cache = new HashMap<>();

    /**
     * @param modelPath   the folders model:// URIs are looked up in
     * @param packagePath the folders package:// URIs are looked up in (ROS_PACKAGE_PATH)
     */
    public MeshSources(List<Path> modelPath, List<Path> packagePath) {
        this.modelPath = List.copyOf(modelPath);
        this.packagePath = List.copyOf(packagePath);
    }

    /** @return sources with the lookup paths of this process's environment */
    public static MeshSources fromEnvironment() {
        Map<String, String> env = System.getenv();
        return new MeshSources(paths(env, List.of("GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH", "SDF_PATH")),
                paths(env, List.of("ROS_PACKAGE_PATH")));
    }

    /**
     * @param env       the environment
     * @param variables path-list variables, in lookup order
     * @return the folders they list, in order (blank entries skipped)
     */
    public static List<Path> paths(Map<String, String> env, List<String> variables) {
        List<Path> out = new ArrayList<>();
        for (String v : variables) {
            String value = env.get(v);
            if (value == null) {
                continue;
            }
            for (String d : value.split(File.pathSeparator)) {
                if (!d.isBlank()) {
                    out.add(Path.of(d.trim()));
                }
            }
        }
        return out;
    }

    /**
     * Reads the mesh a URI names.
     *
     * @param uri   the URI as written
     * @param base  the folder of the file that names it (relative paths start there), or null
     * @param scale x, y and z scale factors (SDF {@code <scale>}, URDF {@code scale})
     * @param where "file:line: " of the element, for messages
     * @return the geometry
     * @throws WorldFormatException naming the element, the URI, every place searched and the fix
     */
    public Geometry.Mesh load(String uri, Path base, double[] scale, String where) {
        Path file = locate(uri, base, where);
        String key = file.toAbsolutePath().normalize() + "|" + scale[0] + "|" + scale[1] + "|" + scale[2];
        TriangleMesh mesh = cache.get(key);
        if (mesh == null) {
            String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
            if (!name.endsWith(".stl") && !name.endsWith(".obj") && !name.endsWith(".dae")) {
                throw new WorldFormatException(where + "mesh '" + uri + "' is " + file + ": Tandem reads STL, OBJ and COLLADA"
                        + " (.dae) meshes; convert it to one of them");
            }
            try {
                mesh = MeshFile.read(file, scale[0], scale[1], scale[2]);
            } catch (IllegalArgumentException e) {
                throw new WorldFormatException(where + "mesh '" + uri + "': " + e.getMessage());
            } catch (WorldFormatException e) {
                throw new WorldFormatException(where + "mesh '" + uri + "': " + e.getMessage(), e);
            }
            cache.put(key, mesh);
        }
        return new Geometry.Mesh(uri, file, mesh);
    }

    /** A mesh larger than this across (m) on a link is probably in millimetres (physics-wave2.md 3.3, 8): warned. */
    public static final double LARGE_M = 10;

    /** @return the largest extent of a mesh's bounding box, m */
    public static double span(Geometry.Mesh m) {
        double s = 0;
        for (int k = 0; k < 3; k++) {
            s = Math.max(s, m.mesh().max(k) - m.mesh().min(k));
        }
        return s;
    }

    /** @return the file a URI names */
    Path locate(String uri, Path base, String where) {
        List<Path> tried = new ArrayList<>();
        String rest;
        List<Path> roots = new ArrayList<>();
        if (uri.startsWith("model://") || uri.startsWith("package://")) {
            boolean model = uri.startsWith("model://");
            rest = uri.substring(model ? "model://".length() : "package://".length());
            if (rest.isEmpty() || rest.contains("..") || rest.startsWith("/")) {
                throw new WorldFormatException(where + "mesh '" + uri + "' names no file: write " + (model ? "model" : "package")
                        + "://NAME/path/to/mesh");
            }
            if (!model) {
                roots.addAll(packagePath);
            }
            roots.addAll(modelPath);
            // the folders above the naming file: a model's folder (model://NAME beside its model.sdf)
            // or a ROS package holding the URDF's folder
            String first = rest.contains("/") ? rest.substring(0, rest.indexOf('/')) : rest;
            for (Path d = base == null ? null : base.toAbsolutePath().normalize(); d != null; d = d.getParent()) {
                if (d.getFileName() != null && d.getFileName().toString().equals(first) && d.getParent() != null) {
                    roots.add(d.getParent());
                }
            }
            for (Path r : roots) {
                Path c = r.resolve(rest);
                tried.add(c);
                if (Files.isRegularFile(c)) {
                    return c;
                }
            }
            String fix = model ? "set GZ_SIM_RESOURCE_PATH to the folder that holds the model's folder"
                    : "set ROS_PACKAGE_PATH (or GZ_SIM_RESOURCE_PATH) to the folder that holds the package";
            throw new WorldFormatException(where + "cannot find mesh '" + uri + "': searched " + (tried.isEmpty()
                    ? "nowhere (no path is set)" : tried.toString()) + "; " + fix);
        }
        if (uri.startsWith("http://") || uri.startsWith("https://")) {
            throw new WorldFormatException(where + "mesh '" + uri + "' is online (Fuel), which Tandem does not download:"
                    + " fetch it, then point GZ_SIM_RESOURCE_PATH at its folder and write model://NAME/...");
        }
        Path p;
        try {
            p = uri.startsWith("file://") ? Path.of(URI.create(uri)) : base == null ? Path.of(uri) : base.resolve(uri);
        } catch (RuntimeException e) {
            throw new WorldFormatException(where + "mesh '" + uri + "' is not a path or a model:// or package:// URI: "
                    + e.getMessage());
        }
        if (!Files.isRegularFile(p)) {
            throw new WorldFormatException(where + "cannot find mesh '" + uri + "': searched [" + p + "] (a relative path"
                    + " starts from the folder of the file that names it)");
        }
        return p;
    }
}
