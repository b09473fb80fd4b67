package io.tandem.physics;

import io.tandem.physics.internal.dynamics.ArticulatedTree;
import io.tandem.physics.internal.dynamics.RigidOps;

import java.util.List;

/**
 * The model's articulations (robots in joint coordinates), compiled from their builders into flat
 * per-joint arrays ("dofs", numbered across all articulations). Immutable; link frames per
 * {@link ArticulatedTree}: origin at the joint's anchor, world axes at the build pose.
 */
final class Articulations {
    final int count;
    final String[] name;
    /** first dof of each articulation (count + 1) */
    final int[] dofStart;
    final int dofs;
    /** articulation of each dof */
    final int[] articulationOf;
    /** child body of each dof, or -1 (massless link) */
    final int[] body;
    /** parent dof inside its articulation (local index), -1 for the base */
    final int[] parent;
    final int[] type;
    final double[] axis;
    final double[] offset;
    final double[] mass;
    final double[] com;
    final double[] inertia;
    /** body orientation at the build pose (4 per dof), composed after the link's rotation */
    final double[] bodyQuat0;
    final double[] lo;
    final double[] hi;
    final double[] damping;
    final double[] armature;
    final double[] friction;
    final double[] effort;
    final double[] kp;
    final double[] kd;
    final double[] q0;
    final double[] qd0;
    /** dof of each body (the joint whose child it is), or -1 */
    final int[] dofOfBody;
    /** per articulation: its floating root's body (dofs 0-5 its virtual joints), or -1 for a fixed base */
    final int[] floating;
    /** per articulation: whether its links collide with each other (not when joined by a joint) */
    final boolean[] selfCollide;
    /** per articulation: the static body its base is fixed to, or -1 */
    final int[] base;
    /** no-slip rows: their dof (whose link), point and direction in the link frame (3 + 3 each) */
    final int noSlips;
    final int[] noSlipDof;
    final double[] noSlipPoint;
    final double[] noSlipDirection;
    /** the no-slip row of each dof's link, or -1 */
    final int[] noSlipOfDof;

    Articulations(List<ArticulationBuilder> list, int bodies, double[] pos0, double[] quat0, double[] bodyMass,
                  double[] bodyInertia) {
        count = list.size();
        name = new String[count];
        dofStart = new int[count + 1];
        for (int a = 0; a < count; a++) {
            name[a] = list.get(a).name;
            dofStart[a + 1] = dofStart[a] + list.get(a).joints.size();
        }
        dofs = dofStart[count];
        selfCollide = new boolean[count];
        base = new int[count];
        floating = new int[count];
        for (int a = 0; a < count; a++) {
            selfCollide[a] = list.get(a).selfCollide;
            base[a] = list.get(a).base;
            floating[a] = list.get(a).floating;
        }
        articulationOf = new int[dofs];
        body = new int[dofs];
        parent = new int[dofs];
        type = new int[dofs];
        axis = new double[3 * dofs];
        offset = new double[3 * dofs];
        mass = new double[dofs];
        com = new double[3 * dofs];
        inertia = new double[9 * dofs];
        bodyQuat0 = new double[4 * dofs];
        lo = new double[dofs];
        hi = new double[dofs];
        damping = new double[dofs];
        armature = new double[dofs];
        friction = new double[dofs];
        effort = new double[dofs];
        kp = new double[dofs];
        kd = new double[dofs];
        q0 = new double[dofs];
        qd0 = new double[dofs];
        dofOfBody = new int[bodies];
        java.util.Arrays.fill(dofOfBody, -1);
        int ns = 0;
        for (ArticulationBuilder ab : list) {
            ns += ab.noSlip.size();
        }
        noSlips = ns;
        noSlipDof = new int[ns];
        noSlipPoint = new double[3 * ns];
        noSlipDirection = new double[3 * ns];
        noSlipOfDof = new int[dofs];
        java.util.Arrays.fill(noSlipOfDof, -1);
        double[] r = new double[9];
        int filled = 0;
        for (int a = 0; a < count; a++) {
            List<ArticulationBuilder.Joint> joints = list.get(a).joints;
            for (int k = 0; k < joints.size(); k++) {
                ArticulationBuilder.Joint j = joints.get(k);
                int d = dofStart[a] + k;
                articulationOf[d] = a;
                body[d] = j.body;
                parent[d] = j.parent;
                type[d] = j.type == JointType.PRISMATIC ? ArticulatedTree.PRISMATIC : ArticulatedTree.REVOLUTE;
                System.arraycopy(j.axis, 0, axis, 3 * d, 3);
                for (int e = 0; e < 3; e++) {
                    double base = j.parent < 0 ? 0 : joints.get(j.parent).anchor[e];
                    offset[3 * d + e] = j.anchor[e] - base;
                }
                bodyQuat0[4 * d] = 1;
                if (j.body >= 0) {
                    int b = j.body;
                    if (dofOfBody[b] >= 0) {
                        throw new IllegalArgumentException("body " + b + " is a link of two articulations ('"
                                + name[articulationOf[dofOfBody[b]]] + "' and '" + name[a] + "')");
                    }
                    dofOfBody[b] = d;
                    mass[d] = bodyMass[b];
                    for (int e = 0; e < 3; e++) {
                        com[3 * d + e] = pos0[3 * b + e] - j.anchor[e];
                    }
                    RigidOps.worldInertia(quat0, 4 * b, bodyInertia[3 * b], bodyInertia[3 * b + 1], bodyInertia[3 * b + 2], r, 0);
                    System.arraycopy(r, 0, inertia, 9 * d, 9);
                    System.arraycopy(quat0, 4 * b, bodyQuat0, 4 * d, 4);
                }
                lo[d] = j.lo;
                hi[d] = j.hi;
                damping[d] = j.damping;
                armature[d] = j.armature;
                friction[d] = j.friction;
                effort[d] = j.effort;
                kp[d] = j.kp;
                kd[d] = j.kd;
                q0[d] = j.q0;
                qd0[d] = j.qd0;
            }
            // no-slip rows in the link frame (world axes at the build pose, origin on the anchor)
            for (double[] row : list.get(a).noSlip) {
                int k = (int) row[0];
                int slot = filled++;
                noSlipDof[slot] = dofStart[a] + k;
                noSlipOfDof[dofStart[a] + k] = slot;
                for (int e = 0; e < 3; e++) {
                    noSlipPoint[3 * slot + e] = row[1 + e] - joints.get(k).anchor[e];
                    noSlipDirection[3 * slot + e] = row[4 + e];
                }
            }
            // a limit or friction row acts between the link and its parent's body: a massless parent
            // (other than the base) has none
            for (int k = 0; k < joints.size(); k++) {
                ArticulationBuilder.Joint j = joints.get(k);
                boolean rows = j.lo > Double.NEGATIVE_INFINITY || j.hi < Double.POSITIVE_INFINITY || j.friction > 0;
                boolean parentOk = j.parent < 0 || joints.get(j.parent).body >= 0
                        || j.type == JointType.REVOLUTE && translatesOnly(joints, j.parent);
                if (rows && (j.body < 0 || !parentOk)) {
                    throw new IllegalArgumentException("articulation '" + name[a] + "' joint " + k + ": limits and friction"
                            + " need a link body on the joint and on its parent (a revolute joint may also sit on"
                            + " massless slides)");
                }
            }
        }
    }

    /**
     * Re-centres articulation a's floating base (a no-op for a fixed one) on its root body's pose
     * and velocity: the tree's root placed so that the six virtual coordinates at 0 pose the body
     * where it is, those coordinates set to 0 and their rates to the body's velocity (the anchor's
     * and the angular, in the root's frame). The robot's pose and motion are unchanged. Allocates
     * nothing.
     */
    void recentre(int a, ArticulatedTree t, double[] pos, double[] quat, double[] linVel, double[] angVel, double[] q,
                  double[] qd) {
        int b = floating[a];
        if (b < 0) {
            return;
        }
        int d0 = dofStart[a];
        int r = d0 + 5;
        // the root link's rotation R0 = body (x) conj(body at the build pose)
        double bw = quat[4 * b];
        double bx = quat[4 * b + 1];
        double by = quat[4 * b + 2];
        double bz = quat[4 * b + 3];
        double cw = bodyQuat0[4 * r];
        double cx = -bodyQuat0[4 * r + 1];
        double cy = -bodyQuat0[4 * r + 2];
        double cz = -bodyQuat0[4 * r + 3];
        double w = bw * cw - bx * cx - by * cy - bz * cz;
        double x = bw * cx + bx * cw + by * cz - bz * cy;
        double y = bw * cy - bx * cz + by * cw + bz * cx;
        double z = bw * cz + bx * cy - by * cx + bz * cw;
        double norm = Math.sqrt(w * w + x * x + y * y + z * z);
        w /= norm;
        x /= norm;
        y /= norm;
        z /= norm;
        // the anchor: the body's centre less its link-frame centre, turned
        double sx = rotated(w, x, y, z, com, 3 * r, 0);
        double sy = rotated(w, x, y, z, com, 3 * r, 1);
        double sz = rotated(w, x, y, z, com, 3 * r, 2);
        t.setRoot(pos[3 * b] - sx, pos[3 * b + 1] - sy, pos[3 * b + 2] - sz, w, x, y, z);
        double ox = angVel[3 * b];
        double oy = angVel[3 * b + 1];
        double oz = angVel[3 * b + 2];
        // the anchor's velocity v - w x s, then both in the root's frame (conj(R0) applied)
        double vx = linVel[3 * b] - (oy * sz - oz * sy);
        double vy = linVel[3 * b + 1] - (oz * sx - ox * sz);
        double vz = linVel[3 * b + 2] - (ox * sy - oy * sx);
        for (int k = 0; k < 6; k++) {
            q[d0 + k] = 0;
        }
        for (int e = 0; e < 3; e++) {
            qd[d0 + e] = rotated(w, -x, -y, -z, vx, vy, vz, e);
            qd[d0 + 3 + e] = rotated(w, -x, -y, -z, ox, oy, oz, e);
        }
    }

    /** Whether the massless link p and all its massless ancestors only slide (so it never turns). */
    private static boolean translatesOnly(List<ArticulationBuilder.Joint> joints, int p) {
        for (int k = p; k >= 0 && joints.get(k).body < 0; k = joints.get(k).parent) {
            if (joints.get(k).type != JointType.PRISMATIC) {
                return false;
            }
        }
        return true;
    }

    /** The body whose velocity a row on dof d's parent side uses: the nearest ancestor link with a body, or -1 (world). */
    int parentBody(int d) {
        int a = articulationOf[d];
        int p = parent[d];
        while (p >= 0 && body[dofStart[a] + p] < 0) {
            p = parent[dofStart[a] + p];
        }
        return p < 0 ? -1 : body[dofStart[a] + p];
    }

    /** A fresh tree of articulation a (its own scratch). */
    ArticulatedTree tree(int a) {
        int s = dofStart[a];
        int n = dofStart[a + 1] - s;
        return new ArticulatedTree(java.util.Arrays.copyOfRange(parent, s, s + n), java.util.Arrays.copyOfRange(type, s, s + n),
                java.util.Arrays.copyOfRange(axis, 3 * s, 3 * (s + n)), java.util.Arrays.copyOfRange(offset, 3 * s, 3 * (s + n)),
                java.util.Arrays.copyOfRange(mass, s, s + n), java.util.Arrays.copyOfRange(com, 3 * s, 3 * (s + n)),
                java.util.Arrays.copyOfRange(inertia, 9 * s, 9 * (s + n)));
    }

    /**
     * Poses the links of articulation a from the tree's last {@link ArticulatedTree#kinematics}:
     * each link body at its centre of mass, turned by its link's rotation.
     */
    void writeLinkPoses(int a, ArticulatedTree t, double[] pos, double[] quat) {
        writeLinkPoses(a, t, pos, quat, true);
    }

    /**
     * {@link #writeLinkPoses(int, ArticulatedTree, double[], double[])}, leaving a floating root's
     * body alone when {@code root} is false: placing the links from the joints (outside the step)
     * must not move the body the base is re-centred on, not even by rounding, so that a state
     * placed twice steps bitwise as one placed once.
     */
    void writeLinkPoses(int a, ArticulatedTree t, double[] pos, double[] quat, boolean root) {
        double[] c = t.linkCentres();
        double[] lq = t.linkQuaternions();
        for (int k = 0; k < t.n; k++) {
            int d = dofStart[a] + k;
            int b = body[d];
            if (b < 0 || !root && b == floating[a]) {
                continue;
            }
            System.arraycopy(c, 3 * k, pos, 3 * b, 3);
            RigidOps.multiply(lq, 4 * k, bodyQuat0, 4 * d, quat, 4 * b);
        }
    }

    /** The links' velocities Lambda qd into linVel / angVel (3 per body). */
    void writeLinkVelocities(int a, ArticulatedTree t, double[] qd, double[] linVel, double[] angVel, double[] scratch6) {
        writeLinkVelocities(a, t, qd, linVel, angVel, scratch6, true);
    }

    /** The links' velocities, leaving a floating root's body alone unless {@code root} (see writeLinkPoses). */
    void writeLinkVelocities(int a, ArticulatedTree t, double[] qd, double[] linVel, double[] angVel, double[] scratch6,
                             boolean root) {
        int s = dofStart[a];
        for (int k = 0; k < t.n; k++) {
            int b = body[s + k];
            if (b < 0 || !root && b == floating[a]) {
                continue;
            }
            t.linkVelocity(k, qd, s, scratch6, 0);
            System.arraycopy(scratch6, 0, linVel, 3 * b, 3);
            System.arraycopy(scratch6, 3, angVel, 3 * b, 3);
        }
    }

    /**
     * Dof d's coordinate as its link bodies' poses show it (see PhysicsModel#dofPositionOfPoses);
     * NaN where a massless link that turns lies between the joint's link and its parent's body.
     * Allocates nothing.
     */
    double positionOfPoses(double[] pos, double[] quat, int d) {
        int a = articulationOf[d];
        int c = body[d];
        if (c < 0) {
            return Double.NaN;
        }
        // the parent's body and whether only slides lie between (so its link turns as that body)
        int k = parent[d];
        boolean slides = true;
        while (k >= 0 && body[dofStart[a] + k] < 0) {
            slides &= type[dofStart[a] + k] == ArticulatedTree.PRISMATIC;
            k = parent[dofStart[a] + k];
        }
        int pd = k < 0 ? -1 : dofStart[a] + k;
        int p = pd < 0 ? -1 : body[pd];
        boolean masslessParent = parent[d] >= 0 && body[dofStart[a] + parent[d]] < 0;
        if (!slides || type[d] == ArticulatedTree.PRISMATIC && masslessParent) {
            return Double.NaN;
        }
        // link rotations: body (x) conj(body at the build pose); the world's is the identity
        double pw = 1;
        double px = 0;
        double py = 0;
        double pz = 0;
        if (p >= 0) {
            double bw = quat[4 * p];
            double bx = quat[4 * p + 1];
            double by = quat[4 * p + 2];
            double bz = quat[4 * p + 3];
            double cw = bodyQuat0[4 * pd];
            double cx = -bodyQuat0[4 * pd + 1];
            double cy = -bodyQuat0[4 * pd + 2];
            double cz = -bodyQuat0[4 * pd + 3];
            pw = bw * cw - bx * cx - by * cy - bz * cz;
            px = bw * cx + bx * cw + by * cz - bz * cy;
            py = bw * cy - bx * cz + by * cw + bz * cx;
            pz = bw * cz + bx * cy - by * cx + bz * cw;
        }
        double bw = quat[4 * c];
        double bx = quat[4 * c + 1];
        double by = quat[4 * c + 2];
        double bz = quat[4 * c + 3];
        double cw0 = bodyQuat0[4 * d];
        double cx0 = -bodyQuat0[4 * d + 1];
        double cy0 = -bodyQuat0[4 * d + 2];
        double cz0 = -bodyQuat0[4 * d + 3];
        double lw = bw * cw0 - bx * cx0 - by * cy0 - bz * cz0;
        double lx = bw * cx0 + bx * cw0 + by * cz0 - bz * cy0;
        double ly = bw * cy0 - bx * cz0 + by * cw0 + bz * cx0;
        double lz = bw * cz0 + bx * cy0 - by * cx0 + bz * cw0;
        if (type[d] == ArticulatedTree.REVOLUTE) {
            // Rot(a, q) = conj(link_p) (x) link_c
            double w = pw * lw + px * lx + py * ly + pz * lz;
            double x = pw * lx - px * lw - py * lz + pz * ly;
            double y = pw * ly + px * lz - py * lw - pz * lx;
            double z = pw * lz - px * ly + py * lx - pz * lw;
            double angle = 2 * Math.atan2(x * axis[3 * d] + y * axis[3 * d + 1] + z * axis[3 * d + 2], w);
            if (angle > Math.PI) {
                angle -= 2 * Math.PI;
            } else if (angle <= -Math.PI) {
                angle += 2 * Math.PI;
            }
            return angle;
        }
        // prismatic: a_w . (anchor_c - anchor_p - R_p offset), each anchor its body's centre less
        // its link-frame COM turned by the link rotation; a_w = R_p a
        double sum = 0;
        for (int e = 0; e < 3; e++) {
            double anchorC = pos[3 * c + e] - rotated(lw, lx, ly, lz, com, 3 * d, e);
            double anchorP = p >= 0 ? pos[3 * p + e] - rotated(pw, px, py, pz, com, 3 * pd, e) : 0;
            sum += rotated(pw, px, py, pz, axis, 3 * d, e) * (anchorC - anchorP - rotated(pw, px, py, pz, offset, 3 * d, e));
        }
        return sum;
    }

    /** Component e of the unit quaternion (w, x, y, z) applied to v[o..o+3). */
    private static double rotated(double w, double x, double y, double z, double[] v, int o, int e) {
        return rotated(w, x, y, z, v[o], v[o + 1], v[o + 2], e);
    }

    /** Component e of the unit quaternion (w, x, y, z) applied to (vx, vy, vz). */
    private static double rotated(double w, double x, double y, double z, double vx, double vy, double vz, int e) {
        // v + 2 w (u x v) + 2 u x (u x v), u = (x, y, z)
        double tx = 2 * (y * vz - z * vy);
        double ty = 2 * (z * vx - x * vz);
        double tz = 2 * (x * vy - y * vx);
        return switch (e) {
            case 0 -> vx + w * tx + (y * tz - z * ty);
            case 1 -> vy + w * ty + (z * tx - x * tz);
            default -> vz + w * tz + (x * ty - y * tx);
        };
    }
}
