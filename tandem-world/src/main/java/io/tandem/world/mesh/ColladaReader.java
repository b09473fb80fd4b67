package io.tandem.world.mesh;

import io.tandem.world.internal.XmlTree;
import io.tandem.world.internal.XmlTree.Element;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/*
 * COLLADA 1.4 and 1.5 [1, 2] geometry, the way Gazebo's ColladaLoader [3] reads it.
 *
 *  - <asset><unit meter="m"/> scales everything (default 1); <up_axis> per UpAxisHandling (Gazebo
 *    ignores it [4]; the specification rotates Y_UP and X_UP to Z_UP).
 *  - <library_geometries><geometry><mesh>: <source><float_array> with its <accessor> (stride at
 *    least 3, x y z first), <vertices><input semantic="POSITION" source="#...">; primitives
 *    <triangles>, <polylist> (<vcount>), <polygons> (one <p> per polygon, the <p> of a <ph>),
 *    <trifans> and <tristrips> (one <p> per fan or strip). A primitive's inputs interleave in <p>:
 *    stride = the largest offset + 1, the VERTEX input's offset picks the position index. Normals,
 *    texture coordinates, colours and materials are not read; <lines>, <linestrips>, <convex_mesh>,
 *    <spline> are skipped.
 *  - The visual scene (<scene><instance_visual_scene url>, else the first) is walked depth first:
 *    a node's <matrix> (16 numbers, row-major, column vectors), <translate>, <rotate> (axis,
 *    degrees), <scale> and <lookat> compose in document order onto its parent's; each
 *    <instance_geometry>, and the skin's source geometry of an <instance_controller> (with its
 *    <bind_shape_matrix>, at rest), becomes a part with that transform, named after the node (its
 *    name, id, or an ancestor's), else the geometry; <instance_node> instantiates a node there.
 *    When no scene instantiates a geometry, each geometry is a part, untransformed.
 *  - The document is read whole with XmlTree (SAX, no DTDs or external entities; "--" allowed in
 *    comments, as TinyXML2 does), so the file limit is lower than for STL and OBJ.
 *
 * [1] Khronos, "COLLADA - Digital Asset Schema Release 1.4.1 Specification", 2nd ed., 2008.
 * [2] Khronos, "COLLADA - Digital Asset Schema Release 1.5.0 Specification", 2008.
 * [3] gazebosim/gz-common, graphics/src/ColladaLoader.cc.
 * [4] gazebosim/gazebo-classic issue 1305, "Collada up_axis tag"; ros-visualization/rviz issue 1045.
 */
final class ColladaReader {
    static final String EMPTY_HINT = "export the mesh's faces (<triangles>, <polylist> or <polygons>), not only lines"
            + " or points";
    private static final int MAX_NODE_DEPTH = 128;
    private static final int MAX_NODE_VISITS = 100_000;
    private static final int MAX_INPUT_OFFSET = 255;

    private final Path file;
    private final MeshAssembler out;
    private final Map<String, Element> ids = new HashMap<>();
    private final Map<Element, GeometryData> geometries = new IdentityHashMap<>();
    private double[] base = AffineOps.identity(); // up axis x unit
    private int visits;
    private int instances;

    /** A geometry's triangles over the positions of the sources its primitives use. */
    private static final class GeometryData {
        final String name;
        final Map<Element, Integer> sourceStart = new IdentityHashMap<>();
        double[] positions = new double[0]; // (3 vertexCount), as written
        int vertexCount;
        int[] triangles = new int[3 * 16]; // (3 triangleCount)
        int triangleCount;

        GeometryData(String name) {
            this.name = name;
        }

        void triangle(int a, int b, int c) {
            if (3 * triangleCount + 3 > triangles.length) {
                triangles = Arrays.copyOf(triangles, 2 * triangles.length);
            }
            triangles[3 * triangleCount] = a;
            triangles[3 * triangleCount + 1] = b;
            triangles[3 * triangleCount + 2] = c;
            triangleCount++;
        }
    }

    private ColladaReader(Path file, MeshAssembler out) {
        this.file = file;
        this.out = out;
    }

    static void read(Path file, InputStream in, MeshAssembler out, UpAxisHandling upAxis) throws IOException {
        // read first, so that an IOException of the parser (an unknown encoding) is the document's fault
        byte[] bytes = in.readAllBytes();
        Element root;
        try {
            root = XmlTree.parse(new ByteArrayInputStream(bytes));
        } catch (SAXParseException e) {
            throw MeshErrors.at(file, Math.max(0, e.getLineNumber()), "not well-formed XML: " + e.getMessage()
                    + "; fix the XML or re-export the mesh (is the file cut short?)");
        } catch (SAXException | IOException e) {
            throw MeshErrors.at(file, 0, "not well-formed XML: " + e
                    + "; fix the XML or re-export the mesh (as UTF-8)");
        }
        new ColladaReader(file, out).read(root, upAxis);
    }

    private void read(Element root, UpAxisHandling upAxis) {
        if (!local(root).equals("COLLADA")) {
            throw MeshErrors.at(file, root.line, "the root element is <" + root.name + ">, not <COLLADA>; a .dae file"
                    + " must be a COLLADA document (re-export the mesh as COLLADA)");
        }
        indexIds(root);
        asset(child(root, "asset"), upAxis);
        List<Element> all = new ArrayList<>();
        for (Element library : children(root, "library_geometries")) {
            all.addAll(children(library, "geometry"));
        }
        if (all.isEmpty()) {
            throw MeshErrors.at(file, root.line, "the document has no <geometry> in <library_geometries>, so no mesh;"
                    + " export the model's meshes (not only its scene, cameras or lights)");
        }
        Element visualScene = null;
        Element scene = child(root, "scene");
        Element instance = scene == null ? null : child(scene, "instance_visual_scene");
        if (instance != null) {
            visualScene = resolve(instance, "url", "visual_scene");
        } else {
            for (Element library : children(root, "library_visual_scenes")) {
                visualScene = child(library, "visual_scene");
                if (visualScene != null) {
                    break;
                }
            }
        }
        if (visualScene != null) {
            for (Element node : children(visualScene, "node")) {
                node(node, AffineOps.identity(), 0, null);
            }
        }
        if (instances == 0) {
            for (Element g : all) {
                emit(g, AffineOps.identity(), null, g.line);
            }
        }
    }

    private void indexIds(Element root) {
        Deque<Element> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            Element e = stack.pop();
            String id = e.attribute("id");
            if (id != null) {
                ids.putIfAbsent(id, e);
            }
            for (int i = e.children.size() - 1; i >= 0; i--) {
                stack.push(e.children.get(i));
            }
        }
    }

    private void asset(Element asset, UpAxisHandling upAxis) {
        double meter = 1;
        Element unit = asset == null ? null : child(asset, "unit");
        if (unit != null && unit.attribute("meter") != null) {
            String text = unit.attribute("meter").trim();
            if (!MeshNumbers.isDecimal(text) || !(Double.parseDouble(text) > 0)
                    || !Double.isFinite(Double.parseDouble(text))) {
                throw MeshErrors.at(file, unit.line, "<unit meter=" + MeshErrors.quote(text) + "> is not a positive"
                        + " number of metres per unit; write e.g. meter=\"0.01\" for centimetres or meter=\"1\"");
            }
            meter = Double.parseDouble(text);
        }
        double[] up = AffineOps.identity();
        if (upAxis == UpAxisHandling.ROTATE_TO_Z_UP) {
            Element axis = asset == null ? null : child(asset, "up_axis");
            String value = axis == null ? "Y_UP" : axis.text();
            if (value.equals("Y_UP")) {
                // (x, y, z) -> (x, -z, y)
                up = new double[] {1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1};
            } else if (value.equals("X_UP")) {
                // right is -y, up is x, in is z: (x, y, z) -> (-y, -z, x)
                up = new double[] {0, -1, 0, 0, 0, 0, -1, 0, 1, 0, 0, 0, 0, 0, 0, 1};
            } else if (!value.equals("Z_UP")) {
                throw MeshErrors.at(file, axis.line, "<up_axis> is " + MeshErrors.quote(value)
                        + "; write X_UP, Y_UP or Z_UP");
            }
        }
        base = AffineOps.multiply(up, AffineOps.scaling(meter, meter, meter));
    }

    private void node(Element node, double[] parent, int depth, String inherited) {
        if (depth > MAX_NODE_DEPTH) {
            throw MeshErrors.at(file, node.line, "nodes nest deeper than " + MAX_NODE_DEPTH + " levels; does an"
                    + " <instance_node> instantiate one of its own ancestors? remove the cycle");
        }
        if (++visits > MAX_NODE_VISITS) {
            throw MeshErrors.at(file, node.line, "the scene instantiates more than " + MAX_NODE_VISITS + " nodes;"
                    + " flatten the scene or its <instance_node> references");
        }
        double[] world = parent;
        for (Element c : node.children) {
            double[] t = transform(c);
            if (t != null) {
                world = AffineOps.multiply(world, t);
            }
        }
        String name = node.attribute("name") != null ? node.attribute("name")
                : node.attribute("id") != null ? node.attribute("id") : inherited;
        for (Element c : node.children) {
            String kind = local(c);
            if (kind.equals("instance_geometry")) {
                emit(resolve(c, "url", "geometry"), world, name, c.line);
            } else if (kind.equals("instance_controller")) {
                controller(c, world, name);
            } else if (kind.equals("instance_node")) {
                node(resolve(c, "url", "node"), world, depth + 1, name);
            } else if (kind.equals("node")) {
                node(c, world, depth + 1, name);
            }
        }
    }

    /** An instance_controller: the skin's (or morph's) source geometry at rest, under the bind shape matrix. */
    private void controller(Element instance, double[] world, String name) {
        Element controller = resolve(instance, "url", "controller");
        Element skin = child(controller, "skin");
        Element source = skin != null ? skin : child(controller, "morph");
        if (source == null) {
            throw MeshErrors.at(file, controller.line, "<controller> has neither <skin> nor <morph>; give it one or"
                    + " instantiate the geometry with <instance_geometry>");
        }
        Element target = resolve(source, "source", null);
        if (local(target).equals("morph")) {
            target = resolve(target, "source", null);
        }
        if (!local(target).equals("geometry")) {
            throw MeshErrors.at(file, source.line, "<" + source.name + " source> names a <" + target.name
                    + ">, not a <geometry>; point it at the mesh's geometry");
        }
        double[] m = world;
        Element bind = skin == null ? null : child(skin, "bind_shape_matrix");
        if (bind != null) {
            m = AffineOps.multiply(world, numbers(bind, 16, "16 numbers (a row-major 4 x 4 matrix)"));
        }
        emit(target, m, name, instance.line);
    }

    /** @return the local transform an element of a node stands for, or null when it is none */
    private double[] transform(Element e) {
        switch (local(e)) {
            case "matrix":
                return numbers(e, 16, "16 numbers (a row-major 4 x 4 matrix)");
            case "translate": {
                double[] v = numbers(e, 3, "3 numbers x y z");
                return AffineOps.translation(v[0], v[1], v[2]);
            }
            case "scale": {
                double[] v = numbers(e, 3, "3 numbers x y z");
                return AffineOps.scaling(v[0], v[1], v[2]);
            }
            case "rotate": {
                double[] v = numbers(e, 4, "4 numbers: the axis x y z and the angle in degrees");
                double[] axis = AffineOps.normalized(v[0], v[1], v[2]);
                if (axis == null) {
                    if (v[3] == 0) {
                        return null;
                    }
                    throw MeshErrors.at(file, e.line, "<rotate> has a zero axis; give a nonzero axis x y z before the"
                            + " angle");
                }
                return AffineOps.rotation(axis[0], axis[1], axis[2], v[3]);
            }
            case "lookat": {
                double[] v = numbers(e, 9, "9 numbers: eye, target and up, x y z each");
                double[] m = AffineOps.lookAt(Arrays.copyOfRange(v, 0, 3), Arrays.copyOfRange(v, 3, 6),
                        Arrays.copyOfRange(v, 6, 9));
                if (m == null) {
                    throw MeshErrors.at(file, e.line, "<lookat> has the eye on the target or the up along the view;"
                            + " move them apart");
                }
                return m;
            }
            case "skew":
                throw MeshErrors.at(file, e.line, "<skew> transforms are not supported; apply (bake) the node's"
                        + " transform into the mesh before exporting");
            default:
                return null;
        }
    }

    /** Adds a part: the geometry's triangles and the vertices they use, under base x world. */
    private void emit(Element geometryElement, double[] world, String nodeName, int line) {
        instances++;
        GeometryData g = geometry(geometryElement);
        double[] m = AffineOps.multiply(base, world);
        for (double v : m) {
            if (!Double.isFinite(v)) {
                throw MeshErrors.at(file, line, "the transform of this instance is not finite (a huge or NaN matrix,"
                        + " scale or unit); fix the node's transforms");
            }
        }
        PartBuilder part = out.part(nodeName != null ? nodeName : g.name);
        if (g.triangleCount == 0) {
            return;
        }
        out.requireRoom(g.triangleCount, line);
        part.mirrored = AffineOps.determinant3(m) < 0;
        int[] remap = new int[g.vertexCount];
        Arrays.fill(remap, -1);
        int[] corner = new int[3];
        double[] p = g.positions;
        for (int t = 0; t < g.triangleCount; t++) {
            for (int k = 0; k < 3; k++) {
                int v = g.triangles[3 * t + k];
                if (remap[v] < 0) {
                    double x = p[3 * v];
                    double y = p[3 * v + 1];
                    double z = p[3 * v + 2];
                    remap[v] = part.add(m[0] * x + m[1] * y + m[2] * z + m[3], m[4] * x + m[5] * y + m[6] * z + m[7],
                            m[8] * x + m[9] * y + m[10] * z + m[11]);
                }
                corner[k] = remap[v];
            }
            part.triangle(corner[0], corner[1], corner[2], line);
        }
    }

    private GeometryData geometry(Element geometry) {
        GeometryData cached = geometries.get(geometry);
        if (cached != null) {
            return cached;
        }
        String name = geometry.attribute("name") != null ? geometry.attribute("name")
                : geometry.attribute("id") != null ? geometry.attribute("id") : MeshErrors.stem(file);
        GeometryData g = new GeometryData(name);
        Element mesh = child(geometry, "mesh");
        if (mesh != null) {
            for (Element c : mesh.children) {
                String kind = local(c);
                if (kind.equals("triangles") || kind.equals("polylist") || kind.equals("polygons")
                        || kind.equals("trifans") || kind.equals("tristrips")) {
                    primitive(g, c, kind);
                }
            }
        }
        geometries.put(geometry, g);
        return g;
    }

    private void primitive(GeometryData g, Element primitive, String kind) {
        Element vertexInput = null;
        int maxOffset = 0;
        for (Element input : children(primitive, "input")) {
            int offset = intAttribute(input, "offset", 0, MAX_INPUT_OFFSET);
            maxOffset = Math.max(maxOffset, offset);
            if ("VERTEX".equals(input.attribute("semantic")) && vertexInput == null) {
                vertexInput = input;
            }
        }
        if (vertexInput == null) {
            throw MeshErrors.at(file, primitive.line, "<" + primitive.name + "> has no <input semantic=\"VERTEX\">, so"
                    + " no positions; add one naming the mesh's <vertices>");
        }
        int stride = maxOffset + 1;
        int offset = intAttribute(vertexInput, "offset", 0, MAX_INPUT_OFFSET);
        Element source = positionSource(vertexInput);
        int start = sourceStart(g, source);
        int count = sourceCount(g, source);
        Indices at = new Indices(g, start, count, stride, offset, source);
        switch (kind) {
            case "triangles":
                for (Element p : children(primitive, "p")) {
                    int[] ints = at.read(p);
                    if (ints.length % (3 * stride) != 0) {
                        throw MeshErrors.at(file, p.line, "<p> holds " + ints.length
                                + " indices, not a multiple of 3 x " + stride + " (3 corners, " + stride
                                + " inputs each); fix the indices or the inputs");
                    }
                    for (int c = 0; c + 2 < ints.length / stride; c += 3) {
                        at.triangle(ints, c, c + 1, c + 2, p);
                    }
                }
                break;
            case "polylist": {
                Element p = child(primitive, "p");
                if (p == null) {
                    break;
                }
                Element vcount = child(primitive, "vcount");
                if (vcount == null) {
                    throw MeshErrors.at(file, primitive.line, "<polylist> has a <p> but no <vcount>; add <vcount> with"
                            + " the number of corners of each polygon");
                }
                int[] counts = ints(vcount, "<vcount>");
                int[] ints = at.read(p);
                long corners = 0;
                for (int c : counts) {
                    corners += c;
                }
                if (corners > ints.length || corners * stride != ints.length) {
                    throw MeshErrors.at(file, p.line, "<p> holds " + ints.length + " indices, but <vcount> (line "
                            + vcount.line + ") counts " + corners + " corners of " + stride + " inputs each = "
                            + corners * stride + "; make them agree");
                }
                int first = 0;
                for (int c : counts) {
                    for (int k = 1; k + 1 < c; k++) {
                        at.triangle(ints, first, first + k, first + k + 1, p);
                    }
                    first += c;
                }
                break;
            }
            case "polygons":
                for (Element c : primitive.children) {
                    Element p = local(c).equals("p") ? c : local(c).equals("ph") ? child(c, "p") : null;
                    if (p != null) {
                        int[] ints = at.read(p);
                        at.requireWhole(ints, p);
                        for (int k = 1; k + 1 < ints.length / stride; k++) {
                            at.triangle(ints, 0, k, k + 1, p);
                        }
                    }
                }
                break;
            case "trifans":
                for (Element p : children(primitive, "p")) {
                    int[] ints = at.read(p);
                    at.requireWhole(ints, p);
                    for (int k = 1; k + 1 < ints.length / stride; k++) {
                        at.triangle(ints, 0, k, k + 1, p);
                    }
                }
                break;
            default: // tristrips: every other triangle turned back to keep the winding
                for (Element p : children(primitive, "p")) {
                    int[] ints = at.read(p);
                    at.requireWhole(ints, p);
                    for (int k = 0; k + 2 < ints.length / stride; k++) {
                        if (k % 2 == 0) {
                            at.triangle(ints, k, k + 1, k + 2, p);
                        } else {
                            at.triangle(ints, k + 1, k, k + 2, p);
                        }
                    }
                }
                break;
        }
    }

    /** Reads one primitive's index lists and adds its triangles, each VERTEX index checked. */
    private final class Indices {
        final GeometryData g;
        final int start;
        final int count;
        final int stride;
        final int offset;
        final Element source;

        Indices(GeometryData g, int start, int count, int stride, int offset, Element source) {
            this.g = g;
            this.start = start;
            this.count = count;
            this.stride = stride;
            this.offset = offset;
            this.source = source;
        }

        int[] read(Element p) {
            return ints(p, "<p>");
        }

        void requireWhole(int[] ints, Element p) {
            if (ints.length % stride != 0) {
                throw MeshErrors.at(file, p.line, "<p> holds " + ints.length + " indices, not a multiple of the "
                        + stride + " inputs of each corner; fix the indices or the inputs' offsets");
            }
        }

        /** Adds the triangle of corners a, b, c of the list. */
        void triangle(int[] ints, int a, int b, int c, Element p) {
            if (g.triangleCount >= MeshFile.MAX_TRIANGLES) {
                out.requireRoom(g.triangleCount + 1L, p.line);
            }
            g.triangle(vertex(ints, a, p), vertex(ints, b, p), vertex(ints, c, p));
        }

        private int vertex(int[] ints, int corner, Element p) {
            int v = ints[corner * stride + offset];
            if (v >= count) {
                String id = source.attribute("id");
                throw MeshErrors.at(file, p.line, "index " + v + " of the VERTEX input is out of range: its positions"
                        + (id == null ? "" : " (source #" + id + ")") + " hold " + count + " vertices, indices 0 to "
                        + (count - 1) + "; fix the index or the source");
            }
            return start + v;
        }
    }

    /** @return the <source> of positions a VERTEX input names (through <vertices>, or directly) */
    private Element positionSource(Element vertexInput) {
        Element target = resolve(vertexInput, "source", null);
        if (local(target).equals("source")) {
            return target;
        }
        if (!local(target).equals("vertices")) {
            throw MeshErrors.at(file, vertexInput.line, "the VERTEX input names a <" + target.name + ">, not the"
                    + " mesh's <vertices>; point it at the <vertices> id");
        }
        for (Element input : children(target, "input")) {
            if ("POSITION".equals(input.attribute("semantic"))) {
                return resolve(input, "source", "source");
            }
        }
        throw MeshErrors.at(file, target.line, "<vertices> has no <input semantic=\"POSITION\">; add one naming the"
                + " <source> of positions");
    }

    /** @return the index of the source's first vertex in the geometry's positions, reading it on first use */
    private int sourceStart(GeometryData g, Element source) {
        Integer start = g.sourceStart.get(source);
        if (start != null) {
            return start;
        }
        double[] xyz = positions(source);
        int n = xyz.length / 3;
        if ((long) g.vertexCount + n > ObjReader.MAX_VERTICES) {
            throw MeshErrors.at(file, source.line, "the geometry has more than " + ObjReader.MAX_VERTICES
                    + " vertices, the most Tandem reads; simplify the mesh (e.g. Blender's Decimate modifier)");
        }
        int s = g.vertexCount;
        g.positions = Arrays.copyOf(g.positions, 3 * (s + n));
        System.arraycopy(xyz, 0, g.positions, 3 * s, xyz.length);
        g.vertexCount = s + n;
        g.sourceStart.put(source, s);
        return s;
    }

    private int sourceCount(GeometryData g, Element source) {
        int s = g.sourceStart.get(source);
        int end = g.vertexCount;
        for (int other : g.sourceStart.values()) {
            if (other > s && other < end) {
                end = other;
            }
        }
        return end - s;
    }

    /** @return the positions of a <source>: x y z of each accessor element */
    private double[] positions(Element source) {
        Element array = child(source, "float_array");
        if (array == null) {
            throw MeshErrors.at(file, source.line, "the <source> of positions has no <float_array>; give it the x y z"
                    + " numbers of the vertices");
        }
        double[] numbers = floats(array);
        Element technique = child(source, "technique_common");
        Element accessor = technique == null ? null : child(technique, "accessor");
        int stride = 3;
        int offset = 0;
        long count = numbers.length / 3;
        int line = array.line;
        if (accessor != null) {
            line = accessor.line;
            stride = intAttribute(accessor, "stride", 1, Integer.MAX_VALUE);
            offset = intAttribute(accessor, "offset", 0, Integer.MAX_VALUE);
            if (stride < 3) {
                throw MeshErrors.at(file, accessor.line, "the <accessor> of positions has stride " + stride
                        + "; positions need x y z, so a stride of at least 3");
            }
            count = accessor.attribute("count") == null ? (numbers.length - offset) / stride
                    : intAttribute(accessor, "count", 0, Integer.MAX_VALUE);
        } else if (numbers.length % 3 != 0) {
            throw MeshErrors.at(file, array.line, "<float_array> holds " + numbers.length + " numbers, not x y z"
                    + " triples; add an <accessor> with the stride or fix the numbers");
        }
        if (count > 0 && offset + (count - 1) * stride + 3 > numbers.length) {
            throw MeshErrors.at(file, line, "the <accessor> reads " + count + " vertices of stride " + stride
                    + " from offset " + offset + ", but the <float_array> (line " + array.line + ") holds only "
                    + numbers.length + " numbers; fix the count or the numbers");
        }
        if (count > ObjReader.MAX_VERTICES) {
            throw MeshErrors.at(file, line, "the source has more than " + ObjReader.MAX_VERTICES
                    + " vertices, the most Tandem reads; simplify the mesh (e.g. Blender's Decimate modifier)");
        }
        int n = (int) Math.max(0, count);
        double[] xyz = new double[3 * n];
        for (int v = 0; v < n; v++) {
            System.arraycopy(numbers, offset + v * stride, xyz, 3 * v, 3);
        }
        return xyz;
    }

    /** @return the numbers of a <float_array>, all finite, as many as its count says */
    private double[] floats(Element array) {
        String text = array.text();
        int tokens = countTokens(text);
        int count = intAttribute(array, "count", tokens, Integer.MAX_VALUE);
        if (count != tokens) {
            throw MeshErrors.at(file, array.line, "<float_array count=\"" + count + "\"> holds " + tokens
                    + " numbers; make count match the numbers (is the list cut short?)");
        }
        double[] v = new double[tokens];
        int k = 0;
        int i = 0;
        int n = text.length();
        while (k < tokens) {
            while (isSpace(text.charAt(i))) {
                i++;
            }
            int from = i;
            while (i < n && !isSpace(text.charAt(i))) {
                i++;
            }
            v[k++] = MeshNumbers.parseFinite(text.substring(from, i), file, array.line, "number " + k + " of the"
                    + " <float_array>");
        }
        return v;
    }

    /** @return exactly {@code count} finite numbers from the element's text */
    private double[] numbers(Element e, int count, String expected) {
        String text = e.text();
        int tokens = countTokens(text);
        if (tokens != count) {
            throw MeshErrors.at(file, e.line, "<" + e.name + "> has " + tokens + " numbers; it needs " + expected);
        }
        double[] v = new double[count];
        int i = 0;
        for (int k = 0; k < count; k++) {
            while (isSpace(text.charAt(i))) {
                i++;
            }
            int from = i;
            while (i < text.length() && !isSpace(text.charAt(i))) {
                i++;
            }
            v[k] = MeshNumbers.parseFinite(text.substring(from, i), file, e.line, "number " + (k + 1) + " of <"
                    + e.name + ">");
        }
        return v;
    }

    /** @return the non-negative integers of an element's text */
    private int[] ints(Element e, String what) {
        String text = e.text();
        int[] v = new int[countTokens(text)];
        int k = 0;
        int i = 0;
        int n = text.length();
        while (k < v.length) {
            while (isSpace(text.charAt(i))) {
                i++;
            }
            int from = i;
            long value = 0;
            while (i < n && !isSpace(text.charAt(i))) {
                char c = text.charAt(i);
                if (c < '0' || c > '9' || value > Integer.MAX_VALUE) {
                    while (i < n && !isSpace(text.charAt(i))) {
                        i++;
                    }
                    throw MeshErrors.at(file, e.line, what + " holds " + MeshErrors.quote(text.substring(from, i))
                            + ", not an index; write non-negative whole numbers");
                }
                value = value * 10 + (c - '0');
                i++;
            }
            if (value > Integer.MAX_VALUE) {
                throw MeshErrors.at(file, e.line, what + " holds " + MeshErrors.quote(text.substring(from, i))
                        + ", past the largest index; fix the index");
            }
            v[k++] = (int) value;
        }
        return v;
    }

    private static int countTokens(String text) {
        int tokens = 0;
        boolean inToken = false;
        for (int i = 0; i < text.length(); i++) {
            boolean space = isSpace(text.charAt(i));
            if (!space && !inToken) {
                tokens++;
            }
            inToken = !space;
        }
        return tokens;
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    private int intAttribute(Element e, String key, int absent, int max) {
        String text = e.attribute(key);
        if (text == null) {
            return absent;
        }
        String t = text.trim();
        boolean digits = !t.isEmpty() && t.length() <= 10;
        for (int i = 0; digits && i < t.length(); i++) {
            digits = t.charAt(i) >= '0' && t.charAt(i) <= '9';
        }
        if (!digits || Long.parseLong(t) > max) {
            throw MeshErrors.at(file, e.line, "<" + e.name + " " + key + "=" + MeshErrors.quote(text)
                    + "> is not a whole number from 0 to " + max + "; fix it");
        }
        return Integer.parseInt(t);
    }

    /**
     * @param kind the local name the referenced element must have, or null for any
     * @return the element a "#id" attribute names
     */
    private Element resolve(Element referrer, String attribute, String kind) {
        String url = referrer.attribute(attribute);
        if (url == null) {
            throw MeshErrors.at(file, referrer.line, "<" + referrer.name + "> has no " + attribute + " attribute; give"
                    + " it \"#id\" of the element it refers to");
        }
        if (!url.startsWith("#")) {
            throw MeshErrors.at(file, referrer.line, "<" + referrer.name + " " + attribute + "=" + MeshErrors.quote(url)
                    + "> refers outside this file; Tandem reads one file: merge the meshes into it and refer with"
                    + " \"#id\"");
        }
        Element target = ids.get(url.substring(1));
        if (target == null) {
            throw MeshErrors.at(file, referrer.line, "<" + referrer.name + " " + attribute + "=" + MeshErrors.quote(url)
                    + "> names no element of this file; fix the id");
        }
        if (kind != null && !local(target).equals(kind)) {
            throw MeshErrors.at(file, referrer.line, "<" + referrer.name + " " + attribute + "=" + MeshErrors.quote(url)
                    + "> names a <" + target.name + ">, not a <" + kind + ">; fix the id");
        }
        return target;
    }

    private static String local(Element e) {
        int colon = e.name.indexOf(':');
        return colon < 0 ? e.name : e.name.substring(colon + 1);
    }

    private static Element child(Element parent, String localName) {
        for (Element c : parent.children) {
            if (local(c).equals(localName)) {
                return c;
            }
        }
        return null;
    }

    private static List<Element> children(Element parent, String localName) {
        List<Element> out = new ArrayList<>();
        for (Element c : parent.children) {
            if (local(c).equals(localName)) {
                out.add(c);
            }
        }
        return out;
    }
}
