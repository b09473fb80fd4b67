package io.tandem.physics.internal.dynamics;

/*
 * Implementation notes.
 *
 * The kinematics and dynamics of a kinematic tree with a fixed base in generalized coordinates
 * (shared/specs/physics-wave2.md 1), in the world frame and in the engine's ordering [v_com; w]:
 *
 *   - frames: link i's frame has its origin on joint i's anchor and, at q = 0, the world's axes, so
 *     the tree offset of link i is the anchor's displacement from its parent's anchor (world
 *     coordinates at q = 0, which are the parent's frame coordinates) and the joint axis is the
 *     same in the parent's and the child's frame. With R_i the world rotation of link i:
 *       revolute:  R_i = R_p Rot(a_i, q_i),  o_i = o_p + R_p d_i
 *       prismatic: R_i = R_p,                o_i = o_p + R_p (d_i + a_i q_i)
 *   - the link Jacobians Lambda_l (6 x n; [v_com; w] = Lambda_l qd), column j for every joint j
 *     on the path from the base to l: revolute [a_j x (c_l - o_j); a_j], prismatic [a_j; 0]
 *     (physics-wave2.md 1.3);
 *   - the mass matrix H = sum_l Lambda_l^T diag(m_l 1, I_l,world) Lambda_l, the Jacobian form of
 *     the composite-rigid-body algorithm (Featherstone, "Rigid Body Dynamics Algorithms", 2008,
 *     6.2; equal to HandC's H: physics-wave2.md 1.2 checks the two to 4e-16), O(L n^2), which for
 *     trees of a robot's size (n <= 12) costs less than the 6 x 6 spatial products of CRBA;
 *   - the bias C(q, qd) (Coriolis, centrifugal and gravity: tau = H qdd + C) by the recursive
 *     Newton-Euler algorithm (Luh, Walker & Paul 1980; Featherstone 5.3) with qdd = 0: a forward
 *     pass for the links' bias accelerations in the world frame
 *       w_i = w_p + a_i qd_i (revolute),   alpha_i = alpha_p + w_p x a_i qd_i (revolute),
 *       a_o,i = a_o,p + alpha_p x r + w_p x (w_p x r) (+ 2 w_p x a_i qd_i, prismatic), r = o_i - o_p,
 *       a_c,i = a_o,i + alpha_i x s + w_i x (w_i x s), s = c_i - o_i,
 *     then each link's Newton-Euler wrench F_l = [m (a_c - g); I alpha + w x I w] mapped to the
 *     joints by virtual work, C = sum_l Lambda_l^T F_l (the backward pass of RNEA in Jacobian form).
 *
 * Tested against the Panda's test vectors of physics-wave2.md 1.7 (ArticulatedTreeTest). All
 * buffers are allocated at construction; no method allocates.
 */

/**
 * A fixed-base kinematic tree of revolute and prismatic joints, one joint per link, parents
 * before children. Holds the immutable tree and the scratch of one evaluation (link poses and
 * Jacobians at the configuration of the last {@link #kinematics} call). Not thread-safe.
 */
public final class ArticulatedTree {
    /** joint kinds */
    public static final int REVOLUTE = 0;
    public static final int PRISMATIC = 1;

    /** links = joints = generalized coordinates */
    public final int n;
    private final int[] parent;
    private final int[] type;
    /** joint axis in the link's (= the parent's) frame, unit (3n) */
    private final double[] axis;
    /** anchor offset from the parent's anchor in the parent's frame, m (3n) */
    private final double[] offset;
    private final double[] mass;
    /** centre of mass in the link frame (3n), inertia about it in the link frame (9n, row-major) */
    private final double[] com;
    private final double[] inertia;

    // ---------------------------------------------------------------- one evaluation
    /** link orientation (w, x, y, z) (4n), rotation matrix (9n, row-major), anchor and COM (3n), world axis (3n) */
    private final double[] quat;
    private final double[] rot;
    private final double[] origin;
    private final double[] comWorld;
    private final double[] axisWorld;
    /** Lambda_l, 6 x n row-major at [6 n l] */
    private final double[] lambda;
    /** onPath[n l + j]: joint j is on the path from the base to link l (l itself included) */
    private final boolean[] onPath;
    private final double[] iw = new double[9];
    /** every link's world inertia at the last kinematics (9n), and whether it is computed yet */
    private final double[] iwAll;
    private boolean inertiaFresh;
    private final double[] t9 = new double[9];
    /** addMassMatrix's scratch: I_w times Lambda's angular rows (3n) */
    private final double[] iLambda;
    private final double[] omega;
    private final double[] alpha;
    private final double[] accO;
    private final double[] force = new double[6];
    private final double[] tmp = new double[4];
    /** the roots' frame rotation (w, x, y, z) from the world's axes (see setRoot) */
    private final double[] rootQuat = {1, 0, 0, 0};

    /**
     * @param parent  parent link of each link, -1 for the base; parent[i] &lt; i
     * @param type    {@link #REVOLUTE} or {@link #PRISMATIC} per link
     * @param axis    joint axis per link (3n; normalized here)
     * @param offset  anchor offset from the parent's anchor (or from the world origin for a root), m (3n)
     * @param mass    per link, kg (0 allowed for massless intermediate links)
     * @param com     centre of mass in the link frame, m (3n)
     * @param inertia inertia about the COM in the link frame, kg m^2 (9n, row-major, symmetric)
     */
    public ArticulatedTree(int[] parent, int[] type, double[] axis, double[] offset, double[] mass, double[] com,
                           double[] inertia) {
        n = parent.length;
        this.parent = parent.clone();
        this.type = type.clone();
        this.axis = axis.clone();
        for (int i = 0; i < n; i++) {
            if (parent[i] >= i || parent[i] < -1) {
                throw new IllegalArgumentException("link " + i + ": its parent " + parent[i] + " must come before it");
            }
            double len = Math.sqrt(axis[3 * i] * axis[3 * i] + axis[3 * i + 1] * axis[3 * i + 1] + axis[3 * i + 2] * axis[3 * i + 2]);
            if (!(len > 1e-12)) {
                throw new IllegalArgumentException("link " + i + ": its joint axis is zero");
            }
            for (int d = 0; d < 3; d++) {
                this.axis[3 * i + d] /= len;
            }
        }
        this.offset = offset.clone();
        this.mass = mass.clone();
        this.com = com.clone();
        this.inertia = inertia.clone();
        quat = new double[4 * n];
        rot = new double[9 * n];
        origin = new double[3 * n];
        comWorld = new double[3 * n];
        axisWorld = new double[3 * n];
        lambda = new double[6 * n * n];
        onPath = new boolean[n * n];
        for (int l = 0; l < n; l++) {
            for (int j = l; j >= 0; j = parent[j]) {
                onPath[n * l + j] = true;
            }
        }
        omega = new double[3 * n];
        iLambda = new double[3 * n];
        iwAll = new double[9 * n];
        alpha = new double[3 * n];
        accO = new double[3 * n];
    }

    /**
     * Places the tree's roots: their anchors at (ox, oy, oz) in the world and their frames turned
     * by the unit quaternion (w, x, y, z) from the world's axes. A floating base's re-centring sets
     * this before each step; a fixed base keeps the build's anchors and the identity.
     */
    public void setRoot(double ox, double oy, double oz, double w, double x, double y, double z) {
        for (int i = 0; i < n; i++) {
            if (parent[i] < 0) {
                offset[3 * i] = ox;
                offset[3 * i + 1] = oy;
                offset[3 * i + 2] = oz;
            }
        }
        rootQuat[0] = w;
        rootQuat[1] = x;
        rootQuat[2] = y;
        rootQuat[3] = z;
    }

    /** @return the parent of link i, -1 for the base */
    public int parent(int i) {
        return parent[i];
    }

    /** @return {@link #REVOLUTE} or {@link #PRISMATIC} */
    public int type(int i) {
        return type[i];
    }

    /** @return link i's mass, kg */
    public double mass(int i) {
        return mass[i];
    }

    /**
     * Evaluates the link frames, centres of mass, world axes and Jacobians at configuration q.
     *
     * @param q  generalized coordinates (rad or m) at [qo, qo + n)
     */
    public void kinematics(double[] q, int qo) {
        inertiaFresh = false;
        for (int i = 0; i < n; i++) {
            int p = parent[i];
            double ax = axis[3 * i];
            double ay = axis[3 * i + 1];
            double az = axis[3 * i + 2];
            double dx = offset[3 * i];
            double dy = offset[3 * i + 1];
            double dz = offset[3 * i + 2];
            if (type[i] == PRISMATIC) {
                double s = q[qo + i];
                dx += ax * s;
                dy += ay * s;
                dz += az * s;
            }
            if (p < 0) {
                // a root: its frame turned by the root rotation (the identity but for a floating
                // base), the anchor offset in the world
                System.arraycopy(rootQuat, 0, quat, 4 * i, 4);
                RigidOps.rotate(rootQuat, 0, dx - offset[3 * i], dy - offset[3 * i + 1], dz - offset[3 * i + 2], origin, 3 * i);
                origin[3 * i] += offset[3 * i];
                origin[3 * i + 1] += offset[3 * i + 1];
                origin[3 * i + 2] += offset[3 * i + 2];
            } else {
                RigidOps.rotate(quat, 4 * p, dx, dy, dz, origin, 3 * i);
                for (int d = 0; d < 3; d++) {
                    origin[3 * i + d] += origin[3 * p + d];
                }
                System.arraycopy(quat, 4 * p, quat, 4 * i, 4);
            }
            // the world axis is the parent's rotation of the axis (a rotation about a keeps it)
            RigidOps.rotate(quat, 4 * i, ax, ay, az, axisWorld, 3 * i);
            if (type[i] == REVOLUTE) {
                double half = 0.5 * q[qo + i];
                double s = Math.sin(half);
                tmp[0] = Math.cos(half);
                tmp[1] = ax * s;
                tmp[2] = ay * s;
                tmp[3] = az * s;
                double w = quat[4 * i];
                double x = quat[4 * i + 1];
                double y = quat[4 * i + 2];
                double z = quat[4 * i + 3];
                quat[4 * i] = w * tmp[0] - x * tmp[1] - y * tmp[2] - z * tmp[3];
                quat[4 * i + 1] = w * tmp[1] + x * tmp[0] + y * tmp[3] - z * tmp[2];
                quat[4 * i + 2] = w * tmp[2] - x * tmp[3] + y * tmp[0] + z * tmp[1];
                quat[4 * i + 3] = w * tmp[3] + x * tmp[2] - y * tmp[1] + z * tmp[0];
            }
            matrix(quat, 4 * i, rot, 9 * i);
            double cx = com[3 * i];
            double cy = com[3 * i + 1];
            double cz = com[3 * i + 2];
            int r = 9 * i;
            comWorld[3 * i] = origin[3 * i] + rot[r] * cx + rot[r + 1] * cy + rot[r + 2] * cz;
            comWorld[3 * i + 1] = origin[3 * i + 1] + rot[r + 3] * cx + rot[r + 4] * cy + rot[r + 5] * cz;
            comWorld[3 * i + 2] = origin[3 * i + 2] + rot[r + 6] * cx + rot[r + 7] * cy + rot[r + 8] * cz;
        }
        // Lambda_l: column j for every joint j on l's path
        java.util.Arrays.fill(lambda, 0);
        for (int l = 0; l < n; l++) {
            int base = 6 * n * l;
            for (int j = l; j >= 0; j = parent[j]) {
                double ax = axisWorld[3 * j];
                double ay = axisWorld[3 * j + 1];
                double az = axisWorld[3 * j + 2];
                if (type[j] == REVOLUTE) {
                    double rx = comWorld[3 * l] - origin[3 * j];
                    double ry = comWorld[3 * l + 1] - origin[3 * j + 1];
                    double rz = comWorld[3 * l + 2] - origin[3 * j + 2];
                    lambda[base + j] = ay * rz - az * ry;
                    lambda[base + n + j] = az * rx - ax * rz;
                    lambda[base + 2 * n + j] = ax * ry - ay * rx;
                    lambda[base + 3 * n + j] = ax;
                    lambda[base + 4 * n + j] = ay;
                    lambda[base + 5 * n + j] = az;
                } else {
                    lambda[base + j] = ax;
                    lambda[base + n + j] = ay;
                    lambda[base + 2 * n + j] = az;
                }
            }
        }
    }

    /** Rotation matrix (row-major) of the unit quaternion q at qi. */
    static void matrix(double[] q, int qi, double[] m, int mi) {
        double w = q[qi];
        double x = q[qi + 1];
        double y = q[qi + 2];
        double z = q[qi + 3];
        m[mi] = 1 - 2 * (y * y + z * z);
        m[mi + 1] = 2 * (x * y - w * z);
        m[mi + 2] = 2 * (x * z + w * y);
        m[mi + 3] = 2 * (x * y + w * z);
        m[mi + 4] = 1 - 2 * (x * x + z * z);
        m[mi + 5] = 2 * (y * z - w * x);
        m[mi + 6] = 2 * (x * z - w * y);
        m[mi + 7] = 2 * (y * z + w * x);
        m[mi + 8] = 1 - 2 * (x * x + y * y);
    }

    /** Link i's inertia about its COM in world axes into {@link #iw}. */
    private void worldInertia(int i) {
        if (!inertiaFresh) {
            // every link's R I R^T once per configuration (the mass matrix and both bias passes use it)
            for (int l = 0; l < n; l++) {
                int r = 9 * l;
                // t = R I, then iw = t R^T (symmetric: the upper triangle, mirrored)
                for (int a = 0; a < 3; a++) {
                    for (int b = 0; b < 3; b++) {
                        t9[3 * a + b] = rot[r + 3 * a] * inertia[r + b] + rot[r + 3 * a + 1] * inertia[r + 3 + b]
                                + rot[r + 3 * a + 2] * inertia[r + 6 + b];
                    }
                }
                for (int a = 0; a < 3; a++) {
                    for (int b = a; b < 3; b++) {
                        double v = t9[3 * a] * rot[r + 3 * b] + t9[3 * a + 1] * rot[r + 3 * b + 1] + t9[3 * a + 2] * rot[r + 3 * b + 2];
                        iwAll[r + 3 * a + b] = v;
                        iwAll[r + 3 * b + a] = v;
                    }
                }
            }
            inertiaFresh = true;
        }
        System.arraycopy(iwAll, 9 * i, iw, 0, 9);
    }

    /**
     * The joint-space mass matrix H(q) at the last {@link #kinematics} configuration, added to
     * {@code out} (n x n row-major at o; callers zero it or pre-fill armature).
     */
    public void addMassMatrix(double[] out, int o) {
        for (int l = 0; l < n; l++) {
            double m = mass[l];
            if (m == 0 && inertia[9 * l] == 0 && inertia[9 * l + 4] == 0 && inertia[9 * l + 8] == 0) {
                continue; // a massless link adds nothing
            }
            worldInertia(l);
            int base = 6 * n * l;
            // I_w times the angular rows of Lambda_l, column b at [3 b .. 3 b + 3)
            for (int b = 0; b <= l; b++) {
                if (!onPath[n * l + b]) {
                    continue;
                }
                double jx = lambda[base + 3 * n + b];
                double jy = lambda[base + 4 * n + b];
                double jz = lambda[base + 5 * n + b];
                iLambda[3 * b] = iw[0] * jx + iw[1] * jy + iw[2] * jz;
                iLambda[3 * b + 1] = iw[3] * jx + iw[4] * jy + iw[5] * jz;
                iLambda[3 * b + 2] = iw[6] * jx + iw[7] * jy + iw[8] * jz;
            }
            for (int a = 0; a <= l; a++) {
                if (!onPath[n * l + a]) {
                    continue;
                }
                double vx = lambda[base + a];
                double vy = lambda[base + n + a];
                double vz = lambda[base + 2 * n + a];
                double wx = lambda[base + 3 * n + a];
                double wy = lambda[base + 4 * n + a];
                double wz = lambda[base + 5 * n + a];
                for (int b = a; b <= l; b++) {
                    if (!onPath[n * l + b]) {
                        continue;
                    }
                    double s = m * (vx * lambda[base + b] + vy * lambda[base + n + b] + vz * lambda[base + 2 * n + b])
                            + wx * iLambda[3 * b] + wy * iLambda[3 * b + 1] + wz * iLambda[3 * b + 2];
                    out[o + n * a + b] += s;
                    if (b != a) {
                        out[o + n * b + a] += s;
                    }
                }
            }
        }
    }

    /**
     * The bias forces C(q, qd) (Coriolis, centrifugal, gravity) at the last {@link #kinematics}
     * configuration, added to {@code out} at o (n entries): the torques that hold qdd = 0.
     *
     * @param qd      joint velocities at qdo
     * @param gravity (3), m/s^2
     */
    public void addBias(double[] qd, int qdo, double[] gravity, double[] out, int o) {
        for (int i = 0; i < n; i++) {
            int p = parent[i];
            double ax = axisWorld[3 * i];
            double ay = axisWorld[3 * i + 1];
            double az = axisWorld[3 * i + 2];
            double u = qd[qdo + i];
            double wpx = 0;
            double wpy = 0;
            double wpz = 0;
            double apx = 0;
            double apy = 0;
            double apz = 0;
            double aox = 0;
            double aoy = 0;
            double aoz = 0;
            double rx = origin[3 * i];
            double ry = origin[3 * i + 1];
            double rz = origin[3 * i + 2];
            if (p >= 0) {
                wpx = omega[3 * p];
                wpy = omega[3 * p + 1];
                wpz = omega[3 * p + 2];
                apx = alpha[3 * p];
                apy = alpha[3 * p + 1];
                apz = alpha[3 * p + 2];
                rx -= origin[3 * p];
                ry -= origin[3 * p + 1];
                rz -= origin[3 * p + 2];
                // a_o,p + alpha_p x r + w_p x (w_p x r)
                double cx = wpy * rz - wpz * ry;
                double cy = wpz * rx - wpx * rz;
                double cz = wpx * ry - wpy * rx;
                aox = accO[3 * p] + (apy * rz - apz * ry) + (wpy * cz - wpz * cy);
                aoy = accO[3 * p + 1] + (apz * rx - apx * rz) + (wpz * cx - wpx * cz);
                aoz = accO[3 * p + 2] + (apx * ry - apy * rx) + (wpx * cy - wpy * cx);
            }
            if (type[i] == REVOLUTE) {
                omega[3 * i] = wpx + ax * u;
                omega[3 * i + 1] = wpy + ay * u;
                omega[3 * i + 2] = wpz + az * u;
                alpha[3 * i] = apx + (wpy * az - wpz * ay) * u;
                alpha[3 * i + 1] = apy + (wpz * ax - wpx * az) * u;
                alpha[3 * i + 2] = apz + (wpx * ay - wpy * ax) * u;
            } else {
                omega[3 * i] = wpx;
                omega[3 * i + 1] = wpy;
                omega[3 * i + 2] = wpz;
                alpha[3 * i] = apx;
                alpha[3 * i + 1] = apy;
                alpha[3 * i + 2] = apz;
                aox += 2 * (wpy * az - wpz * ay) * u;
                aoy += 2 * (wpz * ax - wpx * az) * u;
                aoz += 2 * (wpx * ay - wpy * ax) * u;
            }
            accO[3 * i] = aox;
            accO[3 * i + 1] = aoy;
            accO[3 * i + 2] = aoz;
        }
        for (int l = 0; l < n; l++) {
            double m = mass[l];
            double wx = omega[3 * l];
            double wy = omega[3 * l + 1];
            double wz = omega[3 * l + 2];
            double bx = alpha[3 * l];
            double by = alpha[3 * l + 1];
            double bz = alpha[3 * l + 2];
            double sx = comWorld[3 * l] - origin[3 * l];
            double sy = comWorld[3 * l + 1] - origin[3 * l + 1];
            double sz = comWorld[3 * l + 2] - origin[3 * l + 2];
            double cx = wy * sz - wz * sy;
            double cy = wz * sx - wx * sz;
            double cz = wx * sy - wy * sx;
            double acx = accO[3 * l] + (by * sz - bz * sy) + (wy * cz - wz * cy);
            double acy = accO[3 * l + 1] + (bz * sx - bx * sz) + (wz * cx - wx * cz);
            double acz = accO[3 * l + 2] + (bx * sy - by * sx) + (wx * cy - wy * cx);
            force[0] = m * (acx - gravity[0]);
            force[1] = m * (acy - gravity[1]);
            force[2] = m * (acz - gravity[2]);
            worldInertia(l);
            double lx = iw[0] * wx + iw[1] * wy + iw[2] * wz;
            double ly = iw[3] * wx + iw[4] * wy + iw[5] * wz;
            double lz = iw[6] * wx + iw[7] * wy + iw[8] * wz;
            force[3] = iw[0] * bx + iw[1] * by + iw[2] * bz + (wy * lz - wz * ly);
            force[4] = iw[3] * bx + iw[4] * by + iw[5] * bz + (wz * lx - wx * lz);
            force[5] = iw[6] * bx + iw[7] * by + iw[8] * bz + (wx * ly - wy * lx);
            int base = 6 * n * l;
            for (int j = l; j >= 0; j = parent[j]) {
                double s = 0;
                for (int d = 0; d < 6; d++) {
                    s += lambda[base + d * n + j] * force[d];
                }
                out[o + j] += s;
            }
        }
    }

    /** @return the Jacobians, Lambda_l at [6 n l], 6 x n row-major (read-only view of the scratch) */
    public double[] lambdas() {
        return lambda;
    }

    /** @return link i's orientation (w, x, y, z) at [4i] (read-only view of the scratch) */
    public double[] linkQuaternions() {
        return quat;
    }

    /** @return link i's anchor (frame origin) in the world at [3i], m (read-only view) */
    public double[] linkOrigins() {
        return origin;
    }

    /** @return link i's centre of mass in the world at [3i], m (read-only view) */
    public double[] linkCentres() {
        return comWorld;
    }

    /** @return joint i's axis in the world at [3i], unit (read-only view) */
    public double[] worldAxes() {
        return axisWorld;
    }

    /** [v_com; w] of link l = Lambda_l qd into out[o..o+6). */
    public void linkVelocity(int l, double[] qd, int qdo, double[] out, int o) {
        int base = 6 * n * l;
        for (int d = 0; d < 6; d++) {
            double s = 0;
            for (int j = l; j >= 0; j = parent[j]) {
                s += lambda[base + d * n + j] * qd[qdo + j];
            }
            out[o + d] = s;
        }
    }
}
