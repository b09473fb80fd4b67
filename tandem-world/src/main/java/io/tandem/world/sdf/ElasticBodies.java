package io.tandem.world.sdf;

import io.tandem.world.Pose;
import io.tandem.world.World;
import io.tandem.world.internal.XmlTree.Element;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/*
 * Implementation notes.
 *
 * Tandem's SDF extension elements for elastic bodies, children of <world> (libsdformat keeps and
 * ignores elements with a namespace prefix, so Gazebo still loads the file; declare xmlns:tandem on
 * <sdf> for it):
 *   <tandem:cable name>: <from>, <to> (world frame, m), <segments>, <diameter> (m), <material>,
 *     optional <segments_per_subsystem> (10) and up to one <attach end="start|end" model link/> per end;
 *   <tandem:deformable name>: optional <pose> (world frame), <box><size><cells></box> or
 *     <mesh><uri> (a Gmsh .msh or TetGen .node file, relative to the world file), <material>,
 *     optional <rayleigh alpha beta/> (0 0), <blocks> (1), <node_radius> (0.001 m) and any number
 *     of <weld model link><min><max></weld> (world-aligned boxes, world frame, at the start).
 * <material> holds <youngs_modulus> (Pa), <poisson_ratio> and <density> (kg/m^3).
 *
 * Every value the physics builders would refuse (CableBuilder, DeformableBuilder) is checked here
 * first, so the message names the element's file:line and its SDF name; what only the builders
 * can see (a weld box holding no node, a mesh file's own contents) the compiler reports with the
 * element's line. An anchor (attach, weld) names a model of the world and one of its links (a
 * model of one link may leave the link out), or neither for the world; the model must be outside
 * every level, since levels unload their models and cables and deformable bodies stay loaded.
 */

/** Reads {@code <tandem:cable>} and {@code <tandem:deformable>} of a world. Build-time only; not thread-safe. */
final class ElasticBodies {
    private static final Set<String> CABLE_CHILDREN = Set.of("from", "to", "segments", "diameter", "material",
            "segments_per_subsystem", "attach");
    private static final Set<String> DEFORMABLE_CHILDREN = Set.of("pose", "box", "mesh", "material", "rayleigh", "blocks",
            "node_radius", "weld");
    private static final Set<String> MATERIAL_CHILDREN = Set.of("youngs_modulus", "poisson_ratio", "density");

    /** the most cells of a meshed box (6 x 10^5 tetrahedra, far beyond what steps in real time) */
    static final long MAX_CELLS = 100_000;

    private final SdfLoader loader;
    private final Path dir;
    private final Map<String, World.Model> models = new LinkedHashMap<>();
    /** per model named by a level's ref: that level */
    private final Map<String, String> levelOf = new HashMap<>();
    /** per cable or deformable body read so far: its line */
    private final Map<String, Integer> names = new HashMap<>();

    /**
     * @param loader the loader (numbers, poses, messages)
     * @param dir    the world file's folder: relative mesh paths start there
     * @param models the world's models
     * @param levels the world's levels
     */
    ElasticBodies(SdfLoader loader, Path dir, List<World.Model> models, List<World.Level> levels) {
        this.loader = loader;
        this.dir = dir;
        for (World.Model m : models) {
            this.models.put(m.name(), m);
        }
        for (World.Level l : levels) {
            for (String ref : l.refs()) {
                levelOf.putIfAbsent(ref, l.name());
            }
        }
    }

    /** A {@code <tandem:cable>}. */
    World.Cable cable(Element e) {
        String name = name(e);
        String what = "cable '" + name + "'";
        ignoreOthers(e, CABLE_CHILDREN);
        double[] from = loader.vector(child(e, "from", what, "its start point x y z, world frame, m"), 3);
        double[] to = loader.vector(child(e, "to", what, "its end point x y z, world frame, m"), 3);
        double dx = to[0] - from[0];
        double dy = to[1] - from[1];
        double dz = to[2] - from[2];
        if (!(Math.sqrt(dx * dx + dy * dy + dz * dz) > 1e-9)) {
            throw loader.error(e, what + ": <from> and <to> are the same point; the cable runs straight from one to the"
                    + " other, so give them apart");
        }
        Element s = child(e, "segments", what, "how many rigid segments, at least 1");
        int segments = loader.integer(s);
        if (segments < 1) {
            throw loader.error(s, what + " has <segments> " + segments + ": a cable with zero segments cannot be built;"
                    + " give at least 1 (e.g. 40 for a 2 m cable of 5 cm segments)");
        }
        double diameter = positive(child(e, "diameter", what, "its cross-section's diameter, m"), what, "m");
        World.Material material = material(e, what);
        int perSubsystem = 10;
        Element per = e.child("segments_per_subsystem");
        if (per != null) {
            perSubsystem = loader.integer(per);
            if (perSubsystem < 1) {
                throw loader.error(per, what + ": <segments_per_subsystem> must be at least 1, got " + perSubsystem);
            }
        }
        World.Anchor start = null;
        World.Anchor end = null;
        for (Element a : e.children("attach")) {
            String which = a.attribute("end");
            if ("start".equals(which)) {
                if (start != null) {
                    throw loader.error(a, what + ": a second <attach end=\"start\">; an end is welded to one thing");
                }
                start = anchor(a, what);
            } else if ("end".equals(which)) {
                if (end != null) {
                    throw loader.error(a, what + ": a second <attach end=\"end\">; an end is welded to one thing");
                }
                end = anchor(a, what);
            } else {
                throw loader.error(a, what + ": <attach> has end=\"" + (which == null ? "" : which) + "\"; use end=\"start\""
                        + " (the <from> point) or end=\"end\" (the <to> point)");
            }
        }
        return new World.Cable(name, from[0], from[1], from[2], to[0], to[1], to[2], segments, diameter, material, perSubsystem,
                start, end, e.line);
    }

    /** A {@code <tandem:deformable>}. */
    World.Deformable deformable(Element e) {
        String name = name(e);
        String what = "deformable '" + name + "'";
        ignoreOthers(e, DEFORMABLE_CHILDREN);
        Pose pose = Pose.IDENTITY;
        Element p = e.child("pose");
        if (p != null) {
            String rel = p.attribute("relative_to");
            if (rel != null && !rel.isEmpty() && !rel.equals("world")) {
                throw loader.error(p, what + ": its <pose> is in the world frame; relative_to=\"" + rel + "\" is not"
                        + " supported here (give the pose in the world, or weld it to the model)");
            }
            pose = loader.pose(p);
        }
        Element box = e.child("box");
        Element mesh = e.child("mesh");
        if (box != null && mesh != null) {
            throw loader.error(e, what + " has both <box> and <mesh>: give one (a meshed box, or a tetrahedral mesh file)");
        }
        if (box == null && mesh == null) {
            throw loader.error(e, what + " needs its shape: <box><size>x y z</size><cells>nx ny nz</cells></box> (m, cells"
                    + " per axis) or <mesh><uri>FILE.msh</uri></mesh> (a Gmsh .msh or TetGen .node file)");
        }
        double[] size = {0, 0, 0};
        int[] cells = {0, 0, 0};
        Path file = null;
        if (box != null) {
            Element sz = child(box, "size", what + "'s <box>", "its side lengths x y z, m");
            size = loader.vector(sz, 3);
            for (double v : size) {
                if (!(v > 0)) {
                    throw loader.error(sz, what + ": box sizes must be > 0 m, got '" + sz.text() + "'");
                }
            }
            Element c = child(box, "cells", what + "'s <box>", "cells per axis nx ny nz, each at least 1, six tetrahedra"
                    + " per cell");
            double[] n = loader.vector(c, 3);
            for (int k = 0; k < 3; k++) {
                if (n[k] != Math.rint(n[k]) || n[k] < 1 || n[k] > 1000) {
                    throw loader.error(c, what + ": <cells> needs three whole numbers from 1 to 1000, got '" + c.text() + "'");
                }
                cells[k] = (int) n[k];
            }
            if ((long) cells[0] * cells[1] * cells[2] > MAX_CELLS) {
                throw loader.error(c, what + ": <cells> '" + c.text() + "' makes more than " + MAX_CELLS + " cells (six"
                        + " tetrahedra each); use fewer");
            }
        } else {
            file = meshFile(child(mesh, "uri", what + "'s <mesh>", "a Gmsh .msh or TetGen .node file, relative to the world"
                    + " file"), what);
        }
        World.Material material = material(e, what);
        double alpha = 0;
        double beta = 0;
        Element r = e.child("rayleigh");
        if (r != null) {
            alpha = damping(r, "alpha", what, "1/s");
            beta = damping(r, "beta", what, "s");
        }
        int blocks = 1;
        Element b = e.child("blocks");
        if (b != null) {
            blocks = loader.integer(b);
            if (blocks < 1) {
                throw loader.error(b, what + ": <blocks> must be at least 1, got " + blocks);
            }
        }
        double nodeRadius = 1e-3;
        Element nr = e.child("node_radius");
        if (nr != null) {
            nodeRadius = positive(nr, what, "m");
        }
        List<World.NodeWeld> welds = new ArrayList<>();
        for (Element w : e.children("weld")) {
            World.Anchor anchor = anchor(w, what);
            Element lo = child(w, "min", what + "'s <weld>", "the lower corner x y z of the box of nodes welded, world"
                    + " frame, m");
            Element hi = child(w, "max", what + "'s <weld>", "the upper corner x y z, world frame, m");
            double[] min = loader.vector(lo, 3);
            double[] max = loader.vector(hi, 3);
            if (min[0] > max[0] || min[1] > max[1] || min[2] > max[2]) {
                throw loader.error(w, what + ": the weld's <min> '" + lo.text() + "' is above its <max> '" + hi.text()
                        + "' on some axis; give the box's lower corner in <min>");
            }
            welds.add(new World.NodeWeld(anchor, min[0], min[1], min[2], max[0], max[1], max[2]));
        }
        return new World.Deformable(name, pose, size[0], size[1], size[2], cells[0], cells[1], cells[2], file, material, alpha,
                beta, blocks, nodeRadius, welds, e.line);
    }

    /** The element's name, unique among the world's cables and deformable bodies. */
    private String name(Element e) {
        String name = loader.required(e, "name");
        Integer first = names.putIfAbsent(name, e.line);
        if (first != null) {
            throw loader.error(e, "a second cable or deformable body named '" + name + "' (the first is at line " + first
                    + "): names must be unique among a world's cables and deformable bodies");
        }
        return name;
    }

    /** The required child, or an error at the parent saying what it holds. */
    private Element child(Element parent, String child, String what, String meaning) {
        Element c = parent.child(child);
        if (c == null) {
            throw loader.error(parent, what + " needs <" + child + "> (" + meaning + ")");
        }
        return c;
    }

    /** A finite number greater than 0 (the loader refuses what is no finite number). */
    private double positive(Element e, String what, String unit) {
        double v = loader.number(e);
        if (!(v > 0)) {
            throw loader.error(e, what + ": <" + e.name + "> must be > 0 " + unit + ", got " + e.text());
        }
        return v;
    }

    /** E, nu and density of the element's {@code <material>}, checked as the physics builders check them. */
    private World.Material material(Element owner, String what) {
        Element m = owner.child("material");
        if (m == null) {
            throw loader.error(owner, what + " needs <material> with <youngs_modulus> (Pa), <poisson_ratio> and <density>"
                    + " (kg/m^3)");
        }
        ignoreOthers(m, MATERIAL_CHILDREN);
        Element ye = child(m, "youngs_modulus", what + "'s <material>", "Young's modulus E, Pa, e.g. 1e6 for rubber");
        Element ne = child(m, "poisson_ratio", what + "'s <material>", "Poisson's ratio nu, inside (-1, 0.5)");
        Element de = child(m, "density", what + "'s <material>", "kg/m^3");
        double youngs = loader.number(ye);
        if (!(youngs > 0)) {
            throw loader.error(ye, what + ": Young's modulus E must be > 0 Pa, got " + ye.text()
                    + " (rubber ~1e6, nylon ~3e9, steel ~2e11)");
        }
        double nu = loader.number(ne);
        if (!(nu > -1 && nu < 0.5)) {
            throw loader.error(ne, what + ": Poisson's ratio nu must be inside (-1, 0.5), got " + ne.text()
                    + " (0.5 is incompressible, which linear elements cannot represent; use 0.45 to 0.49)");
        }
        double density = loader.number(de);
        if (!(density > 0)) {
            throw loader.error(de, what + ": <density> must be > 0 kg/m^3, got " + de.text());
        }
        return new World.Material(youngs, nu, density);
    }

    /** A Rayleigh coefficient attribute: absent 0, else a finite number >= 0. */
    private double damping(Element r, String attribute, String what, String unit) {
        String t = r.attribute(attribute);
        if (t == null || t.isEmpty()) {
            return 0;
        }
        double v;
        try {
            v = Double.parseDouble(t.trim());
        } catch (NumberFormatException ex) {
            v = Double.NaN;
        }
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw loader.error(r, what + ": <rayleigh " + attribute + "=\"" + t + "\"> must be a finite number >= 0 " + unit
                    + " (alpha: mass-proportional, 1/s; beta: stiffness-proportional, s)");
        }
        return v;
    }

    /**
     * What an {@code <attach>} or {@code <weld>} names: the world (no model), or a link of a model
     * outside every level.
     */
    private World.Anchor anchor(Element a, String what) {
        String model = a.attribute("model");
        String link = a.attribute("link");
        if (model == null || model.isEmpty()) {
            if (link != null && !link.isEmpty()) {
                throw loader.error(a, what + ": <" + a.name + "> names link '" + link + "' but no model; give"
                        + " model=\"MODEL\" too, or neither to weld to the world");
            }
            return World.Anchor.WORLD;
        }
        World.Model m = models.get(model);
        if (m == null) {
            throw loader.error(a, what + ": <" + a.name + "> names model '" + model + "', which this world does not have"
                    + " (models: " + some(new ArrayList<>(models.keySet())) + "); name one of them, or leave model out to"
                    + " weld to the world");
        }
        if (levelOf.containsKey(model)) {
            throw loader.error(a, what + ": <" + a.name + "> names model '" + model + "', which is in level '"
                    + levelOf.get(model) + "': levels unload their models, and cables and deformable bodies are always"
                    + " loaded; weld to a model outside every level, or to the world");
        }
        List<String> links = new ArrayList<>();
        for (World.Link l : m.links()) {
            links.add(l.name());
        }
        if (links.isEmpty()) {
            throw loader.error(a, what + ": <" + a.name + "> names model '" + model + "', which has no link to weld to");
        }
        if (link == null || link.isEmpty()) {
            if (links.size() == 1) {
                return new World.Anchor(model, links.get(0));
            }
            throw loader.error(a, what + ": <" + a.name + "> names model '" + model + "' but no link, and it has "
                    + links.size() + " (" + some(links) + "); give link=\"LINK\"");
        }
        if (!links.contains(link)) {
            throw loader.error(a, what + ": <" + a.name + "> names link '" + link + "', which model '" + model
                    + "' does not have (links: " + some(links) + ")");
        }
        return new World.Anchor(model, link);
    }

    /** The mesh file a deformable's {@code <uri>} names: an existing .msh or .node (with its .ele), absolute or from the world's folder. */
    private Path meshFile(Element uri, String what) {
        String text = uri.text();
        if (text.startsWith("file://")) {
            text = text.substring("file://".length());
        }
        if (text.isEmpty() || text.contains("://")) {
            throw loader.error(uri, what + ": <uri> '" + uri.text() + "' is not a file path; give the path of a Gmsh .msh or"
                    + " TetGen .node file, absolute or relative to the world file (model:// is not read here)");
        }
        Path file;
        try {
            Path p = Path.of(text);
            Path base = uri.source != null && Path.of(uri.source).toAbsolutePath().getParent() != null
                    ? Path.of(uri.source).toAbsolutePath().getParent() : dir;
            file = p.isAbsolute() ? p : base.resolve(p).normalize();
        } catch (InvalidPathException ex) {
            throw loader.error(uri, what + ": <uri> '" + uri.text() + "' is not a valid path");
        }
        String lower = String.valueOf(file.getFileName()).toLowerCase(Locale.ROOT);
        if (!lower.endsWith(".msh") && !lower.endsWith(".node")) {
            throw loader.error(uri, what + ": <uri> '" + uri.text() + "' is no tetrahedral mesh Tandem reads: give a Gmsh"
                    + " .msh (4.1 ASCII; `gmsh -3 -format msh41 FILE.geo`) or a TetGen .node file (its .ele beside it)");
        }
        if (!Files.isRegularFile(file)) {
            throw loader.error(uri, what + ": mesh file " + file + " does not exist (a relative <uri> starts from the world"
                    + " file's folder)");
        }
        if (lower.endsWith(".node")) {
            String n = file.getFileName().toString();
            Path ele = file.resolveSibling(n.substring(0, n.length() - ".node".length()) + ".ele");
            if (!Files.isRegularFile(ele)) {
                throw loader.error(uri, what + ": TetGen mesh " + file + " needs its tetrahedra in " + ele
                        + ", which does not exist");
            }
        }
        return file;
    }

    /** Warns once per kind of child the element does not read. */
    private void ignoreOthers(Element e, Set<String> read) {
        for (Element c : e.children) {
            if (!read.contains(c.name)) {
                loader.warn(c, e.name + ":" + c.name, "<" + c.name + "> in <" + e.name + "> is not read by Tandem: ignored"
                        + " (it reads " + String.join(", ", new java.util.TreeSet<>(read)) + ")");
            }
        }
    }

    /** At most ten names, then how many more. */
    private static String some(List<String> all) {
        if (all.isEmpty()) {
            return "none";
        }
        if (all.size() <= 10) {
            return String.join(", ", all);
        }
        return String.join(", ", all.subList(0, 10)) + " and " + (all.size() - 10) + " more";
    }
}
