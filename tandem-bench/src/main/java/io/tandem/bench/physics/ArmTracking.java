package io.tandem.bench.physics;

import io.tandem.physics.PhysicsState;

/**
 * Drives a 7-joint arm's PD targets so that a point on its last link follows a moving goal at a
 * goal orientation (shared/specs/physics-wave2.md 9.1): damped least squares on the point's 6 x 7
 * Jacobian (PhysicsState.pointJacobian), dq = J^T (J J^T + 1e-4 I)^-1 xi with xi the point's
 * position and the link's orientation error at the actual configuration; the PD target is q + dq
 * with the velocity J^T (J J^T + 1e-4 I)^-1 (goal velocity, 0). Allocation-free. Not thread-safe.
 */
final class ArmTracking {
    private final PhysicsState state;
    private final int[] dofs;
    private final int body;
    private final double[] pointInBody;
    private final double[] jac = new double[42];
    private final double[] jjt = new double[36];
    private final double[] xi = new double[6];
    private final double[] feed = new double[6];
    private final double[] p = new double[3];
    private final double[] task = new double[42];
    private final double[] axis = new double[3];
    private final double[] u1 = new double[3];
    private final double[] u2 = new double[3];
    private final double[] tmp = new double[3];
    private final double[] dqOut = new double[7];
    private final double[] dvOut = new double[7];

    /**
     * @param dofs        the arm's seven dofs, base to tip
     * @param body        the last link's body
     * @param pointInBody the tracked point in that body's frame, m
     */
    ArmTracking(PhysicsState state, int[] dofs, int body, double[] pointInBody) {
        this.state = state;
        this.dofs = dofs.clone();
        this.body = body;
        this.pointInBody = pointInBody.clone();
    }

    /** The tracked point in the world now, into out. */
    void point(double[] out) {
        double[] q = state.quat;
        int o = 4 * body;
        rotate(q[o], q[o + 1], q[o + 2], q[o + 3], pointInBody, out);
        for (int d = 0; d < 3; d++) {
            out[d] += state.pos[3 * body + d];
        }
    }

    /**
     * Sets the arm's PD targets for the coming step.
     *
     * @param goal     where the point should be after the step, world, m
     * @param goalVel  the goal's velocity, m/s
     * @param goalQuat the last link's goal orientation (w, x, y, z)
     */
    void track(double[] goal, double[] goalVel, double[] goalQuat) {
        point(p);
        for (int d = 0; d < 3; d++) {
            xi[d] = goal[d] - p[d];
            feed[d] = goalVel[d];
            feed[3 + d] = 0;
        }
        // orientation error: 2 vec(q_goal (x) conj(q)), the shorter way
        double[] q = state.quat;
        int o = 4 * body;
        double aw = goalQuat[0];
        double ax = goalQuat[1];
        double ay = goalQuat[2];
        double az = goalQuat[3];
        double bw = q[o];
        double bx = -q[o + 1];
        double by = -q[o + 2];
        double bz = -q[o + 3];
        double ew = aw * bw - ax * bx - ay * by - az * bz;
        double sign = ew < 0 ? -2 : 2;
        xi[3] = sign * (aw * bx + ax * bw + ay * bz - az * by);
        xi[4] = sign * (aw * by - ax * bz + ay * bw + az * bx);
        xi[5] = sign * (aw * bz + ax * by - ay * bx + az * bw);
        state.pointJacobian(dofs[6], p[0], p[1], p[2], jac);
        leastSquares(jac, 6);
        for (int k = 0; k < 7; k++) {
            state.setDofTarget(dofs[k], state.dofPosition(dofs[k]) + dqOut[k], dvOut[k]);
        }
    }

    /**
     * Sets the arm's PD targets for the coming step: the point to the goal and one axis of the last
     * link along a goal direction, the turn about that axis left free (a 5-dimensional task: a
     * beam held along the hand's axis may roll).
     *
     * @param axisInBody the link's axis, its body frame, unit
     * @param goalAxis   the direction it should point in the world, unit
     */
    void trackAxis(double[] goal, double[] goalVel, double[] axisInBody, double[] goalAxis) {
        axisStep(goal, goalVel, axisInBody, goalAxis);
        for (int k = 0; k < 7; k++) {
            state.setDofTarget(dofs[k], state.dofPosition(dofs[k]) + dqOut[k], dvOut[k]);
        }
    }

    /**
     * Poses the arm (kinematically, no dynamics) where the point is at the goal and the axis along
     * the goal direction: damped least-squares steps clamped to the joint limits.
     *
     * @param lo the joints' lower limits, rad
     * @param hi their upper limits
     * @return the remaining position error, m
     */
    double solveAxis(double[] goal, double[] axisInBody, double[] goalAxis, double[] lo, double[] hi, int iterations) {
        double[] zero = new double[3];
        for (int it = 0; it < iterations; it++) {
            axisStep(goal, zero, axisInBody, goalAxis);
            for (int k = 0; k < 7; k++) {
                double q = Math.max(lo[k] + 0.05, Math.min(hi[k] - 0.05, state.dofPosition(dofs[k]) + 0.5 * dqOut[k]));
                state.setDofState(dofs[k], q, 0);
            }
        }
        point(p);
        return Math.sqrt((goal[0] - p[0]) * (goal[0] - p[0]) + (goal[1] - p[1]) * (goal[1] - p[1])
                + (goal[2] - p[2]) * (goal[2] - p[2]));
    }

    /** The damped least-squares step of {@link #trackAxis} into dqOut and dvOut. */
    private void axisStep(double[] goal, double[] goalVel, double[] axisInBody, double[] goalAxis) {
        point(p);
        double[] q = state.quat;
        int o = 4 * body;
        rotate(q[o], q[o + 1], q[o + 2], q[o + 3], axisInBody, axis);
        // two directions across the current axis: the angular rows of the task
        double ax = Math.abs(axis[0]) < 0.9 ? 1 : 0;
        double ay = 1 - ax;
        cross(axis[0], axis[1], axis[2], ax, ay, 0, u1);
        normalize(u1);
        cross(axis[0], axis[1], axis[2], u1[0], u1[1], u1[2], u2);
        // the rotation that turns the axis onto the goal: axis x goal (small angles)
        cross(axis[0], axis[1], axis[2], goalAxis[0], goalAxis[1], goalAxis[2], tmp);
        for (int d = 0; d < 3; d++) {
            xi[d] = goal[d] - p[d];
            feed[d] = goalVel[d];
        }
        xi[3] = dot(u1, tmp);
        xi[4] = dot(u2, tmp);
        feed[3] = 0;
        feed[4] = 0;
        state.pointJacobian(dofs[6], p[0], p[1], p[2], jac);
        // rows 3 and 4: u1 and u2 along the angular rows (3..5) of the Jacobian
        for (int k = 0; k < 7; k++) {
            double wx = jac[7 * 3 + k];
            double wy = jac[7 * 4 + k];
            double wz = jac[7 * 5 + k];
            task[7 * 3 + k] = u1[0] * wx + u1[1] * wy + u1[2] * wz;
            task[7 * 4 + k] = u2[0] * wx + u2[1] * wy + u2[2] * wz;
            for (int r = 0; r < 3; r++) {
                task[7 * r + k] = jac[7 * r + k];
            }
        }
        leastSquares(task, 5);
    }

    /**
     * dq = J^T (J J^T + 1e-4 I)^-1 xi and the same for the feed-forward, over the first m (5 or 6)
     * rows of the 7-column task Jacobian j, into dqOut and dvOut.
     */
    private void leastSquares(double[] j, int m) {
        java.util.Arrays.fill(jjt, 0);
        for (int a = 0; a < 6; a++) {
            for (int b = 0; b < 6; b++) {
                double sum = a == b ? (a < m ? 1e-4 : 1) : 0;
                for (int k = 0; k < 7 && a < m && b < m; k++) {
                    sum += j[7 * a + k] * j[7 * b + k];
                }
                jjt[6 * a + b] = sum;
            }
        }
        // rows beyond m: identity, so the 6 x 6 factorization solves the m x m system
        for (int a = m; a < 6; a++) {
            xi[a] = 0;
            feed[a] = 0;
        }
        cholesky(jjt);
        solve(jjt, xi);
        solve(jjt, feed);
        for (int k = 0; k < 7; k++) {
            double dq = 0;
            double dv = 0;
            for (int a = 0; a < m; a++) {
                dq += j[7 * a + k] * xi[a];
                dv += j[7 * a + k] * feed[a];
            }
            dqOut[k] = dq;
            dvOut[k] = dv;
        }
    }

    private static void cross(double ax, double ay, double az, double bx, double by, double bz, double[] out) {
        out[0] = ay * bz - az * by;
        out[1] = az * bx - ax * bz;
        out[2] = ax * by - ay * bx;
    }

    private static double dot(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }

    private static void normalize(double[] a) {
        double n = Math.sqrt(dot(a, a));
        a[0] /= n;
        a[1] /= n;
        a[2] /= n;
    }

    static void rotate(double w, double x, double y, double z, double[] v, double[] out) {
        double tx = 2 * (y * v[2] - z * v[1]);
        double ty = 2 * (z * v[0] - x * v[2]);
        double tz = 2 * (x * v[1] - y * v[0]);
        out[0] = v[0] + w * tx + (y * tz - z * ty);
        out[1] = v[1] + w * ty + (z * tx - x * tz);
        out[2] = v[2] + w * tz + (x * ty - y * tx);
    }

    private static void cholesky(double[] m) {
        for (int j = 0; j < 6; j++) {
            double d = m[7 * j];
            for (int k = 0; k < j; k++) {
                d -= m[6 * j + k] * m[6 * j + k];
            }
            double l = Math.sqrt(d);
            m[7 * j] = l;
            for (int i = j + 1; i < 6; i++) {
                double x = m[6 * i + j];
                for (int k = 0; k < j; k++) {
                    x -= m[6 * i + k] * m[6 * j + k];
                }
                m[6 * i + j] = x / l;
            }
        }
    }

    private static void solve(double[] l, double[] x) {
        for (int i = 0; i < 6; i++) {
            double v = x[i];
            for (int k = 0; k < i; k++) {
                v -= l[6 * i + k] * x[k];
            }
            x[i] = v / l[7 * i];
        }
        for (int i = 5; i >= 0; i--) {
            double v = x[i];
            for (int k = i + 1; k < 6; k++) {
                v -= l[6 * k + i] * x[k];
            }
            x[i] = v / l[7 * i];
        }
    }
}
