package io.tandem.world.robot;

import io.tandem.physics.PhysicsModel;
import io.tandem.physics.PhysicsState;
import io.tandem.world.Pose;
import io.tandem.world.World;
import io.tandem.world.WorldRunner;
import io.tandem.world.internal.VisualScene;

/*
 * Implementation notes.
 *
 * One primary ray per pixel centre, no recursion: the first visual surface hit within the clip
 * range gives the pixel's colour, lambert-shaded from one directional light plus an ambient term;
 * a miss gives the background colour. Ray of pixel (u, v) in the camera frame (x forward, y left,
 * z up): d = (1, -a_u, b_v) with a_u = (2 (u + 1/2) / W - 1) tan(hfov / 2) and
 * b_v = (1 - 2 (v + 1/2) / H) tan(hfov / 2) H / W (square pixels). d is not normalized: its
 * forward component is 1, so the ray parameter t is the depth along the optical axis, the
 * quantity near and far clip.
 *
 * Per frame, per shape (allocation-free, all in preallocated arrays):
 *   1. its world pose from its body's state (link body pose (x) shape pose in the body);
 *   2. broad phase: the pixel rectangle its local bounding box can cover: the box's corners in
 *      front of the near plane and the points where its edges cross that plane, projected
 *      (exact for the clipped box, so a wall beside the camera or the chassis under it costs
 *      nothing where it is not seen). A box wholly behind near or beyond far is skipped;
 *   3. the camera origin, the ray's three direction terms and the light in the shape's frame, so
 *      that a pixel's local ray is o + t (F + a_u U + b_v V): 6 multiply-adds per pixel and shape.
 * Per row, the shapes whose rectangle spans the row are listed once; per pixel, those whose
 * column range holds it are intersected exactly in their own frame (box: slabs; sphere; cylinder:
 * side quadric and cap slab; capsule: side and two spheres; plane: a finite rectangle, both
 * sides). Only front faces count (the entry point; a camera inside a shape sees out of it).
 * Ties keep the shape listed first (world order), so the image is a pure function of the state:
 * the same bytes for the same state, on any machine (strict IEEE doubles, correctly rounded sqrt).
 *
 * Measured: see RayCastCameraTest's timing figure and the report.
 */

/**
 * An RGB camera rendered by ray casting the world's visual shapes (a link's collision shapes
 * stand in when it has none): box, sphere, cylinder, capsule, plane, in their visual colour with
 * lambert shading from a fixed directional light plus ambient; background colour where nothing is
 * hit within the clip range. Gazebo's camera conventions: it looks along +x of its sensor frame,
 * image column 0 is the left edge, row 0 the top.
 *
 * <p>Get one with {@link #of(WorldRunner, String)}. {@link #render(byte[])} reads the runner's
 * current state and writes width x height x 3 bytes (R, G, B, row-major); it allocates nothing and
 * is deterministic: the same state gives the same bytes. Defaults: background (0.7, 0.7, 0.7),
 * ambient 0.4, diffuse 0.8, light towards (0.5, -0.1, 0.9) (Gazebo's default sun and scene).
 * Not thread-safe: use it on the runner's stepping thread.
 */
public final class RayCastCamera {
    private final WorldRunner runner;
    private final VisualScene scene;
    private final String name;
    private final long linkId;
    /** the camera frame in its link body's frame: position, quaternion (7) */
    private final double[] mount = new double[7];
    private final int width;
    private final int height;
    private final double horizontalFov;
    private final double near;
    private final double far;
    private final long updatePeriodNs;
    /** tan(hfov / 2) and its vertical counterpart */
    private final double tanH;
    private final double tanV;
    private double backgroundR = 0.7;
    private double backgroundG = 0.7;
    private double backgroundB = 0.7;
    private double ambient = 0.4;
    private double diffuse = 0.8;
    /** unit vector towards the light, world frame (3) */
    private final double[] light = new double[3];
    /** a_u per image column: the ray's rightward slope (width) */
    private final double[] columnSlope;
    /** b_v per image row: the ray's upward slope (height) */
    private final double[] rowSlope;
    // per shape, per frame (scene.count each, x 3 for vectors)
    private final int[] u0;
    private final int[] u1;
    private final int[] v0;
    private final int[] v1;
    private final boolean[] visible;
    private final double[] origin;
    private final double[] dirF;
    private final double[] dirU;
    private final double[] dirV;
    private final double[] lightLocal;
    private final int[] rowShapes;
    /** the least depth any point of a shape's bounding box can have, m (count) */
    private final double[] depthLo;
    /** a shape's bounding-box corners in the camera frame (8 x 3) and the slope ranges they span */
    private final double[] corners = new double[24];
    private double rectMinA;
    private double rectMaxA;
    private double rectMinB;
    private double rectMaxB;
    // camera frame, world (3 each)
    private final double[] camPos = new double[3];
    private final double[] camF = new double[3];
    private final double[] camL = new double[3];
    private final double[] camU = new double[3];
    private final double[] rot = new double[9];
    // the last exact hit: entry parameter and unit normal in the shape frame
    private double hitNx;
    private double hitNy;
    private double hitNz;
    private double slabEnter;
    private double slabExit;
    private int slabAxis;
    private double slabSign;
    private long frames;

    /**
     * A camera sensor of the runner's world file, rendering at its SDF resolution.
     *
     * @param runner     the runner whose state it renders
     * @param scopedName model::link::sensor (or model::sensor when that is unique)
     * @return a new renderer (allocates its scratch); render it on the runner's thread
     * @throws IllegalArgumentException naming the camera and close matches when there is none
     */
    public static RayCastCamera of(WorldRunner runner, String scopedName) {
        VisualScene scene = runner.visualScene();
        VisualScene.CameraMount m = scene.camera(runner.world().name(), scopedName);
        return new RayCastCamera(runner, scene, m, m.camera().width(), m.camera().height());
    }

    /**
     * A camera sensor of the runner's world file at another resolution (the same field of view).
     *
     * @param runner     the runner whose state it renders
     * @param scopedName model::link::sensor (or model::sensor when that is unique)
     * @param width      pixels, at least 1
     * @param height     pixels, at least 1
     * @return a new renderer
     */
    public static RayCastCamera of(WorldRunner runner, String scopedName, int width, int height) {
        VisualScene scene = runner.visualScene();
        return new RayCastCamera(runner, scene, scene.camera(runner.world().name(), scopedName), width, height);
    }

    private RayCastCamera(WorldRunner runner, VisualScene scene, VisualScene.CameraMount m, int width, int height) {
        World.Camera c = m.camera().withImageSize(width, height);
        this.runner = runner;
        this.scene = scene;
        this.name = m.scopedName();
        this.linkId = m.linkId();
        Pose p = m.inBody();
        mount[0] = p.x();
        mount[1] = p.y();
        mount[2] = p.z();
        mount[3] = p.qw();
        mount[4] = p.qx();
        mount[5] = p.qy();
        mount[6] = p.qz();
        this.width = c.width();
        this.height = c.height();
        this.horizontalFov = c.horizontalFov();
        this.near = c.near();
        this.far = c.far();
        this.updatePeriodNs = c.updateRate() > 0 ? Math.round(1e9 / c.updateRate()) : 0;
        setLightDirection(0.5, -0.1, 0.9);
        tanH = Math.tan(horizontalFov / 2);
        tanV = tanH * height / width;
        columnSlope = new double[width];
        for (int u = 0; u < width; u++) {
            columnSlope[u] = (2 * (u + 0.5) / width - 1) * tanH;
        }
        rowSlope = new double[height];
        for (int v = 0; v < height; v++) {
            rowSlope[v] = (1 - 2 * (v + 0.5) / height) * tanV;
        }
        int n = scene.count;
        u0 = new int[n];
        u1 = new int[n];
        v0 = new int[n];
        v1 = new int[n];
        visible = new boolean[n];
        origin = new double[3 * n];
        dirF = new double[3 * n];
        dirU = new double[3 * n];
        dirV = new double[3 * n];
        lightLocal = new double[3 * n];
        rowShapes = new int[n];
        depthLo = new double[n];
    }

    /** @return the scoped name (model::link::sensor) */
    public String name() {
        return name;
    }

    /** @return image width, pixels */
    public int width() {
        return width;
    }

    /** @return image height, pixels */
    public int height() {
        return height;
    }

    /** @return the horizontal field of view, rad */
    public double horizontalFov() {
        return horizontalFov;
    }

    /** @return the near clip distance along the optical axis, m */
    public double near() {
        return near;
    }

    /** @return the far clip distance, m */
    public double far() {
        return far;
    }

    /** @return simulated ns between frames from the sensor's update_rate (0: every iteration) */
    public long updatePeriodNs() {
        return updatePeriodNs;
    }

    /** @return frames rendered so far */
    public long frames() {
        return frames;
    }

    /** @return a new image buffer of width x height x 3 bytes (allocates) */
    public byte[] newImage() {
        return new byte[3 * width * height];
    }

    /**
     * @param r background red in [0, 1]
     * @param g green
     * @param b blue
     */
    public void setBackground(double r, double g, double b) {
        requireUnit("background", r, g, b);
        backgroundR = r;
        backgroundG = g;
        backgroundB = b;
    }

    /**
     * @param ambientTerm  ambient light, at least 0: a surface facing away from the light shows
     *                     its colour times this
     * @param diffuseTerm  directional light, at least 0: adds its colour times this times the
     *                     cosine of the angle to the light
     */
    public void setLighting(double ambientTerm, double diffuseTerm) {
        if (!(ambientTerm >= 0) || !(diffuseTerm >= 0) || Double.isInfinite(ambientTerm + diffuseTerm)) {
            throw new IllegalArgumentException("camera '" + name + "': ambient and diffuse light must be finite and >= 0,"
                    + " got " + ambientTerm + ", " + diffuseTerm);
        }
        ambient = ambientTerm;
        diffuse = diffuseTerm;
    }

    /**
     * @param x direction towards the light, world frame (normalized here; not zero)
     * @param y y
     * @param z z
     */
    public void setLightDirection(double x, double y, double z) {
        double n = Math.sqrt(x * x + y * y + z * z);
        if (!(n > 0) || Double.isInfinite(n)) {
            throw new IllegalArgumentException("camera '" + name + "': light direction must be finite and non-zero");
        }
        light[0] = x / n;
        light[1] = y / n;
        light[2] = z / n;
    }

    private void requireUnit(String what, double r, double g, double b) {
        if (!(r >= 0 && r <= 1 && g >= 0 && g <= 1 && b >= 0 && b <= 1)) {
            throw new IllegalArgumentException("camera '" + name + "': " + what + " components must be in [0, 1], got ("
                    + r + ", " + g + ", " + b + ")");
        }
    }

    /**
     * Renders the runner's current state. Allocates nothing; deterministic.
     *
     * @param rgb at least width x height x 3 bytes; modified: R, G, B per pixel, row-major, row 0 at the top
     * @throws IllegalArgumentException if the buffer is too small
     * @throws IllegalStateException if the camera's model is not loaded (levels)
     */
    public void render(byte[] rgb) {
        if (rgb.length < 3 * width * height) {
            throw new IllegalArgumentException("camera '" + name + "': image buffer has " + rgb.length + " bytes, needs "
                    + (3 * width * height) + " (" + width + " x " + height + " x 3)");
        }
        PhysicsModel pm = runner.physicsModel();
        PhysicsState s = runner.physicsState();
        int cb = pm.bodyIndex(linkId);
        if (cb < 0) {
            throw new IllegalStateException("camera '" + name + "': its model is not loaded");
        }
        placeCamera(s, cb);
        prepareShapes(pm, s);
        int n = scene.count;
        int o = 0;
        for (int v = 0; v < height; v++) {
            double b = rowSlope[v];
            int listed = 0;
            for (int i = 0; i < n; i++) {
                if (visible[i] && v >= v0[i] && v <= v1[i]) {
                    rowShapes[listed++] = i;
                }
            }
            for (int u = 0; u < width; u++) {
                double a = columnSlope[u];
                double best = far;
                int hit = -1;
                double nx = 0;
                double ny = 0;
                double nz = 0;
                for (int k = 0; k < listed; k++) {
                    int i = rowShapes[k];
                    if (u < u0[i] || u > u1[i] || depthLo[i] >= best) {
                        continue;
                    }
                    int i3 = 3 * i;
                    double dx = dirF[i3] + a * dirU[i3] + b * dirV[i3];
                    double dy = dirF[i3 + 1] + a * dirU[i3 + 1] + b * dirV[i3 + 1];
                    double dz = dirF[i3 + 2] + a * dirU[i3 + 2] + b * dirV[i3 + 2];
                    double t = intersect(i, origin[i3], origin[i3 + 1], origin[i3 + 2], dx, dy, dz, best);
                    if (t < best) {
                        best = t;
                        hit = i;
                        // the normal facing the viewer
                        boolean away = hitNx * dx + hitNy * dy + hitNz * dz > 0;
                        nx = away ? -hitNx : hitNx;
                        ny = away ? -hitNy : hitNy;
                        nz = away ? -hitNz : hitNz;
                    }
                }
                if (hit < 0) {
                    rgb[o] = toByte(backgroundR);
                    rgb[o + 1] = toByte(backgroundG);
                    rgb[o + 2] = toByte(backgroundB);
                } else {
                    int h3 = 3 * hit;
                    double lambert = nx * lightLocal[h3] + ny * lightLocal[h3 + 1] + nz * lightLocal[h3 + 2];
                    double shade = ambient + diffuse * (lambert > 0 ? lambert : 0);
                    rgb[o] = toByte(scene.rgb[h3] * shade);
                    rgb[o + 1] = toByte(scene.rgb[h3 + 1] * shade);
                    rgb[o + 2] = toByte(scene.rgb[h3 + 2] * shade);
                }
                o += 3;
            }
        }
        frames++;
    }

    private static byte toByte(double c) {
        return (byte) (c >= 1 ? 255 : c <= 0 ? 0 : (int) (c * 255 + 0.5));
    }

    /** The camera frame in the world from its link body's state. */
    private void placeCamera(PhysicsState s, int body) {
        double[] q = s.quat;
        int qi = 4 * body;
        double bw = q[qi];
        double bx = q[qi + 1];
        double by = q[qi + 2];
        double bz = q[qi + 3];
        rotation(bw, bx, by, bz, rot);
        camPos[0] = s.pos[3 * body] + rot[0] * mount[0] + rot[1] * mount[1] + rot[2] * mount[2];
        camPos[1] = s.pos[3 * body + 1] + rot[3] * mount[0] + rot[4] * mount[1] + rot[5] * mount[2];
        camPos[2] = s.pos[3 * body + 2] + rot[6] * mount[0] + rot[7] * mount[1] + rot[8] * mount[2];
        double mw = mount[3];
        double mx = mount[4];
        double my = mount[5];
        double mz = mount[6];
        // q_camera = q_body (x) q_mount
        rotation(bw * mw - bx * mx - by * my - bz * mz, bw * mx + bx * mw + by * mz - bz * my,
                bw * my - bx * mz + by * mw + bz * mx, bw * mz + bx * my - by * mx + bz * mw, rot);
        for (int r = 0; r < 3; r++) {
            camF[r] = rot[3 * r];
            camL[r] = rot[3 * r + 1];
            camU[r] = rot[3 * r + 2];
        }
    }

    /** Per shape: world pose, visibility and pixel rectangle, and the ray terms in its frame. */
    private void prepareShapes(PhysicsModel pm, PhysicsState s) {
        double[] loc = scene.local;
        for (int i = 0; i < scene.count; i++) {
            int body = pm.bodyIndex(scene.linkId[i]);
            visible[i] = false;
            if (body < 0) {
                continue;
            }
            double[] q = s.quat;
            int qi = 4 * body;
            double bw = q[qi];
            double bx = q[qi + 1];
            double by = q[qi + 2];
            double bz = q[qi + 3];
            rotation(bw, bx, by, bz, rot);
            int l = 7 * i;
            double cx = s.pos[3 * body] + rot[0] * loc[l] + rot[1] * loc[l + 1] + rot[2] * loc[l + 2];
            double cy = s.pos[3 * body + 1] + rot[3] * loc[l] + rot[4] * loc[l + 1] + rot[5] * loc[l + 2];
            double cz = s.pos[3 * body + 2] + rot[6] * loc[l] + rot[7] * loc[l + 1] + rot[8] * loc[l + 2];
            // the shape's world rotation q_body (x) q_local
            double lw = loc[l + 3];
            double lx = loc[l + 4];
            double ly = loc[l + 5];
            double lz = loc[l + 6];
            rotation(bw * lw - bx * lx - by * ly - bz * lz, bw * lx + bx * lw + by * lz - bz * ly,
                    bw * ly - bx * lz + by * lw + bz * lx, bw * lz + bx * ly - by * lx + bz * lw, rot);
            double rx = cx - camPos[0];
            double ry = cy - camPos[1];
            double rz = cz - camPos[2];
            if (!rectangle(i, rx, ry, rz)) {
                continue;
            }
            visible[i] = true;
            // everything into the shape's frame (R^T)
            int i3 = 3 * i;
            toLocal(-rx, -ry, -rz, origin, i3);
            toLocal(camF[0], camF[1], camF[2], dirF, i3);
            // a_u is the rightward slope: along -left
            toLocal(-camL[0], -camL[1], -camL[2], dirU, i3);
            toLocal(camU[0], camU[1], camU[2], dirV, i3);
            toLocal(light[0], light[1], light[2], lightLocal, i3);
        }
    }

    /**
     * The pixel rectangle of shape i's local bounding box (centre r from the camera, world
     * frame; orientation in {@link #rot}), clipped by the near plane: its corners in front of
     * it and the points where its edges cross it. Sets u0, u1, v0, v1 and depthLo.
     *
     * @return false when nothing of the box lies within the clip range
     */
    private boolean rectangle(int i, double rx, double ry, double rz) {
        double ex;
        double ey;
        double ez;
        double a = scene.dims[3 * i];
        double b = scene.dims[3 * i + 1];
        switch (scene.type[i]) {
            case VisualScene.BOX -> {
                ex = a;
                ey = b;
                ez = scene.dims[3 * i + 2];
            }
            case VisualScene.SPHERE -> {
                ex = a;
                ey = a;
                ez = a;
            }
            case VisualScene.CYLINDER -> {
                ex = a;
                ey = a;
                ez = b;
            }
            case VisualScene.CAPSULE -> {
                ex = a;
                ey = a;
                ez = a + b;
            }
            case VisualScene.MESH -> {
                ex = a;
                ey = b;
                ez = scene.dims[3 * i + 2];
            }
            default -> {
                ex = a;
                ey = b;
                ez = 0;
            }
        }
        // centre and half-axes in the camera frame (forward, left, up)
        double f0 = rx * camF[0] + ry * camF[1] + rz * camF[2];
        double l0 = rx * camL[0] + ry * camL[1] + rz * camL[2];
        double u00 = rx * camU[0] + ry * camU[1] + rz * camU[2];
        // the box's extent along the optical axis: reject it whole when behind near or beyond far
        double reach = ex * Math.abs(camF[0] * rot[0] + camF[1] * rot[3] + camF[2] * rot[6])
                + ey * Math.abs(camF[0] * rot[1] + camF[1] * rot[4] + camF[2] * rot[7])
                + ez * Math.abs(camF[0] * rot[2] + camF[1] * rot[5] + camF[2] * rot[8]);
        if (f0 + reach < near || f0 - reach > far) {
            return false;
        }
        depthLo[i] = f0 - reach;
        for (int k = 0; k < 8; k++) {
            double sx = (k & 1) == 0 ? -ex : ex;
            double sy = (k & 2) == 0 ? -ey : ey;
            double sz = (k & 4) == 0 ? -ez : ez;
            // world offset R (sx, sy, sz)
            double wx = rot[0] * sx + rot[1] * sy + rot[2] * sz;
            double wy = rot[3] * sx + rot[4] * sy + rot[5] * sz;
            double wz = rot[6] * sx + rot[7] * sy + rot[8] * sz;
            corners[3 * k] = f0 + wx * camF[0] + wy * camF[1] + wz * camF[2];
            corners[3 * k + 1] = l0 + wx * camL[0] + wy * camL[1] + wz * camL[2];
            corners[3 * k + 2] = u00 + wx * camU[0] + wy * camU[1] + wz * camU[2];
        }
        rectMinA = Double.POSITIVE_INFINITY;
        rectMaxA = Double.NEGATIVE_INFINITY;
        rectMinB = Double.POSITIVE_INFINITY;
        rectMaxB = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < 8; k++) {
            double fk = corners[3 * k];
            if (fk >= near) {
                include(corners[3 * k + 1] / fk, corners[3 * k + 2] / fk);
            }
            // the edges to the corners that differ in one coordinate, each once
            for (int bit = 1; bit < 8; bit <<= 1) {
                int m = k | bit;
                if ((k & bit) != 0) {
                    continue;
                }
                double fm = corners[3 * m];
                if ((fk >= near) != (fm >= near)) {
                    double t = (near - fk) / (fm - fk);
                    double lt = corners[3 * k + 1] + t * (corners[3 * m + 1] - corners[3 * k + 1]);
                    double ut = corners[3 * k + 2] + t * (corners[3 * m + 2] - corners[3 * k + 2]);
                    include(lt / near, ut / near);
                }
            }
        }
        if (rectMinA > rectMaxA) {
            return false;
        }
        // left slope k = y / x: the rightward slope is -k; b = z / x upward
        double uLo = (-rectMaxA / tanH + 1) * width / 2 - 0.5;
        double uHi = (-rectMinA / tanH + 1) * width / 2 - 0.5;
        double vLo = (1 - rectMaxB / tanV) * height / 2 - 0.5;
        double vHi = (1 - rectMinB / tanV) * height / 2 - 0.5;
        if (uLo > width || uHi < -1 || vLo > height || vHi < -1) {
            return false;
        }
        u0[i] = Math.max(0, (int) Math.floor(uLo) - 1);
        u1[i] = Math.min(width - 1, (int) Math.ceil(uHi) + 1);
        v0[i] = Math.max(0, (int) Math.floor(vLo) - 1);
        v1[i] = Math.min(height - 1, (int) Math.ceil(vHi) + 1);
        return true;
    }

    private void include(double leftSlope, double upSlope) {
        rectMinA = Math.min(rectMinA, leftSlope);
        rectMaxA = Math.max(rectMaxA, leftSlope);
        rectMinB = Math.min(rectMinB, upSlope);
        rectMaxB = Math.max(rectMaxB, upSlope);
    }

    /** out[o..o+2] = R^T v with R = rot. */
    private void toLocal(double x, double y, double z, double[] out, int o) {
        out[o] = rot[0] * x + rot[3] * y + rot[6] * z;
        out[o + 1] = rot[1] * x + rot[4] * y + rot[7] * z;
        out[o + 2] = rot[2] * x + rot[5] * y + rot[8] * z;
    }

    /** The rotation matrix (row-major) of a unit quaternion. */
    private static void rotation(double w, double x, double y, double z, double[] m) {
        m[0] = 1 - 2 * (y * y + z * z);
        m[1] = 2 * (x * y - w * z);
        m[2] = 2 * (x * z + w * y);
        m[3] = 2 * (x * y + w * z);
        m[4] = 1 - 2 * (x * x + z * z);
        m[5] = 2 * (y * z - w * x);
        m[6] = 2 * (x * z - w * y);
        m[7] = 2 * (y * z + w * x);
        m[8] = 1 - 2 * (x * x + y * y);
    }

    /**
     * The nearest triangle of mesh shape i the ray o + t d crosses in [near, limit) (Moller and
     * Trumbore, "Fast, Minimum Storage Ray/Triangle Intersection", 1997), after a test against its
     * bounding box (half extents a, b, c); sets the hit normal, facing the ray. +infinity if none.
     */
    private double mesh(int i, double ox, double oy, double oz, double dx, double dy, double dz, double a, double b, double c,
                        double limit) {
        slabEnter = Double.NEGATIVE_INFINITY;
        slabExit = Double.POSITIVE_INFINITY;
        if (!slab(ox, dx, a, 0) || !slab(oy, dy, b, 1) || !slab(oz, dz, c, 2) || slabEnter > slabExit || slabExit < near
                || slabEnter >= limit) {
            return Double.POSITIVE_INFINITY;
        }
        double[] v = scene.meshVertices[i];
        int[] tri = scene.meshTriangles[i];
        double best = Double.POSITIVE_INFINITY;
        for (int k = 0; k < tri.length; k += 3) {
            int p0 = 3 * tri[k];
            int p1 = 3 * tri[k + 1];
            int p2 = 3 * tri[k + 2];
            double e1x = v[p1] - v[p0];
            double e1y = v[p1 + 1] - v[p0 + 1];
            double e1z = v[p1 + 2] - v[p0 + 2];
            double e2x = v[p2] - v[p0];
            double e2y = v[p2 + 1] - v[p0 + 1];
            double e2z = v[p2 + 2] - v[p0 + 2];
            double px = dy * e2z - dz * e2y;
            double py = dz * e2x - dx * e2z;
            double pz = dx * e2y - dy * e2x;
            double det = e1x * px + e1y * py + e1z * pz;
            if (Math.abs(det) < 1e-18) {
                continue;
            }
            double inv = 1 / det;
            double tx = ox - v[p0];
            double ty = oy - v[p0 + 1];
            double tz = oz - v[p0 + 2];
            double u = (tx * px + ty * py + tz * pz) * inv;
            if (u < 0 || u > 1) {
                continue;
            }
            double qx = ty * e1z - tz * e1y;
            double qy = tz * e1x - tx * e1z;
            double qz = tx * e1y - ty * e1x;
            double w = (dx * qx + dy * qy + dz * qz) * inv;
            if (w < 0 || u + w > 1) {
                continue;
            }
            double t = (e2x * qx + e2y * qy + e2z * qz) * inv;
            if (t >= near && t < limit && t < best) {
                best = t;
                double nx = e1y * e2z - e1z * e2y;
                double ny = e1z * e2x - e1x * e2z;
                double nz = e1x * e2y - e1y * e2x;
                double len = Math.sqrt(nx * nx + ny * ny + nz * nz);
                double s = nx * dx + ny * dy + nz * dz > 0 ? -1 / len : 1 / len;
                hitNx = nx * s;
                hitNy = ny * s;
                hitNz = nz * s;
            }
        }
        return best;
    }

    /**
     * The entry parameter of the ray o + t d into shape i if in [near, limit), else +infinity;
     * sets the hit normal (shape frame, unit, outward).
     */
    private double intersect(int i, double ox, double oy, double oz, double dx, double dy, double dz, double limit) {
        double a = scene.dims[3 * i];
        double b = scene.dims[3 * i + 1];
        double c = scene.dims[3 * i + 2];
        switch (scene.type[i]) {
            case VisualScene.BOX -> {
                slabEnter = Double.NEGATIVE_INFINITY;
                slabExit = Double.POSITIVE_INFINITY;
                if (!slab(ox, dx, a, 0) || !slab(oy, dy, b, 1) || !slab(oz, dz, c, 2)) {
                    return Double.POSITIVE_INFINITY;
                }
                if (slabEnter > slabExit || slabEnter < near || slabEnter >= limit) {
                    return Double.POSITIVE_INFINITY;
                }
                hitNx = slabAxis == 0 ? slabSign : 0;
                hitNy = slabAxis == 1 ? slabSign : 0;
                hitNz = slabAxis == 2 ? slabSign : 0;
                return slabEnter;
            }
            case VisualScene.SPHERE -> {
                return sphere(ox, oy, oz, dx, dy, dz, a, limit);
            }
            case VisualScene.MESH -> {
                return mesh(i, ox, oy, oz, dx, dy, dz, a, b, c, limit);
            }
            case VisualScene.CYLINDER -> {
                return cylinder(ox, oy, oz, dx, dy, dz, a, b, limit, true);
            }
            case VisualScene.CAPSULE -> {
                double t = cylinder(ox, oy, oz, dx, dy, dz, a, b, limit, false);
                double nx = hitNx;
                double ny = hitNy;
                double nz = hitNz;
                double t1 = sphere(ox, oy, oz - b, dx, dy, dz, a, Math.min(t, limit));
                if (t1 < t) {
                    t = t1;
                    nx = hitNx;
                    ny = hitNy;
                    nz = hitNz;
                }
                double t2 = sphere(ox, oy, oz + b, dx, dy, dz, a, Math.min(t, limit));
                if (t2 < t) {
                    return t2;
                }
                hitNx = nx;
                hitNy = ny;
                hitNz = nz;
                return t;
            }
            default -> {
                // plane: a rectangle of half sizes a, b in the local xy plane, seen from both sides
                if (dz == 0) {
                    return Double.POSITIVE_INFINITY;
                }
                double t = -oz / dz;
                if (t < near || t >= limit) {
                    return Double.POSITIVE_INFINITY;
                }
                double px = ox + t * dx;
                double py = oy + t * dy;
                if (px < -a || px > a || py < -b || py > b) {
                    return Double.POSITIVE_INFINITY;
                }
                hitNx = 0;
                hitNy = 0;
                hitNz = 1;
                return t;
            }
        }
    }

    /** Narrows [slabEnter, slabExit] by |o + t d| <= h on one axis; false if the ray misses it. */
    private boolean slab(double o, double d, double h, int axis) {
        if (d == 0) {
            return o >= -h && o <= h;
        }
        double ta = (-h - o) / d;
        double tb = (h - o) / d;
        double tn = Math.min(ta, tb);
        double tf = Math.max(ta, tb);
        if (tn > slabEnter) {
            slabEnter = tn;
            slabAxis = axis;
            slabSign = d > 0 ? -1 : 1;
        }
        if (tf < slabExit) {
            slabExit = tf;
        }
        return true;
    }

    /** Entry into a sphere of radius r about the local origin (o already relative to its centre). */
    private double sphere(double ox, double oy, double oz, double dx, double dy, double dz, double r, double limit) {
        double aa = dx * dx + dy * dy + dz * dz;
        double bb = ox * dx + oy * dy + oz * dz;
        double cc = ox * ox + oy * oy + oz * oz - r * r;
        double disc = bb * bb - aa * cc;
        if (disc < 0) {
            return Double.POSITIVE_INFINITY;
        }
        double t = (-bb - Math.sqrt(disc)) / aa;
        if (t < near || t >= limit) {
            return Double.POSITIVE_INFINITY;
        }
        hitNx = (ox + t * dx) / r;
        hitNy = (oy + t * dy) / r;
        hitNz = (oz + t * dz) / r;
        return t;
    }

    /**
     * Entry into a cylinder of radius r about local z, |z| <= hl; with caps (a cylinder) or
     * without (a capsule's side, whose caps are its spheres).
     */
    private double cylinder(double ox, double oy, double oz, double dx, double dy, double dz, double r, double hl,
                            double limit, boolean caps) {
        double aa = dx * dx + dy * dy;
        double cc = ox * ox + oy * oy - r * r;
        double side0;
        double side1;
        if (aa == 0) {
            if (cc > 0) {
                return Double.POSITIVE_INFINITY;
            }
            side0 = Double.NEGATIVE_INFINITY;
            side1 = Double.POSITIVE_INFINITY;
        } else {
            double bb = ox * dx + oy * dy;
            double disc = bb * bb - aa * cc;
            if (disc < 0) {
                return Double.POSITIVE_INFINITY;
            }
            double sq = Math.sqrt(disc);
            side0 = (-bb - sq) / aa;
            side1 = (-bb + sq) / aa;
        }
        double cap0;
        double cap1;
        if (dz == 0) {
            if (oz < -hl || oz > hl) {
                return Double.POSITIVE_INFINITY;
            }
            cap0 = Double.NEGATIVE_INFINITY;
            cap1 = Double.POSITIVE_INFINITY;
        } else {
            double ta = (-hl - oz) / dz;
            double tb = (hl - oz) / dz;
            cap0 = Math.min(ta, tb);
            cap1 = Math.max(ta, tb);
        }
        boolean throughCap = cap0 > side0;
        double enter = throughCap ? cap0 : side0;
        double exit = Math.min(side1, cap1);
        if (enter > exit || enter < near || enter >= limit || (throughCap && !caps)) {
            return Double.POSITIVE_INFINITY;
        }
        if (throughCap) {
            hitNx = 0;
            hitNy = 0;
            hitNz = dz > 0 ? -1 : 1;
        } else {
            hitNx = (ox + enter * dx) / r;
            hitNy = (oy + enter * dy) / r;
            hitNz = 0;
        }
        return enter;
    }
}
