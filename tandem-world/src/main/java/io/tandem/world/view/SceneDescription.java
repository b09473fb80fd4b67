package io.tandem.world.view;

import io.tandem.world.Geometry;
import io.tandem.world.Pose;
import io.tandem.world.World;
import io.tandem.world.WorldRunner;
import io.tandem.world.WorldView;
import io.tandem.world.mesh.TriangleMesh;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a viewer draws of a world: one entity per link of every model (id = its index here, in
 * the world's model and link order), each with its visuals (its collisions, grey, for a link
 * without visuals), plus the levels and performers. {@link #sceneJson()} is sent once (the
 * {@code scene} message of the viewer's stream and MCAP's {@code /tandem/scene}); {@link #stateJson}
 * says which models and levels are loaded, where the static entities stand and which secondary
 * owns each model (sent on every change); {@link #frame} packs the moving entities' poses as a
 * {@link PoseFrame}.
 *
 * <p>The world's cables and deformable bodies follow the models' links as entities of their own
 * (model = the cable's or body's name, link = the segment's or node's index): a capsule per cable
 * segment; a deformable body's nodes carry no visual, its boundary is drawn as one mesh whose
 * vertices are its nodes (the scene's {@code surfaces}: model, colour and triangles on the
 * nodes' link indexes). Their bodies are numbered when the
 * world is compiled, so {@link #bind} adds them from the first {@link WorldRunner} it is given
 * (a {@link ViewFeed} binds before it sends the scene).
 *
 * <p>Use it on one thread, the one that steps the {@link WorldView} it reads ({@link #bind},
 * {@link #stateJson} and {@link #frame}); each allocates its result.
 */
public final class SceneDescription {
    private static final double[] COLLISION_RGBA = {0.62, 0.62, 0.66, 1};
    private static final double[] CABLE_RGBA = {0.95, 0.55, 0.15, 1};
    private static final double[] DEFORMABLE_RGBA = {0.35, 0.8, 0.75, 1};

    private final World world;
    private String[] model;
    private int[] link;
    /** each entity's model's index in the world (a WorldRunner's model handle); -1 for a cable's or deformable body's */
    private int[] modelIndex;
    /** each cable's or deformable body's entity's global body id; -1 for a model's link */
    private long[] bodyId;
    private boolean[] isStatic;
    private int dynamicCount;
    /** the cables' and deformable bodies' names, once bound (always loaded) */
    private List<String> elasticNames = List.of();
    /** the deformable bodies' boundary triangles, by name, once bound */
    private Map<String, int[]> surfaces = Map.of();
    private boolean bound;
    private final double[] scratch = new double[WorldRunner.POSE_VALUES]; // frame's, on the stepping thread
    private String json;

    /** @param world the world, as loaded */
    public SceneDescription(World world) {
        this.world = world;
        List<String> models = new ArrayList<>();
        List<Integer> links = new ArrayList<>();
        List<Boolean> statics = new ArrayList<>();
        List<Integer> indexes = new ArrayList<>();
        for (int mi = 0; mi < world.models().size(); mi++) {
            World.Model m = world.models().get(mi);
            for (int l = 0; l < m.links().size(); l++) {
                indexes.add(mi);
                models.add(m.name());
                links.add(l);
                statics.add(m.isStatic());
            }
        }
        int n = models.size();
        model = models.toArray(new String[0]);
        link = new int[n];
        modelIndex = new int[n];
        isStatic = new boolean[n];
        int dynamic = 0;
        for (int i = 0; i < n; i++) {
            link[i] = links.get(i);
            modelIndex[i] = indexes.get(i);
            isStatic[i] = statics.get(i);
            dynamic += isStatic[i] ? 0 : 1;
        }
        dynamicCount = dynamic;
        bodyId = new long[n];
        java.util.Arrays.fill(bodyId, -1);
        bound = world.cables().isEmpty() && world.deformables().isEmpty();
        json = buildJson();
    }

    /**
     * Adds the world's cables' segments and deformable bodies' nodes as entities, once, from the
     * first {@link WorldRunner} given (another view, such as a distributed primary's, adds none:
     * such runs refuse cables and deformable bodies). Call before {@link #sceneJson()}.
     *
     * @param view the run, on its stepping thread
     */
    public void bind(WorldView view) {
        if (bound || !(view instanceof WorldRunner runner)) {
            return;
        }
        bound = true;
        Map<String, long[]> ids = runner.elasticBodyIds();
        int extra = 0;
        for (long[] v : ids.values()) {
            extra += v.length;
        }
        int n = model.length;
        model = java.util.Arrays.copyOf(model, n + extra);
        link = java.util.Arrays.copyOf(link, n + extra);
        modelIndex = java.util.Arrays.copyOf(modelIndex, n + extra);
        bodyId = java.util.Arrays.copyOf(bodyId, n + extra);
        isStatic = java.util.Arrays.copyOf(isStatic, n + extra);
        int i = n;
        for (Map.Entry<String, long[]> e : ids.entrySet()) {
            for (int k = 0; k < e.getValue().length; k++, i++) {
                model[i] = e.getKey();
                link[i] = k;
                modelIndex[i] = -1;
                bodyId[i] = e.getValue()[k];
            }
        }
        dynamicCount += extra;
        elasticNames = List.copyOf(ids.keySet());
        surfaces = runner.deformableSurfaces();
        json = buildJson();
    }

    /** @return the number of entities (every link of every model) */
    public int entityCount() {
        return model.length;
    }

    /** @return the model entity id belongs to */
    public String model(int id) {
        return model[id];
    }

    /** @return the index, in its model, of the link entity id is */
    public int link(int id) {
        return link[id];
    }

    /** @return whether entity id belongs to a static model (never in a frame) */
    public boolean isStatic(int id) {
        return isStatic[id];
    }

    /** @return the scene message: {@code {"type":"scene",...}} (the same string every call) */
    public String sceneJson() {
        return json;
    }

    /**
     * The moving entities' poses now: every link of every loaded model that is not static.
     *
     * @param view the run, read on its stepping thread
     * @return a new buffer holding one {@link PoseFrame} (position 0, limit its length, little-endian);
     *         the only allocation
     */
    public ByteBuffer frame(WorldView view) {
        byte[] b = new byte[frameBytes()];
        return ByteBuffer.wrap(b, 0, frame(view, b, 0)).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** @return the most bytes a {@link #frame} of this scene takes: every moving entity's record */
    public int frameBytes() {
        return PoseFrame.bytes(dynamicCount);
    }

    /**
     * The moving entities' poses now, packed into a caller's array (a recording packs every
     * iteration into blocks it hands to its writer). Allocates nothing for a {@link WorldRunner}.
     *
     * @param view the run, read on its stepping thread
     * @param out  receives one {@link PoseFrame}, with at least {@link #frameBytes()} bytes from off
     * @param off  where the frame starts
     * @return the frame's length in bytes
     */
    public int frame(WorldView view, byte[] out, int off) {
        if (out.length - off < frameBytes()) {
            throw new IllegalArgumentException("a frame needs " + frameBytes() + " bytes, " + (out.length - off) + " left");
        }
        int at = off + PoseFrame.HEADER_BYTES;
        int n = 0;
        // a runner's link poses by handle: no lookup by name, no Pose per link
        WorldRunner runner = view instanceof WorldRunner r ? r : null;
        double[] q = scratch;
        for (int i = 0; i < model.length; i++) {
            if (isStatic[i]) {
                continue;
            }
            boolean have;
            if (bodyId[i] >= 0) {
                have = runner != null && runner.bodyPose(bodyId[i], q);
            } else if (runner != null) {
                have = runner.linkPose(modelIndex[i], link[i], q);
            } else {
                // another view (a distributed primary's scene): the link's Pose by name, written as it is
                Pose p = view.linkPose(model[i], link[i]);
                if (p != null) {
                    PoseFrame.writeRecord(out, at, i, p.x(), p.y(), p.z(), p.qw(), p.qx(), p.qy(), p.qz());
                    at += PoseFrame.RECORD_BYTES;
                    n++;
                }
                continue;
            }
            if (have) {
                PoseFrame.writeRecord(out, at, i, q[0], q[1], q[2], q[3], q[4], q[5], q[6]);
                at += PoseFrame.RECORD_BYTES;
                n++;
            }
        }
        PoseFrame.writeHeader(out, off, view.iteration(), view.simTimeNs(), n);
        return at - off;
    }

    /**
     * The state message: {@code {"type":"state","iteration":..,"simTimeS":..,"loaded":[models],
     * "levels":[loaded levels],"static":[[id,x,y,z,qx,qy,qz,qw],..],"colors":{model:[r,g,b]},
     * "owners":{model:secondary}}} (colors: the models recoloured while running).
     *
     * @param view         the run, read on its stepping thread
     * @param loadedLevels the levels loaded now
     * @param owners       which secondary simulates each model (empty standalone)
     * @return the message
     */
    public String stateJson(WorldView view, Collection<String> loadedLevels, Map<String, String> owners) {
        StringBuilder s = new StringBuilder(256);
        s.append("{\"type\":\"state\",\"iteration\":").append(view.iteration()).append(",\"simTimeS\":")
                .append(view.simTimeNs() / 1e9).append(",\"loaded\":[");
        List<String> loaded = view.loadedModels();
        for (int i = 0; i < loaded.size(); i++) {
            s.append(i == 0 ? "" : ",");
            string(s, loaded.get(i));
        }
        for (int i = 0; i < elasticNames.size(); i++) {
            s.append(i + loaded.size() == 0 ? "" : ",");
            string(s, elasticNames.get(i));
        }
        s.append("],\"levels\":[");
        int k = 0;
        for (String l : loadedLevels) {
            s.append(k++ == 0 ? "" : ",");
            string(s, l);
        }
        s.append("],\"static\":[");
        k = 0;
        for (int i = 0; i < model.length; i++) {
            if (!isStatic[i]) {
                continue;
            }
            Pose p = view.linkPose(model[i], link[i]);
            if (p != null) {
                s.append(k++ == 0 ? "[" : ",[").append(i);
                pose(s.append(','), p);
                s.append(']');
            }
        }
        s.append("],\"colors\":{");
        k = 0;
        for (Map.Entry<String, double[]> e : view.visualColors().entrySet()) {
            s.append(k++ == 0 ? "" : ",");
            string(s, e.getKey());
            double[] c = e.getValue();
            s.append(":[").append(c[0]).append(',').append(c[1]).append(',').append(c[2]).append(']');
        }
        s.append("},\"owners\":{");
        k = 0;
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(owners).entrySet()) {
            s.append(k++ == 0 ? "" : ",");
            string(s, e.getKey());
            s.append(':');
            string(s, e.getValue());
        }
        return s.append("}}").toString();
    }

    private String buildJson() {
        StringBuilder s = new StringBuilder(1024);
        s.append("{\"type\":\"scene\",\"version\":1,\"world\":");
        string(s, world.name());
        s.append(",\"stepSizeNs\":").append(world.stepSizeNs()).append(",\"entities\":[");
        int id = 0;
        for (World.Model m : world.models()) {
            for (World.Link l : m.links()) {
                s.append(id == 0 ? "{" : ",{").append("\"id\":").append(id++).append(",\"model\":");
                string(s, m.name());
                s.append(",\"link\":");
                string(s, l.name());
                s.append(",\"static\":").append(m.isStatic()).append(",\"visuals\":[");
                int v = 0;
                if (!l.visuals().isEmpty()) {
                    for (World.Visual vis : l.visuals()) {
                        v = visual(s, v, vis.pose(), vis.geometry(), vis.rgba());
                    }
                } else {
                    for (World.Collision c : l.collisions()) {
                        v = visual(s, v, c.pose(), c.geometry(), COLLISION_RGBA);
                    }
                }
                s.append("]}");
            }
        }
        for (; id < model.length; id++) {
            s.append(id == 0 ? "{" : ",{").append("\"id\":").append(id).append(",\"model\":");
            string(s, model[id]);
            s.append(",\"link\":");
            string(s, Integer.toString(link[id]));
            s.append(",\"static\":false,\"visuals\":[");
            elasticVisual(s, model[id]);
            s.append("]}");
        }
        s.append("],\"models\":[");
        for (int i = 0; i < world.models().size(); i++) {
            World.Model m = world.models().get(i);
            s.append(i == 0 ? "{" : ",{").append("\"name\":");
            string(s, m.name());
            s.append(",\"static\":").append(m.isStatic()).append('}');
        }
        for (int i = 0; i < elasticNames.size(); i++) {
            s.append(i + world.models().size() == 0 ? "{" : ",{").append("\"name\":");
            string(s, elasticNames.get(i));
            s.append(",\"static\":false}");
        }
        s.append("],\"levels\":[");
        for (int i = 0; i < world.levels().size(); i++) {
            World.Level l = world.levels().get(i);
            s.append(i == 0 ? "{" : ",{").append("\"name\":");
            string(s, l.name());
            s.append(",\"center\":[").append(l.x()).append(',').append(l.y()).append(',').append(l.z())
                    .append("],\"size\":[").append(l.sizeX()).append(',').append(l.sizeY()).append(',').append(l.sizeZ())
                    .append("],\"buffer\":").append(l.buffer()).append(",\"models\":[");
            for (int j = 0; j < l.refs().size(); j++) {
                s.append(j == 0 ? "" : ",");
                string(s, l.refs().get(j));
            }
            s.append("]}");
        }
        s.append("],\"surfaces\":[");
        int k = 0;
        for (Map.Entry<String, int[]> e : surfaces.entrySet()) {
            s.append(k++ == 0 ? "{\"model\":" : ",{\"model\":");
            string(s, e.getKey());
            s.append(",\"rgba\":[").append(DEFORMABLE_RGBA[0]).append(',').append(DEFORMABLE_RGBA[1]).append(',')
                    .append(DEFORMABLE_RGBA[2]).append(',').append(DEFORMABLE_RGBA[3]).append("],\"triangles\":[");
            int[] t = e.getValue();
            for (int i = 0; i < t.length; i++) {
                s.append(i == 0 ? "" : ",").append(t[i]);
            }
            s.append("]}");
        }
        s.append("],\"performers\":[");
        for (int i = 0; i < world.performers().size(); i++) {
            World.Performer p = world.performers().get(i);
            s.append(i == 0 ? "{" : ",{").append("\"name\":");
            string(s, p.name());
            s.append(",\"model\":");
            string(s, p.ref());
            s.append(",\"size\":[").append(p.sizeX()).append(',').append(p.sizeY()).append(',').append(p.sizeZ()).append("]}");
        }
        return s.append("]}").toString();
    }

    /** a cable segment's capsule (along its body's z); nothing for a deformable node */
    private void elasticVisual(StringBuilder s, String name) {
        for (World.Cable c : world.cables()) {
            if (c.name().equals(name)) {
                double length = Math.sqrt(Math.pow(c.toX() - c.fromX(), 2) + Math.pow(c.toY() - c.fromY(), 2)
                        + Math.pow(c.toZ() - c.fromZ(), 2)) / c.segments();
                visual(s, 0, Pose.IDENTITY, new Geometry.Capsule(c.diameter() / 2, length), CABLE_RGBA);
                return;
            }
        }
        // a deformable body's node: no visual of its own (its body's surface mesh)
    }

    private static int visual(StringBuilder s, int v, Pose pose, Geometry g, double[] rgba) {
        s.append(v == 0 ? "{" : ",{").append("\"pose\":[");
        pose(s, pose);
        s.append("],\"rgba\":[").append(rgba[0]).append(',').append(rgba[1]).append(',').append(rgba[2]).append(',')
                .append(rgba[3]).append("],\"geometry\":");
        if (g instanceof Geometry.Box b) {
            s.append("{\"type\":\"box\",\"size\":[").append(b.sizeX()).append(',').append(b.sizeY()).append(',')
                    .append(b.sizeZ()).append("]}");
        } else if (g instanceof Geometry.Sphere sp) {
            s.append("{\"type\":\"sphere\",\"radius\":").append(sp.radius()).append('}');
        } else if (g instanceof Geometry.Cylinder c) {
            s.append("{\"type\":\"cylinder\",\"radius\":").append(c.radius()).append(",\"length\":").append(c.length())
                    .append('}');
        } else if (g instanceof Geometry.Capsule c) {
            s.append("{\"type\":\"capsule\",\"radius\":").append(c.radius()).append(",\"length\":").append(c.length())
                    .append('}');
        } else if (g instanceof Geometry.Plane p) {
            s.append("{\"type\":\"plane\",\"normal\":[").append(p.nx()).append(',').append(p.ny()).append(',')
                    .append(p.nz()).append("],\"size\":[").append(p.sizeX()).append(',').append(p.sizeY()).append("]}");
        } else if (g instanceof Geometry.Mesh m) {
            mesh(s, m);
        } else {
            throw new IllegalStateException("no viewer shape for " + g);
        }
        s.append('}');
        return v + 1;
    }

    /** a mesh's parts merged: positions (m, single precision is plenty for display) and triangle corners */
    private static void mesh(StringBuilder s, Geometry.Mesh m) {
        s.append("{\"type\":\"mesh\",\"uri\":");
        string(s, m.uri());
        s.append(",\"positions\":[");
        int base = 0;
        boolean first = true;
        for (TriangleMesh.Part p : m.mesh().parts()) {
            for (int v = 0; v < p.vertexCount(); v++) {
                for (int a = 0; a < 3; a++) {
                    s.append(first ? "" : ",").append((float) p.coordinate(v, a));
                    first = false;
                }
            }
        }
        s.append("],\"indices\":[");
        first = true;
        for (TriangleMesh.Part p : m.mesh().parts()) {
            for (int t = 0; t < p.triangleCount(); t++) {
                for (int c = 0; c < 3; c++) {
                    s.append(first ? "" : ",").append(base + p.corner(t, c));
                    first = false;
                }
            }
            base += p.vertexCount();
        }
        s.append("]}");
    }

    /** x, y, z, qx, qy, qz, qw */
    private static void pose(StringBuilder s, Pose p) {
        s.append(p.x()).append(',').append(p.y()).append(',').append(p.z()).append(',').append(p.qx()).append(',')
                .append(p.qy()).append(',').append(p.qz()).append(',').append(p.qw());
    }

    /** a JSON string literal */
    static void string(StringBuilder s, String text) {
        s.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                default -> {
                    if (c < 0x20) {
                        s.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        s.append(c);
                    }
                }
            }
        }
        s.append('"');
    }

    /** @return text as a JSON string literal (allocates) */
    public static String jsonString(String text) {
        StringBuilder s = new StringBuilder(text.length() + 2);
        string(s, text);
        return s.toString();
    }
}
