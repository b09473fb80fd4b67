package io.tandem.bench.physics;

import io.tandem.world.Pose;
import io.tandem.world.World;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/*
 * Implementation notes.
 *
 * Writes a fixed-base robot model of ours as MuJoCo MJCF (mujoco.readthedocs.io, "XML Reference"),
 * so MuJoCo steps the very same robot side by side with Tandem (tandem bench robot --mjcf): the
 * same link frames at q = 0 (nested bodies, each posed in its parent), inertials (mass, centre,
 * full inertia about the centre in the inertial frame), hinge and slide axes, ranges and damping;
 * position servos as MuJoCo's general actuators with affine bias (the menagerie's Panda's form),
 * force = Kp (q_target - q) - Kd qd, with the target folded into the constant bias term so that
 * ctrl = 0 holds it (mujoco-testspeed leaves ctrl at 0); the implicit integrator (velocity terms,
 * so the Kd and damping parts, implicit, as ours are); no collision geometry (contype 0). A
 * keyframe named "test" starts mujoco-testspeed at the held pose, at rest.
 */

/** The MJCF of a fixed-base robot with joint-space position servos, for a side-by-side run in MuJoCo. Allocates; not thread-safe. */
final class MjcfExport {
    private MjcfExport() {
    }

    /**
     * @param model    the robot: links posed at q = 0, one tree from a link welded to the world
     * @param joints   the actuated joints' names in order
     * @param target   each joint's held position, rad or m
     * @param kp       each joint's stiffness, N m/rad or N/m
     * @param kd       each joint's damping gain, N m s/rad or N s/m
     * @param stepS    the time step, s
     * @return the MJCF document
     */
    static String write(World.Model model, List<String> joints, double[] target, double[] kp, double[] kd, double stepS) {
        Map<String, World.Link> links = new TreeMap<>();
        for (World.Link l : model.links()) {
            links.put(l.name(), l);
        }
        Map<String, List<World.Joint>> children = new TreeMap<>();
        String root = null;
        for (World.Joint j : model.joints()) {
            if (j.parent().equals("world")) {
                root = j.child();
                continue;
            }
            children.computeIfAbsent(j.parent(), k -> new ArrayList<>()).add(j);
        }
        if (root == null) {
            throw new IllegalArgumentException("model '" + model.name() + "' has no link welded to the world");
        }
        StringBuilder b = new StringBuilder();
        b.append("<!-- written by tandem bench robot --mjcf: model '").append(model.name())
                .append("' as Tandem steps it (see MjcfExport) -->\n");
        b.append("<mujoco model=\"").append(model.name()).append("\">\n");
        b.append("  <compiler angle=\"radian\"/>\n");
        b.append(String.format(Locale.ROOT, "  <option timestep=\"%s\" integrator=\"implicit\" gravity=\"0 0 -9.81\"/>%n", stepS));
        b.append("  <default><geom contype=\"0\" conaffinity=\"0\"/></default>\n");
        b.append("  <worldbody>\n");
        body(b, links, children, links.get(root), Pose.IDENTITY, "    ");
        b.append("  </worldbody>\n  <actuator>\n");
        for (int i = 0; i < joints.size(); i++) {
            b.append(String.format(Locale.ROOT,
                    "    <general joint=\"%s\" gainprm=\"%s\" biastype=\"affine\" biasprm=\"%s %s %s\"/>%n",
                    joints.get(i), kp[i], kp[i] * target[i], -kp[i], -kd[i]));
        }
        b.append("  </actuator>\n  <keyframe>\n    <key name=\"test\" qpos=\"");
        for (int i = 0; i < target.length; i++) {
            b.append(i == 0 ? "" : " ").append(target[i]);
        }
        b.append("\"/>\n  </keyframe>\n</mujoco>\n");
        return b.toString();
    }

    private static void body(StringBuilder b, Map<String, World.Link> links, Map<String, List<World.Joint>> children,
                             World.Link link, Pose parent, String indent) {
        Pose rel = parent.inverse().compose(link.pose());
        b.append(indent).append("<body name=\"").append(link.name()).append("\" ").append(pose(rel)).append(">\n");
        World.Inertial in = link.inertial();
        if (in.mass() > 0) {
            // MJCF takes a full inertia in the body frame (no orientation with it): R I R^T
            Pose c = in.pose();
            double[][] r = {c.rotate(1, 0, 0), c.rotate(0, 1, 0), c.rotate(0, 0, 1)};
            double[][] i = {{in.ixx(), in.ixy(), in.ixz()}, {in.ixy(), in.iyy(), in.iyz()}, {in.ixz(), in.iyz(), in.izz()}};
            double[][] w = new double[3][3];
            for (int p = 0; p < 3; p++) {
                for (int q = 0; q < 3; q++) {
                    double sum = 0;
                    for (int k = 0; k < 3; k++) {
                        for (int l = 0; l < 3; l++) {
                            // column k of R is r[k]: (R I R^T)_pq = sum R_pk I_kl R_ql
                            sum += r[k][p] * i[k][l] * r[l][q];
                        }
                    }
                    w[p][q] = sum;
                }
            }
            b.append(String.format(Locale.ROOT, "%s  <inertial pos=\"%s %s %s\" mass=\"%s\" fullinertia=\"%s %s %s %s %s %s\"/>%n",
                    indent, c.x(), c.y(), c.z(), in.mass(), w[0][0], w[1][1], w[2][2], w[0][1], w[0][2], w[1][2]));
        }
        for (World.Joint j : children.getOrDefault(link.name(), List.of())) {
            World.Link child = links.get(j.child());
            StringBuilder inner = new StringBuilder();
            body(inner, links, children, child, link.pose(), indent + "  ");
            String joint = joint(j, child.pose());
            // the joint goes inside its child's body, after the body's opening line
            int open = inner.indexOf("\n") + 1;
            inner.insert(open, indent + "    " + joint + "\n");
            b.append(inner);
        }
        b.append(indent).append("</body>\n");
    }

    private static String joint(World.Joint j, Pose child) {
        if (j.kind() == World.JointKind.FIXED) {
            return "<!-- fixed joint " + j.name() + " -->";
        }
        Pose inv = child.inverse();
        double[] p = inv.transform(j.pose().x(), j.pose().y(), j.pose().z());
        double[] a = inv.rotate(j.axisX(), j.axisY(), j.axisZ());
        String type = j.kind() == World.JointKind.PRISMATIC ? "slide" : "hinge";
        String range = Double.isFinite(j.lower()) && Double.isFinite(j.upper())
                ? String.format(Locale.ROOT, " limited=\"true\" range=\"%s %s\"", j.lower(), j.upper()) : "";
        return String.format(Locale.ROOT, "<joint name=\"%s\" type=\"%s\" pos=\"%s %s %s\" axis=\"%s %s %s\" damping=\"%s\"%s/>",
                j.name(), type, p[0], p[1], p[2], a[0], a[1], a[2], j.damping(), range);
    }

    private static String pose(Pose p) {
        return String.format(Locale.ROOT, "pos=\"%s %s %s\" quat=\"%s %s %s %s\"", p.x(), p.y(), p.z(), p.qw(), p.qx(), p.qy(), p.qz());
    }
}
