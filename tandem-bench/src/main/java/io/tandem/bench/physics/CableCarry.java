package io.tandem.bench.physics;

import io.tandem.physics.PhysicsModel;
import io.tandem.physics.PhysicsState;
import io.tandem.physics.SolverSettings;
import io.tandem.world.Geometry;
import io.tandem.world.Pose;
import io.tandem.world.World;
import io.tandem.world.WorldRunner;
import io.tandem.world.urdf.UrdfLoader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/*
 * Implementation notes.
 *
 * The SubADMM paper's cable scenario (seed 002; our recipe, shared/specs/physics-wave2.md 9.3,
 * the paper's numbers being blank): two mobile manipulators carry a cable and wind it around a post.
 *   - Robots: examples/robots/mobile_manipulator (copied into this jar at build time): a planar
 *     base (x, y, yaw; a no-slip row) carrying the Panda at base_link (0.25, 0, 0.2514), the hand
 *     lumped into link 7 (the URDF's fixed joints), no fingers: 10 joint coordinates each, one
 *     subsystem each. Models robot_1 and robot_2, bases at (0, -1.2) and (0, +1.2) facing +x,
 *     base_link 0.13228 m above the ground (4.1: the wheels' bottom on it; the URDF's wheels have
 *     no collisions, and its chassis box on the floor would be a contact no planar velocity can
 *     satisfy).
 *   - Cable: L = 2.0 m, d = 0.02 m, E = 1e7 Pa, nu = 0.45, 1200 kg/m^3, 40 segments of 0.05 m, 10
 *     per subsystem (4 runs); its start welded (6 hard rows) to robot 1's link 7 and its end to
 *     robot 2's, each at the hand's TCP (franka_ros hand_tcp: link 7 z 0.107 + 0.1034 m).
 *   - A static post, cylinder r 0.1 m, 1 m high, at (1.5, 0); a ground plane; mu 0.5; h = 2 ms.
 * Subsystems: 2 robots and 4 cable runs, 6; 20 joint coordinates. build(segments, ...) keeps L and
 * 10 segments per subsystem (9.3's scaling: 20, 40, 80, 160). Measured: 20, 80, 100 and 120 segments
 * run (2 s); 160 (12.5 mm segments, shorter than the diameter) diverges 0.2-0.6 s in, under
 * subAdmm(30), subAdmm(90) and pgs(30) alike, while that cable alone, clamped to the world, runs
 * under subAdmm(30) (pgs(30) diverges there too): open.
 *
 * Arms (ours, allowed by the issue instead of 9.3's IK): each arm is held by its joint-space PD
 * (PandaStir.KP, Kd = Kp / 10, no gravity compensation) at a fixed configuration, joint 1 at +pi/2
 * for robot 1 (at y = -1.2) and -pi/2 for robot 2, so the arm reaches towards the other robot,
 * joints 3 and 5 at 0, joint 6 = q2 - q4 (the hand vertical, pointing down, its fingers' axis
 * across the cable), joint 7 at pi/4 (the stir scene's home). A straight cable's length is its
 * ends' distance, so the cable starts straight with its ends L = 2.0 m apart: START (q2 -1.2098,
 * q4 -2.7218) puts the TCPs 0.20 m from the bases' centre lines, at (0.25, -+1.00, 0.80); over the
 * first RAMP_S = 0.5 s (smoothstep) the PD targets move to CARRY (q2 -0.8398, q4 -2.5678), the TCPs
 * at (0.25, -+0.90, 0.80), 1.80 m apart, and the cable sags (measured 0.38-0.40 m below its ends
 * while carried; the PD holds the arms 0.007 rad off their targets, the TCPs 4 mm low). The
 * configurations were solved on the URDF's kinematics to 0.1 mm.
 *
 * Welds at the start configuration: the engine computes a joint's anchors and reference rotation
 * from the bodies' build-time poses, and a robot's joint coordinates count from the build-time
 * configuration. The cable's two ends are welded to two different arms, so no rigid move of the
 * cable after a build at the URDF's zero configuration keeps both welds consistent with a straight
 * cable between the start TCPs. So each robot is re-posed before the build (posed): a throw-away
 * runner of the robot alone puts its arm at START, and every link's and joint's world pose (and
 * axis) is moved by its link's rigid motion, the joint limits shifted by the start angles. The
 * compiled robots' zero configuration is then START: their arm coordinates are offsets from it
 * (armJoint adds START back), and the cable is built straight between the start TCPs, each weld
 * exact at the build (the ends stay within 0.02 mm of the TCPs over the 10 s run).
 *
 * Motion (ours where 9.3 is loose), twists given before every step (WorldRunner.setTwist, as bench
 * robot's mobile scene: the base's velocity servo turns its targets with its heading), each with a
 * heading hold of HEADING_GAIN (yaw rate -1/s per rad of heading error; without it the cable's pull
 * on the arms turns the velocity-servoed bases 0.04 rad in 5 s):
 *   - 0-5 s: both bases drive +x at 0.3 m/s. The cable meets the post at about 3.8 s and hooks on
 *     it: its middle held back, the ends 0.35 m past the post by 5 s.
 *   - 5-10 s: base 1 stops; base 2 circles the post clockwise at 0.3 rad/s: twist (0.3 R, -0.3), R
 *     its distance from the post's axis at 5 s (about 1.2 m). It starts tangent to that circle
 *     (facing +x, the post on its right: no turn first), its arm keeping the hand towards the post,
 *     and the cable winds a further 1.5 rad around the post. 9.3 has base 2 circle base 1: with
 *     the bases 2.4 m apart and the post midway, that sweeps robot 2's TCP away from the post, and
 *     the cable's path around it would need about 3.4 m of the 2.0 m cable (kN on the arms); about
 *     the post the path grows only by the post's radius times the angle, and the cable ends about
 *     taut.
 *   - After 10 s both bases stop.
 * Measured over the 10 s (winding: the angle the cable's points sweep about the post's axis): 72
 * degrees at the start, 209 at 5 s, 298 at 10 s; the cable at most 17 mm longer than L, its lowest
 * segment 0.40 m above the ground; stable under subAdmm(30) and pgs(30) alike.
 */

/** Two mobile manipulators carrying a cable around a post (see the notes). Not thread-safe. */
final class CableCarry {
    static final double STEP_S = 0.002;
    static final int SEGMENTS = 40;
    static final int PER_SUBSYSTEM = 10;
    static final double LENGTH = 2.0;
    static final double DIAMETER = 0.02;
    static final World.Material MATERIAL = new World.Material(1e7, 0.45, 1200);
    static final double BASE_Y = 1.2;
    /** base_link above the ground, m (physics-wave2.md 4.1) */
    static final double BASE_Z = 0.13228;
    /** the TCP along link 7's z, m (franka_ros: flange 0.107, hand_tcp 0.1034) */
    static final double TCP_Z = 0.107 + 0.1034;
    static final double POST_X = 1.5;
    static final double POST_R = 0.1;
    static final double POST_H = 1.0;
    static final double SPEED = 0.3;
    static final double YAW_RATE = 0.3;
    static final double DRIVE_S = 5;
    static final double WIND_S = 5;
    /** the bases' heading hold, 1/s: yaw rate commanded per radian of heading error */
    static final double HEADING_GAIN = 1.0;
    static final String[] ROBOTS = {"robot_1", "robot_2"};
    /** the arms' start configurations: the TCPs L = 2.0 m apart at 0.80 m (see the notes) */
    static final double[][] START = {
        {Math.PI / 2, -1.2098, 0, -2.7218, 0, 1.5120, Math.PI / 4},
        {-Math.PI / 2, -1.2098, 0, -2.7218, 0, 1.5120, Math.PI / 4},
    };
    /** the arms' carrying configurations: the TCPs 1.80 m apart at 0.80 m, reached over RAMP_S */
    static final double[][] CARRY = {
        {Math.PI / 2, -0.8398, 0, -2.5678, 0, 1.7280, Math.PI / 4},
        {-Math.PI / 2, -0.8398, 0, -2.5678, 0, 1.7280, Math.PI / 4},
    };
    /** the arms' move from START to CARRY, s */
    static final double RAMP_S = 0.5;

    private final WorldRunner runner;
    private final PhysicsModel model;
    private final PhysicsState state;
    private final int segments;
    private final int firstSegment;
    private final int[][] arm = new int[2][7];
    private final int[][] base = new int[2][3];
    private final double[][] base0 = new double[2][2];
    private final int[] link7 = new int[2];
    /** each robot's TCP in its link 7 body frame */
    private final double[][] tcpInBody = new double[2][];
    /** the cable's start in its first segment's body frame, its end in its last's */
    private final double[][] endInSegment = new double[2][];
    private final double[] scratch = new double[3];
    private double windRadius = Double.NaN;
    private double windYaw;
    private double time;

    private CableCarry(WorldRunner runner, int segments, double[][] tcps) {
        this.runner = runner;
        this.segments = segments;
        model = runner.physicsModel();
        state = runner.physicsState();
        int first = -1;
        for (int i = 0; i < model.bodyCount(); i++) {
            if (model.bodyName(i).equals("cable/0")) {
                first = i;
            }
        }
        firstSegment = first;
        for (int r = 0; r < 2; r++) {
            int a = model.articulationIndex(ROBOTS[r]);
            for (int k = 0; k < 3; k++) {
                base[r][k] = model.dof(a, k);
            }
            for (int i = 0; i < 7; i++) {
                arm[r][i] = model.dof(a, 3 + i);
                state.setDofGains(arm[r][i], PandaStir.KP[i], PandaStir.KP[i] / 10);
                state.setDofTarget(arm[r][i], 0, 0);
            }
            link7[r] = model.dofBody(arm[r][6]);
            base0[r][0] = 0;
            base0[r][1] = r == 0 ? -BASE_Y : BASE_Y;
            tcpInBody[r] = bodyPose(link7[r]).inverse().transform(tcps[r][0], tcps[r][1], tcps[r][2]);
        }
        endInSegment[0] = bodyPose(firstSegment).inverse().transform(tcps[0][0], tcps[0][1], tcps[0][2]);
        endInSegment[1] = bodyPose(firstSegment + segments - 1).inverse().transform(tcps[1][0], tcps[1][1], tcps[1][2]);
    }

    /**
     * @param solver the constraint solver
     * @return the scene at its start: the robots at rest holding the straight cable, 40 segments
     */
    static CableCarry build(SolverSettings solver) {
        return build(SEGMENTS, solver);
    }

    /**
     * @param segments the cable's segments (9.3's scaling: 20, 40, 80, 160), 10 per subsystem
     * @param solver   the constraint solver
     * @return the scene at its start: the robots at rest holding the straight cable
     */
    static CableCarry build(int segments, SolverSettings solver) {
        if (segments < 1) {
            throw new IllegalArgumentException("the cable scene needs at least 1 segment, got " + segments);
        }
        World.Model urdf = mobileManipulator().models().get(0);
        List<World.Model> models = new ArrayList<>();
        double[][] tcps = new double[2][];
        for (int r = 0; r < 2; r++) {
            World.Model m = posed(urdf, ROBOTS[r], r == 0 ? -BASE_Y : BASE_Y, START[r], solver);
            World.Link l7 = m.links().stream().filter(l -> l.name().equals("link7")).findFirst().orElseThrow();
            tcps[r] = l7.pose().transform(0, 0, TCP_Z);
            models.add(m);
        }
        models.add(PandaStir.staticModel("ground", Pose.IDENTITY, List.of(
                new World.Collision("plane", Pose.IDENTITY, new Geometry.Plane(0, 0, 1, 100, 100), 0.5))));
        models.add(PandaStir.staticModel("post", Pose.translation(POST_X, 0, 0), List.of(
                new World.Collision("cylinder", Pose.translation(0, 0, POST_H / 2), new Geometry.Cylinder(POST_R, POST_H), 0.5))));
        World.Cable cable = new World.Cable("cable", tcps[0][0], tcps[0][1], tcps[0][2], tcps[1][0], tcps[1][1], tcps[1][2],
                segments, DIAMETER, MATERIAL, PER_SUBSYSTEM, new World.Anchor(ROBOTS[0], "link7"),
                new World.Anchor(ROBOTS[1], "link7"), 0);
        if (Math.abs(dist(tcps[0], tcps[1]) - LENGTH) > 1e-4) {
            throw new IllegalStateException("the cable scene's TCPs start " + dist(tcps[0], tcps[1]) + " m apart, not the cable's "
                    + LENGTH + " m: START is off");
        }
        World w = new World("cable", "cable (shared/specs/physics-wave2.md 9.3)", 0, 0, -9.81, Math.round(STEP_S * 1e9), 1.0,
                models, List.of(), List.of(), false).withBodies(List.of(cable), List.of());
        return new CableCarry(new WorldRunner(w, solver, false), segments, tcps);
    }

    /** The mobile manipulator of examples/robots, as loaded from this jar. */
    static World mobileManipulator() {
        try (InputStream in = CableCarry.class.getResourceAsStream("/io/tandem/bench/robots/mobile_manipulator.urdf")) {
            if (in == null) {
                throw new IllegalStateException("mobile_manipulator.urdf is missing from the tandem jar (built from examples/robots)");
            }
            return UrdfLoader.load(in, "mobile_manipulator.urdf", w -> { });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The URDF's robot named {@code name}, its base at (0, y, BASE_Z) facing +x, re-posed at the
     * arm's configuration q (joints 1-7), which becomes its zero configuration: every link's and
     * joint's world pose (and axis) moved with its link, the joint limits shifted by q.
     */
    static World.Model posed(World.Model urdf, String name, double y, double[] q, SolverSettings solver) {
        World.Model m = PandaBeam.translated(urdf, 0, y, BASE_Z);
        m = new World.Model(name, m.isStatic(), m.pose(), m.links(), m.joints(), m.line(), m.coordinates(), m.controllers(),
                m.selfCollide());
        World alone = new World(name, "the cable scene's " + name + " alone", 0, 0, -9.81, Math.round(STEP_S * 1e9), 1.0,
                List.of(m), List.of(), List.of(), false);
        java.util.Map<String, Pose> motion = new java.util.HashMap<>();
        WorldRunner r = new WorldRunner(alone, solver, false);
        try {
            PhysicsModel pm = r.physicsModel();
            PhysicsState s = r.physicsState();
            int a = pm.articulationIndex(name);
            Pose[] before = new Pose[pm.bodyCount()];
            for (int i = 0; i < pm.bodyCount(); i++) {
                before[i] = pose(s, i);
            }
            for (int i = 0; i < 7; i++) {
                int d = pm.dof(a, 3 + i);
                String link = name + "::link" + (i + 1);
                if (!pm.bodyName(pm.dofBody(d)).equals(link)) {
                    throw new IllegalStateException("the mobile manipulator's coordinate " + (3 + i) + " moves "
                            + pm.bodyName(pm.dofBody(d)) + ", not " + link);
                }
                s.setDofState(d, q[i], 0);
            }
            for (int i = 0; i < pm.bodyCount(); i++) {
                String link = pm.bodyName(i).substring(name.length() + 2);
                motion.put(link, pose(s, i).compose(before[i].inverse()));
            }
        } finally {
            r.close();
        }
        List<World.Link> links = new ArrayList<>();
        for (World.Link l : m.links()) {
            Pose t = motion.getOrDefault(l.name(), Pose.IDENTITY);
            links.add(new World.Link(l.name(), t.compose(l.pose()), l.inertial(), l.collisions(), l.visuals(), l.line(), l.cameras()));
        }
        List<World.Joint> joints = new ArrayList<>();
        for (World.Joint j : m.joints()) {
            Pose t = motion.getOrDefault(j.child(), Pose.IDENTITY);
            double[] axis = t.rotate(j.axisX(), j.axisY(), j.axisZ());
            double shift = 0;
            for (int i = 0; i < 7; i++) {
                if (j.child().equals("link" + (i + 1))) {
                    shift = q[i];
                }
            }
            joints.add(new World.Joint(j.name(), j.kind(), j.parent(), j.child(), t.compose(j.pose()), axis[0], axis[1], axis[2],
                    j.lower() - shift, j.upper() - shift, j.damping(), j.line(), j.effort(), j.velocityLimit(), j.motor(),
                    j.friction()));
        }
        return new World.Model(name, m.isStatic(), m.pose(), links, joints, m.line(), m.coordinates(), m.controllers(),
                m.selfCollide());
    }

    /** Sets the arms' PD targets and the bases' twists for the coming step (see the notes). Allocates nothing. */
    void control() {
        // the arms: smoothstep from START to CARRY over RAMP_S (their coordinates count from START)
        double u = Math.min(1, (time + STEP_S) / RAMP_S);
        double s = u * u * (3 - 2 * u);
        double ds = u < 1 ? 6 * u * (1 - u) / RAMP_S : 0;
        for (int r = 0; r < 2; r++) {
            for (int i = 0; i < 7; i++) {
                double d = CARRY[r][i] - START[r][i];
                state.setDofTarget(arm[r][i], s * d, ds * d);
            }
        }
        double yaw0 = state.dofPosition(base[0][2]);
        double yaw1 = state.dofPosition(base[1][2]);
        if (time < DRIVE_S - 1e-9) {
            runner.setTwist(ROBOTS[0], SPEED, -HEADING_GAIN * yaw0);
            runner.setTwist(ROBOTS[1], SPEED, -HEADING_GAIN * yaw1);
        } else if (time < DRIVE_S + WIND_S - 1e-9) {
            if (Double.isNaN(windRadius)) {
                basePosition(1, scratch);
                windRadius = Math.hypot(scratch[0] - POST_X, scratch[1]);
                windYaw = yaw1;
            }
            double heading = windYaw - YAW_RATE * (time + STEP_S - DRIVE_S);
            runner.setTwist(ROBOTS[0], 0, -HEADING_GAIN * yaw0);
            runner.setTwist(ROBOTS[1], YAW_RATE * windRadius, -YAW_RATE - HEADING_GAIN * (yaw1 - heading));
        } else {
            runner.setTwist(ROBOTS[0], 0, 0);
            runner.setTwist(ROBOTS[1], 0, 0);
        }
        time += STEP_S;
    }

    /** @return robot r's base_link origin (x, y) and heading now, into out (m, rad) */
    double[] basePosition(int r, double[] out) {
        out[0] = base0[r][0] + state.dofPosition(base[r][0]);
        out[1] = base0[r][1] + state.dofPosition(base[r][1]);
        if (out.length > 2) {
            out[2] = state.dofPosition(base[r][2]);
        }
        return out;
    }

    /** @return robot r's TCP now, into out (m) */
    double[] tcp(int r, double[] out) {
        double[] p = bodyPose(link7[r]).transform(tcpInBody[r][0], tcpInBody[r][1], tcpInBody[r][2]);
        System.arraycopy(p, 0, out, 0, 3);
        return out;
    }

    /** @return the cable's start (e = 0) or end (e = 1) point now, into out (m) */
    double[] cableEnd(int e, double[] out) {
        int b = e == 0 ? firstSegment : firstSegment + segments - 1;
        double[] p = bodyPose(b).transform(endInSegment[e][0], endInSegment[e][1], endInSegment[e][2]);
        System.arraycopy(p, 0, out, 0, 3);
        return out;
    }

    /** @return the larger of the two cable ends' distances from their TCPs now, m (how well the welds hold) */
    double weldError() {
        double[] a = new double[3];
        double[] b = new double[3];
        double worst = 0;
        for (int e = 0; e < 2; e++) {
            worst = Math.max(worst, dist(cableEnd(e, a), tcp(e, b)));
        }
        return worst;
    }

    /** @return the largest arm joint's distance from its carrying angle now, rad */
    double armDrift() {
        double worst = 0;
        for (int r = 0; r < 2; r++) {
            for (int i = 0; i < 7; i++) {
                worst = Math.max(worst, Math.abs(armJoint(r, i) - CARRY[r][i]));
            }
        }
        return worst;
    }

    /** @return robot r's arm joint i now (rad, in the URDF's convention: its start angle plus the compiled offset) */
    double armJoint(int r, int i) {
        return START[r][i] + state.dofPosition(arm[r][i]);
    }

    /** @return segment k's centre now, into out (m) */
    double[] segment(int k, double[] out) {
        int b = firstSegment + k;
        out[0] = state.pos[3 * b];
        out[1] = state.pos[3 * b + 1];
        out[2] = state.pos[3 * b + 2];
        return out;
    }

    /** @return the lowest segment centre's height now, m */
    double lowestSegment() {
        double low = Double.POSITIVE_INFINITY;
        for (int k = 0; k < segments; k++) {
            low = Math.min(low, state.pos[3 * (firstSegment + k) + 2]);
        }
        return low;
    }

    /** @return the cable ends' mean height less its middle's (the centre of its middle segment or two), m */
    double sag() {
        double[] p = new double[3];
        double ends = (cableEnd(0, p)[2] + cableEnd(1, p)[2]) / 2;
        double mid = segments % 2 == 1 ? segment(segments / 2, p)[2] : (segment(segments / 2 - 1, p)[2] + segment(segments / 2, p)[2]) / 2;
        return ends - mid;
    }

    /** @return the cable's length now: its polyline through the segments' centres and its two end points, m */
    double length() {
        double[] prev = cableEnd(0, new double[3]);
        double[] p = new double[3];
        double sum = 0;
        for (int k = 0; k < segments; k++) {
            segment(k, p);
            sum += dist(prev, p);
            System.arraycopy(p, 0, prev, 0, 3);
        }
        return sum + dist(prev, cableEnd(1, p));
    }

    /**
     * @return the angle the cable winds about the post's axis now, rad: the absolute sum of the
     *         signed angles its points (ends and segment centres, in order) turn through as seen
     *         from the axis (pi for a cable wrapped half around it)
     */
    double winding() {
        double[] p = cableEnd(0, new double[3]);
        double prev = Math.atan2(p[1], p[0] - POST_X);
        double sum = 0;
        for (int k = 0; k <= segments; k++) {
            if (k < segments) {
                segment(k, p);
            } else {
                cableEnd(1, p);
            }
            double a = Math.atan2(p[1], p[0] - POST_X);
            double d = a - prev;
            if (d > Math.PI) {
                d -= 2 * Math.PI;
            } else if (d < -Math.PI) {
                d += 2 * Math.PI;
            }
            sum += d;
            prev = a;
        }
        return Math.abs(sum);
    }

    /** @return the robots' and cable runs' count: SubADMM's subsystems (2 + the segments / 10, rounded up) */
    int subsystems() {
        return model.articulationCount() + (segments + PER_SUBSYSTEM - 1) / PER_SUBSYSTEM;
    }

    int segments() {
        return segments;
    }

    /** @return the body index of segment 0; the cable's segments follow it */
    int firstSegment() {
        return firstSegment;
    }

    PhysicsModel model() {
        return model;
    }

    PhysicsState state() {
        return state;
    }

    /** Releases the runner that compiled the scene (the caller steps the model with an engine of its own). */
    void close() {
        runner.close();
    }

    private Pose bodyPose(int b) {
        return pose(state, b);
    }

    private static Pose pose(PhysicsState s, int b) {
        return new Pose(s.pos[3 * b], s.pos[3 * b + 1], s.pos[3 * b + 2], s.quat[4 * b], s.quat[4 * b + 1], s.quat[4 * b + 2],
                s.quat[4 * b + 3]);
    }

    private static double dist(double[] a, double[] b) {
        return Math.sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
    }
}
