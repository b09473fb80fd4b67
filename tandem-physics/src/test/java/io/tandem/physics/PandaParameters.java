package io.tandem.physics;

/**
 * The Franka Emika Panda's links 1-7 as published (shared/specs/physics-wave2.md 2.2, 2.3: the
 * kinematics of franka_ros, the inertials of Gaz et al. 2019 as franka_ros' inertial.yaml), turned
 * into world-frame data at q = 0 for tests: each URDF link frame's world pose, its joint's world
 * axis (the frame's z), its centre of mass and inertia in world axes. Link0 is the fixed base at
 * the world origin.
 */
public final class PandaParameters {
    /** joint origins (xyz, rpy) of joints 1-7 (2.2) */
    static final double[][] ORIGIN = {
            {0, 0, 0.333, 0, 0, 0},
            {0, 0, 0, -Math.PI / 2, 0, 0},
            {0, -0.316, 0, Math.PI / 2, 0, 0},
            {0.0825, 0, 0, Math.PI / 2, 0, 0},
            {-0.0825, 0.384, 0, -Math.PI / 2, 0, 0},
            {0, 0, 0, Math.PI / 2, 0, 0},
            {0.088, 0, 0, Math.PI / 2, 0, 0}};
    /** mass, COM (3), Ixx Iyy Izz Ixy Ixz Iyz of links 1-7 (2.3) */
    static final double[][] INERTIAL = {
            {4.970684, 0.003875, 0.002081, -0.04762, 0.70337, 0.70661, 0.0091170, -0.000139, 0.0067720, 0.019169},
            {0.646926, -0.003141, -0.02872, 0.003495, 0.0079620, 2.8110e-2, 2.5995e-2, -3.9250e-3, 1.0254e-2, 7.0400e-4},
            {3.228604, 2.7518e-2, 3.9252e-2, -6.6502e-2, 3.7242e-2, 3.6155e-2, 1.0830e-2, -4.7610e-3, -1.1396e-2, -1.2805e-2},
            {3.587895, -5.317e-2, 1.04419e-1, 2.7454e-2, 2.5853e-2, 1.9552e-2, 2.8323e-2, 7.7960e-3, -1.3320e-3, 8.6410e-3},
            {1.225946, -1.1953e-2, 4.1065e-2, -3.8437e-2, 3.5549e-2, 2.9474e-2, 8.6270e-3, -2.1170e-3, -4.0370e-3, 2.2900e-4},
            {1.666555, 6.0149e-2, -1.4117e-2, -1.0517e-2, 1.9640e-3, 4.3540e-3, 5.4330e-3, 1.0900e-4, -1.1580e-3, 3.4100e-4},
            {7.35522e-1, 1.0517e-2, -4.252e-3, 6.1597e-2, 1.2516e-2, 1.0027e-2, 4.8150e-3, -4.2800e-4, -1.1960e-3, -7.4100e-4}};

    /** world rotation (row-major 9) and origin (3) of URDF frames 1-7 at q = 0: [12 i] */
    public final double[] frames = new double[12 * 7];
    /** world joint axis (3i), anchor (3i) */
    public final double[] axis = new double[21];
    public final double[] anchor = new double[21];
    public final double[] mass = new double[7];
    /** world COM (3i) and inertia about it in world axes (9i) at q = 0 */
    public final double[] com = new double[21];
    public final double[] inertia = new double[63];

    public PandaParameters() {
        double[] r = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        double[] o = new double[3];
        for (int i = 0; i < 7; i++) {
            double[] j = ORIGIN[i];
            double[] rl = rpy(j[3], j[4], j[5]);
            double[] no = new double[3];
            for (int a = 0; a < 3; a++) {
                no[a] = o[a] + r[3 * a] * j[0] + r[3 * a + 1] * j[1] + r[3 * a + 2] * j[2];
            }
            r = mul(r, rl);
            o = no;
            System.arraycopy(r, 0, frames, 12 * i, 9);
            System.arraycopy(o, 0, frames, 12 * i + 9, 3);
            for (int a = 0; a < 3; a++) {
                axis[3 * i + a] = r[3 * a + 2];
                anchor[3 * i + a] = o[a];
            }
            double[] in = INERTIAL[i];
            mass[i] = in[0];
            for (int a = 0; a < 3; a++) {
                com[3 * i + a] = o[a] + r[3 * a] * in[1] + r[3 * a + 1] * in[2] + r[3 * a + 2] * in[3];
            }
            double[] local = {in[4], in[7], in[8], in[7], in[5], in[9], in[8], in[9], in[6]};
            double[] w = mul(mul(r, local), transpose(r));
            System.arraycopy(w, 0, inertia, 9 * i, 9);
        }
    }

    /** Menagerie's gains (2.5) */
    public static final double[] KP = {4500, 4500, 3500, 3500, 2000, 2000, 2000};
    public static final double[] KD = {450, 450, 350, 350, 200, 200, 200};
    public static final double[] LOWER = {-2.8973, -1.7628, -2.8973, -3.0718, -2.8973, -0.0175, -2.8973};
    public static final double[] UPPER = {2.8973, 1.7628, 2.8973, -0.0698, 2.8973, 3.7525, 2.8973};

    /**
     * Adds links 1-7 as bodies (at their centres of mass on principal axes) and the articulation
     * (joints at the URDF anchors about the frames' z), with the limits of 2.4 or none; returns the link bodies.
     *
     * @param top half size of a tray (a box 0.02 m thick, level at q = 0) on link 7 at the flange, 0 for none
     */
    public int[] addTo(PhysicsModel.Builder b, ArticulationBuilder[] out, String name, double top, boolean limits) {
        return addTo(b, out, name, top, limits, -1);
    }

    /** {@link #addTo(PhysicsModel.Builder, ArticulationBuilder[], String, double, boolean)} with global body ids idBase.. (or the indices: -1). */
    public int[] addTo(PhysicsModel.Builder b, ArticulationBuilder[] out, String name, double top, boolean limits, long idBase) {
        int[] bodies = new int[7];
        for (int i = 0; i < 7; i++) {
            double[] axes = new double[9];
            double[] moments = principal(java.util.Arrays.copyOfRange(inertia, 9 * i, 9 * i + 9), axes);
            double[] q = quaternion(axes);
            PhysicsModel.BodyBuilder bb = b.body(name + "_link" + (i + 1)).mass(mass[i], moments[0], moments[1], moments[2])
                    .position(com[3 * i], com[3 * i + 1], com[3 * i + 2]).orientation(q[0], q[1], q[2], q[3]);
            if (idBase >= 0) {
                bb.id(idBase + i);
            }
            if (i == 6 && top > 0) {
                // the flange, 0.107 along frame 7's z, in the body frame: axes^T (p - com)
                double[] p = new double[3];
                for (int a = 0; a < 3; a++) {
                    p[a] = frames[12 * 6 + 9 + a] + 0.107 * frames[12 * 6 + 3 * a + 2] - com[3 * i + a];
                }
                double[] local = new double[3];
                for (int a = 0; a < 3; a++) {
                    local[a] = axes[a] * p[0] + axes[3 + a] * p[1] + axes[6 + a] * p[2];
                }
                // a tray: a box (half sizes top, top, 0.01) with the world's axes at q = 0
                bb.box(top, top, 0.01).at(local[0], local[1], local[2], q[0], -q[1], -q[2], -q[3]);
            }
            bodies[i] = bb.add();
        }
        ArticulationBuilder a = b.articulation(name);
        for (int i = 0; i < 7; i++) {
            a.joint(JointType.REVOLUTE, i - 1, bodies[i], anchor[3 * i], anchor[3 * i + 1], anchor[3 * i + 2],
                    axis[3 * i], axis[3 * i + 1], axis[3 * i + 2]);
            if (limits) {
                a.limits(i, LOWER[i], UPPER[i]);
            }
        }
        out[0] = a;
        return bodies;
    }

    /** Eigenvalues of a symmetric 3 x 3 (cyclic Jacobi); the eigenvectors as the columns of axes (a rotation). */
    static double[] principal(double[] m, double[] axes) {
        double[] a = m.clone();
        double[] v = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        for (int sweep = 0; sweep < 50; sweep++) {
            for (int p = 0; p < 2; p++) {
                for (int q = p + 1; q < 3; q++) {
                    double apq = a[3 * p + q];
                    if (Math.abs(apq) < 1e-300) {
                        continue;
                    }
                    double theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq);
                    double t = Math.signum(theta) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
                    if (theta == 0) {
                        t = 1;
                    }
                    double c = 1 / Math.sqrt(t * t + 1);
                    double s = t * c;
                    // A = J^T A J, V = V J with J the rotation in the (p, q) plane
                    for (int k = 0; k < 3; k++) {
                        double akp = a[3 * k + p];
                        double akq = a[3 * k + q];
                        a[3 * k + p] = c * akp - s * akq;
                        a[3 * k + q] = s * akp + c * akq;
                    }
                    for (int k = 0; k < 3; k++) {
                        double apk = a[3 * p + k];
                        double aqk = a[3 * q + k];
                        a[3 * p + k] = c * apk - s * aqk;
                        a[3 * q + k] = s * apk + c * aqk;
                    }
                    for (int k = 0; k < 3; k++) {
                        double vkp = v[3 * k + p];
                        double vkq = v[3 * k + q];
                        v[3 * k + p] = c * vkp - s * vkq;
                        v[3 * k + q] = s * vkp + c * vkq;
                    }
                }
            }
        }
        // a right-handed frame
        double det = v[0] * (v[4] * v[8] - v[5] * v[7]) - v[1] * (v[3] * v[8] - v[5] * v[6]) + v[2] * (v[3] * v[7] - v[4] * v[6]);
        if (det < 0) {
            for (int k = 0; k < 3; k++) {
                v[3 * k + 2] = -v[3 * k + 2];
            }
        }
        System.arraycopy(v, 0, axes, 0, 9);
        return new double[] {a[0], a[4], a[8]};
    }

    /** Unit quaternion (w, x, y, z) of a rotation matrix (row-major). */
    static double[] quaternion(double[] r) {
        double tr = r[0] + r[4] + r[8];
        double w;
        double x;
        double y;
        double z;
        if (tr > 0) {
            double s = Math.sqrt(tr + 1) * 2;
            w = 0.25 * s;
            x = (r[7] - r[5]) / s;
            y = (r[2] - r[6]) / s;
            z = (r[3] - r[1]) / s;
        } else if (r[0] > r[4] && r[0] > r[8]) {
            double s = Math.sqrt(1 + r[0] - r[4] - r[8]) * 2;
            w = (r[7] - r[5]) / s;
            x = 0.25 * s;
            y = (r[1] + r[3]) / s;
            z = (r[2] + r[6]) / s;
        } else if (r[4] > r[8]) {
            double s = Math.sqrt(1 + r[4] - r[0] - r[8]) * 2;
            w = (r[2] - r[6]) / s;
            x = (r[1] + r[3]) / s;
            y = 0.25 * s;
            z = (r[5] + r[7]) / s;
        } else {
            double s = Math.sqrt(1 + r[8] - r[0] - r[4]) * 2;
            w = (r[3] - r[1]) / s;
            x = (r[2] + r[6]) / s;
            y = (r[5] + r[7]) / s;
            z = 0.25 * s;
        }
        double n = Math.sqrt(w * w + x * x + y * y + z * z);
        return new double[] {w / n, x / n, y / n, z / n};
    }

    static double[] rpy(double roll, double pitch, double yaw) {
        double cr = Math.cos(roll);
        double sr = Math.sin(roll);
        double cp = Math.cos(pitch);
        double sp = Math.sin(pitch);
        double cy = Math.cos(yaw);
        double sy = Math.sin(yaw);
        return new double[] {
                cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr,
                sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr,
                -sp, cp * sr, cp * cr};
    }

    static double[] mul(double[] a, double[] b) {
        double[] c = new double[9];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                for (int k = 0; k < 3; k++) {
                    c[3 * i + j] += a[3 * i + k] * b[3 * k + j];
                }
            }
        }
        return c;
    }

    static double[] transpose(double[] a) {
        return new double[] {a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]};
    }
}
