package io.tandem.world.internal;

import io.tandem.world.Geometry;
import io.tandem.world.Pose;
import io.tandem.world.World;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What cameras see: every visual shape of the world (a link's collision shapes stand in when it
 * has no visual), flattened into arrays in world order (model, link, visual), each placed in its
 * link's physics body frame, with a colour that can change at runtime. Also the world's camera
 * sensors by scoped name. Built once per runner (allocates); reads allocate nothing. Not
 * thread-safe.
 */
public final class VisualScene {
    public static final int BOX = 0;
    public static final int SPHERE = 1;
    public static final int CYLINDER = 2;
    public static final int CAPSULE = 3;
    /** a finite rectangle (SDF plane visuals have a size) in the local xy plane, normal +z */
    public static final int PLANE = 4;
    /** a triangle mesh: {@link #meshVertices} and {@link #meshTriangles}; dims its bounding box's half extents */
    public static final int MESH = 5;
    /** colour of collision shapes that stand in for a missing visual */
    public static final double[] DEFAULT_RGB = {0.7, 0.7, 0.7};

    public final int count;
    /** global id of the link (its physics body's id) of each shape (count) */
    public final long[] linkId;
    /** the shape's kind: BOX, SPHERE, CYLINDER, CAPSULE, PLANE (count) */
    public final int[] type;
    /** box half extents; sphere radius; cylinder and capsule radius and half length; plane half sizes, m (count x 3) */
    public final double[] dims;
    /** the shape's frame in its body frame: position, m, and quaternion w, x, y, z (count x 7) */
    public final double[] local;
    /** colour in [0, 1] (count x 3); changed by {@link #setModelColor} */
    public final double[] rgb;
    /** per shape: a mesh's vertices (x, y, z) in the shape frame, centred on its bounding box; null for other kinds */
    public final double[][] meshVertices;
    /** per shape: a mesh's triangles (three vertex indices each); null for other kinds */
    public final int[][] meshTriangles;
    private final Map<String, int[]> modelRange = new LinkedHashMap<>();
    private final Map<String, CameraMount> cameras = new LinkedHashMap<>();

    /** A camera sensor and where it sits: its link's body id and its frame in that body's frame. */
    public record CameraMount(String scopedName, String model, World.Camera camera, long linkId, Pose inBody) {
    }

    public VisualScene(World world) {
        List<Long> ids = new ArrayList<>();
        List<Integer> types = new ArrayList<>();
        List<double[]> dimList = new ArrayList<>();
        List<Pose> poses = new ArrayList<>();
        List<double[]> colours = new ArrayList<>();
        List<double[]> vertexList = new ArrayList<>();
        List<int[]> triangleList = new ArrayList<>();
        long nextLinkId = 0;
        for (World.Model m : world.models()) {
            int first = ids.size();
            for (World.Link l : m.links()) {
                long id = nextLinkId++;
                // the physics body frame of the link (PhysicsCompiler): link (x) bodyInLink
                Pose bodyInLink = m.isStatic() ? Pose.IDENTITY : PhysicsCompiler.principalFrame(l.inertial());
                Pose linkInBody = bodyInLink.inverse();
                if (!l.visuals().isEmpty()) {
                    for (World.Visual v : l.visuals()) {
                        add(v.geometry(), linkInBody.compose(v.pose()), v.rgba(), id, ids, types, dimList, poses, colours, vertexList,
                                triangleList);
                    }
                } else {
                    for (World.Collision c : l.collisions()) {
                        add(c.geometry(), linkInBody.compose(c.pose()), DEFAULT_RGB, id, ids, types, dimList, poses, colours, vertexList,
                                triangleList);
                    }
                }
                for (World.Camera c : l.cameras()) {
                    String scoped = m.name() + "::" + l.name() + "::" + c.name();
                    cameras.put(scoped, new CameraMount(scoped, m.name(), c, id, linkInBody.compose(c.pose())));
                }
            }
            modelRange.put(m.name(), new int[] {first, ids.size()});
        }
        count = ids.size();
        this.linkId = new long[count];
        type = new int[count];
        dims = new double[3 * count];
        local = new double[7 * count];
        rgb = new double[3 * count];
        meshVertices = vertexList.toArray(new double[0][]);
        meshTriangles = triangleList.toArray(new int[0][]);
        for (int i = 0; i < count; i++) {
            this.linkId[i] = ids.get(i);
            type[i] = types.get(i);
            System.arraycopy(dimList.get(i), 0, dims, 3 * i, 3);
            Pose p = poses.get(i);
            local[7 * i] = p.x();
            local[7 * i + 1] = p.y();
            local[7 * i + 2] = p.z();
            local[7 * i + 3] = p.qw();
            local[7 * i + 4] = p.qx();
            local[7 * i + 5] = p.qy();
            local[7 * i + 6] = p.qz();
            for (int k = 0; k < 3; k++) {
                rgb[3 * i + k] = clamp01(colours.get(i)[k]);
            }
        }
    }

    private static void add(Geometry g, Pose inBody, double[] colour, long id, List<Long> ids, List<Integer> types,
                            List<double[]> dimList, List<Pose> poses, List<double[]> colours, List<double[]> vertexList,
                            List<int[]> triangleList) {
        Pose p = inBody;
        double[] vertices = null;
        int[] triangles = null;
        if (g instanceof Geometry.Box b) {
            types.add(BOX);
            dimList.add(new double[] {b.sizeX() / 2, b.sizeY() / 2, b.sizeZ() / 2});
        } else if (g instanceof Geometry.Sphere s) {
            types.add(SPHERE);
            dimList.add(new double[] {s.radius(), 0, 0});
        } else if (g instanceof Geometry.Cylinder c) {
            types.add(CYLINDER);
            dimList.add(new double[] {c.radius(), c.length() / 2, 0});
        } else if (g instanceof Geometry.Capsule c) {
            types.add(CAPSULE);
            dimList.add(new double[] {c.radius(), c.length() / 2, 0});
        } else if (g instanceof Geometry.Plane pl) {
            types.add(PLANE);
            dimList.add(new double[] {pl.sizeX() / 2, pl.sizeY() / 2, 0});
            p = inBody.compose(PhysicsCompiler.zTo(pl.nx(), pl.ny(), pl.nz()));
        } else if (g instanceof Geometry.Mesh mesh) {
            // every part's triangles in one list, centred on the mesh's bounding box
            io.tandem.world.mesh.TriangleMesh tm = mesh.mesh();
            double[] c = new double[3];
            double[] half = new double[3];
            for (int k = 0; k < 3; k++) {
                c[k] = 0.5 * (tm.min(k) + tm.max(k));
                half[k] = Math.max(0.5 * (tm.max(k) - tm.min(k)), 1e-9);
            }
            vertices = new double[3 * tm.vertexCount()];
            triangles = new int[3 * tm.triangleCount()];
            int nv = 0;
            int nt = 0;
            for (io.tandem.world.mesh.TriangleMesh.Part part : tm.parts()) {
                double[] pv = part.positions();
                int[] pt = part.triangles();
                for (int k = 0; k < pt.length; k++) {
                    triangles[nt++] = nv / 3 + pt[k];
                }
                for (int k = 0; k < pv.length; k++) {
                    vertices[nv++] = pv[k] - c[k % 3];
                }
            }
            types.add(MESH);
            dimList.add(half);
            p = inBody.compose(Pose.translation(c[0], c[1], c[2]));
        } else {
            throw new IllegalStateException("unknown geometry " + g);
        }
        vertexList.add(vertices);
        triangleList.add(triangles);
        ids.add(id);
        poses.add(p);
        colours.add(colour);
    }

    private static double clamp01(double v) {
        return v < 0 ? 0 : v > 1 ? 1 : v;
    }

    /**
     * Recolours every shape of a model.
     *
     * @throws IllegalArgumentException naming the model and close matches when there is none
     */
    public void setModelColor(String worldName, String model, double r, double g, double b) {
        int[] range = modelRange.get(model);
        if (range == null) {
            throw new IllegalArgumentException("no model '" + model + "' in world '" + worldName + "'"
                    + JointTable.suggestions(model, modelRange.keySet().toArray(new String[0])));
        }
        if (!(r >= 0 && r <= 1 && g >= 0 && g <= 1 && b >= 0 && b <= 1)) {
            throw new IllegalArgumentException("model '" + model + "': colour components must be in [0, 1], got (" + r + ", "
                    + g + ", " + b + ")");
        }
        for (int i = range[0]; i < range[1]; i++) {
            rgb[3 * i] = r;
            rgb[3 * i + 1] = g;
            rgb[3 * i + 2] = b;
        }
    }

    /**
     * @return the camera of that scoped name (model::link::sensor, or model::sensor when only one
     *         link of the model has a sensor of that name)
     * @throws IllegalArgumentException naming the camera and close matches when there is none
     */
    public CameraMount camera(String worldName, String scopedName) {
        CameraMount c = cameras.get(scopedName);
        if (c != null) {
            return c;
        }
        // model::sensor: unique by model and sensor name
        int sep = scopedName.indexOf("::");
        CameraMount found = null;
        int matches = 0;
        if (sep > 0) {
            String model = scopedName.substring(0, sep);
            String sensor = scopedName.substring(sep + 2);
            for (CameraMount m : cameras.values()) {
                if (m.model().equals(model) && m.camera().name().equals(sensor)) {
                    found = m;
                    matches++;
                }
            }
        }
        if (matches == 1) {
            return found;
        }
        throw new IllegalArgumentException("no camera '" + scopedName + "' in world '" + worldName + "' (cameras are named"
                + " model::link::sensor" + (matches > 1 ? "; several links have that sensor name" : "") + ")"
                + JointTable.suggestions(scopedName, cameras.keySet().toArray(new String[0])));
    }
}
