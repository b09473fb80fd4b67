package io.tandem.bench.physics;

import io.tandem.physics.PhysicsModel;
import io.tandem.physics.PhysicsState;
import io.tandem.physics.SolverSettings;
import io.tandem.world.Geometry;
import io.tandem.world.Pose;
import io.tandem.world.World;
import io.tandem.world.WorldRunner;
import java.util.ArrayList;
import java.util.List;

/*
 * Implementation notes.
 *
 * The SubADMM paper's beam scenario (seed 002; our recipe, shared/specs/physics-wave2.md 9.4, the
 * paper's numbers being blank): the Panda (PandaStir's arm: hand lumped into link 7, no fingers,
 * no stirrer shape) inserts a co-rotational FEM beam through a narrow opening in a wall.
 *   - Beam: 0.30 x 0.03 x 0.03 m, E = 1e7 Pa, nu = 0.45, 1000 kg/m^3 (0.27 kg); 20 x 2 x 2 cells
 *     of 6 tetrahedra (189 nodes, 480 tetrahedra); 4 blocks of 5 layers (27 duplicated nodes, 81
 *     tie rows); Rayleigh beta 1e-3 s; surface nodes collide as 1 mm spheres.
 *   - Grasp: the beam lies along the hand's +z from 0.08 m; its 18 nodes within 0.015 m of that end
 *     are welded to link 7 (ball joints, 54 hard rows).
 *   - Wall: static, x 0.60-0.62 m, 0.6 m wide, 0.8 m tall, with a 0.05 x 0.05 m opening centred at
 *     (0.61, 0, 0.40): 10 mm clearance per side around the beam's 30 mm.
 *   - Motion: the run starts with the beam's free end at (0.45, 0.005, 0.405) and the beam along
 *     +x (the arm posed there kinematically: clamped damped least squares from START, the arm
 *     leaning forward); it waits 0.5 s (the beam sags), advances along +x at 0.05 m/s for 4 s (its
 *     end 0.03 m past the wall's far face), then holds. The 5 mm offset and the sag make the
 *     beam touch the opening.
 *   - Ours, where 9.4 is silent: the Panda's base stands at (-0.55, 0, -0.2) m, 0.2 m below the
 *     floor (as on a stand in a pit): with the base on the floor no pose within the joint limits
 *     holds the beam horizontal at the opening's height at the approach (damped least squares ends
 *     8 cm off at x = -0.55, 11 cm at -0.45; joint 6 at its upper limit), and from -0.75 the advance
 *     leaves its reach. The arm tracks the beam's held end and axis, the beam's roll left free
 *     (ArmTracking.trackAxis, a 5-dimensional task); the PD has no gravity compensation, so the
 *     held end hangs about 1 cm below its goal.
 * Subsystems: 4 FEM blocks and the Panda, 5. h = 2 ms, gravity -9.81, mu 0.5.
 *
 * Placement: the world is compiled with the arm at q = 0 (the file's zero configuration) and the
 * beam posed in its hand there; then the arm is set to home and the beam's nodes moved rigidly
 * with link 7 (a rigid motion leaves the co-rotational beam unstrained).
 */

/** The Panda inserting a deformable beam through an opening (see the notes). Not thread-safe. */
final class PandaBeam {
    static final double STEP_S = 0.002;
    static final double BASE_X = -0.55;
    static final double BASE_Z = -0.2;
    static final double LENGTH = 0.30;
    static final double SIDE = 0.03;
    /** the beam's held end along the hand's z, m */
    static final double GRASP = 0.08;
    /** the hand frame in link 7's frame (franka_ros: 0.107 m along z, -45 degrees about z) */
    static final Pose HAND = new Pose(0, 0, 0.107, Math.cos(-Math.PI / 8), 0, 0, Math.sin(-Math.PI / 8));
    /**
     * the start: the arm leaning forward with the hand (and the beam) about horizontal (q2 - q4 +
     * q6 = 3 pi / 2); from the stir scene's home, which points the hand down, damped least squares
     * runs joint 6 into its upper limit (3.75 rad) on the way and loses the beam
     */
    static final double[] START = {0, 0.5, 0, -1.6, 0, 2.61, 0.785};
    static final double[] LOWER = {-2.8973, -1.7628, -2.8973, -3.0718, -2.8973, -0.0175, -2.8973};
    static final double[] UPPER = {2.8973, 1.7628, 2.8973, -0.0698, 2.8973, 3.7525, 2.8973};
    /** the held end's approach point: the free end at (0.45, 0.005, 0.405) */
    static final double[] APPROACH = {0.45 - 0.30, 0.005, 0.405};
    private static final double[] PLUS_X = {1, 0, 0};

    private final WorldRunner runner;
    private final PhysicsModel model;
    private final PhysicsState state;
    private final int[] dofs;
    private final int link7;
    private final int beam;
    private final ArmTracking tracking;
    private final double[] goal = new double[3];
    private final double[] ahead = new double[3];
    /** the hand's z (link 7's z: the hand turns about z only) in link 7's body frame (its principal axes) */
    private final double[] handZ;
    private double time;

    private PandaBeam(WorldRunner runner, Pose link7AtZero) {
        this.runner = runner;
        model = runner.physicsModel();
        state = runner.physicsState();
        dofs = PandaStir.armDofs(model);
        link7 = model.dofBody(dofs[6]);
        beam = 0;
        // the held end in link 7's body frame, from the file's poses at q = 0
        Pose body0 = bodyPose();
        double[] heldEnd = link7AtZero.compose(HAND).transform(0, 0, GRASP);
        double[] inBody = body0.inverse().transform(heldEnd[0], heldEnd[1], heldEnd[2]);
        double[] z0 = link7AtZero.rotate(0, 0, 1);
        handZ = body0.inverse().rotate(z0[0], z0[1], z0[2]);
        // the start, and the beam's nodes carried rigidly with link 7
        for (int i = 0; i < 7; i++) {
            state.setDofState(dofs[i], START[i], 0);
            state.setDofGains(dofs[i], PandaStir.KP[i], PandaStir.KP[i] / 10);
            state.setDofTarget(dofs[i], START[i], 0);
        }
        // the approach pose, solved kinematically from START (joint limits of franka_ros, less 0.05 rad)
        ArmTracking ik = new ArmTracking(state, dofs, link7, inBody);
        double residual = ik.solveAxis(APPROACH, handZ, PLUS_X, LOWER, UPPER, 400);
        if (residual > 1e-3) {
            throw new IllegalStateException("the beam scene's approach pose is out of the Panda's reach (" + residual + " m off)");
        }
        for (int i = 0; i < 7; i++) {
            state.setDofTarget(dofs[i], state.dofPosition(dofs[i]), 0);
        }
        Pose move = bodyPose().compose(body0.inverse());
        for (int i = 0; i < model.bodyCount(); i++) {
            if (model.bodyName(i).startsWith("beam/")) {
                double[] x = move.transform(state.pos[3 * i], state.pos[3 * i + 1], state.pos[3 * i + 2]);
                System.arraycopy(x, 0, state.pos, 3 * i, 3);
            }
        }
        tracking = new ArmTracking(state, dofs, link7, inBody);
    }

    /**
     * @param solver the constraint solver
     * @return the scene at its start: the arm at START holding the beam, at rest
     */
    static PandaBeam build(SolverSettings solver) {
        World.Model panda = PandaStir.arm(PandaStir.panda().models().get(0), false);
        World.Model arm = translated(panda, BASE_X, 0, BASE_Z);
        World.Link l7 = arm.links().stream().filter(l -> l.name().equals("link7")).findFirst().orElseThrow();
        List<World.Model> models = new ArrayList<>();
        models.add(arm);
        models.add(PandaStir.staticModel("ground", Pose.IDENTITY, List.of(
                new World.Collision("plane", Pose.IDENTITY, new Geometry.Plane(0, 0, 1, 100, 100), 0.5))));
        // the wall: x 0.60-0.62, y -0.3..0.3, z 0..0.8, an opening 0.05 x 0.05 about (0.61, 0, 0.40)
        double t = 0.02;
        models.add(PandaStir.staticModel("wall", Pose.translation(0.61, 0, 0), List.of(
                new World.Collision("below", Pose.translation(0, 0, 0.1875), new Geometry.Box(t, 0.6, 0.375), 0.5),
                new World.Collision("above", Pose.translation(0, 0, 0.6125), new Geometry.Box(t, 0.6, 0.375), 0.5),
                new World.Collision("left", Pose.translation(0, -0.1625, 0.40), new Geometry.Box(t, 0.275, 0.05), 0.5),
                new World.Collision("right", Pose.translation(0, 0.1625, 0.40), new Geometry.Box(t, 0.275, 0.05), 0.5))));
        // the beam in the hand at q = 0: its local x along the hand's z, from GRASP to GRASP + LENGTH
        Pose hand = l7.pose().compose(HAND);
        // local x -> hand z: a quarter turn about the hand's y
        Pose beamInHand = new Pose(0, 0, GRASP + LENGTH / 2, Math.cos(-Math.PI / 4), 0, Math.sin(-Math.PI / 4), 0);
        Pose beamPose = hand.compose(beamInHand);
        // its 18 nodes within 0.015 m of the held end: a world-aligned box about that end's 0.015 m
        double[] a = hand.transform(-0.02, -0.02, GRASP - 1e-6);
        double[] b = hand.transform(0.02, 0.02, GRASP + 0.015 + 1e-6);
        if (Math.abs(hand.rotate(0, 0, 1)[2]) < 1 - 1e-9) {
            throw new IllegalStateException("the Panda's hand at q = 0 is not vertical: the beam's weld box needs it");
        }
        World.NodeWeld weld = new World.NodeWeld(new World.Anchor("panda", "link7"), Math.min(a[0], b[0]), Math.min(a[1], b[1]),
                Math.min(a[2], b[2]), Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.max(a[2], b[2]));
        World.Deformable beam = new World.Deformable("beam", beamPose, LENGTH, SIDE, SIDE, 20, 2, 2, null,
                new World.Material(1e7, 0.45, 1000), 0, 1e-3, 4, 0.001, List.of(weld), 0);
        World w = new World("beam", "beam (shared/specs/physics-wave2.md 9.4)", 0, 0, -9.81, Math.round(STEP_S * 1e9), 1.0,
                models, List.of(), List.of(), false).withBodies(List.of(), List.of(beam));
        return new PandaBeam(new WorldRunner(w, solver, false), l7.pose());
    }

    /** A model moved by (dx, dy, dz) in the world: its links' and joints' poses (axes unchanged). */
    static World.Model translated(World.Model m, double dx, double dy, double dz) {
        Pose t = Pose.translation(dx, dy, dz);
        List<World.Link> links = new ArrayList<>();
        for (World.Link l : m.links()) {
            links.add(new World.Link(l.name(), t.compose(l.pose()), l.inertial(), l.collisions(), l.visuals(), l.line(), l.cameras()));
        }
        List<World.Joint> joints = new ArrayList<>();
        for (World.Joint j : m.joints()) {
            joints.add(new World.Joint(j.name(), j.kind(), j.parent(), j.child(), t.compose(j.pose()), j.axisX(), j.axisY(), j.axisZ(),
                    j.lower(), j.upper(), j.damping(), j.line(), j.effort(), j.velocityLimit(), j.motor(), j.friction()));
        }
        return new World.Model(m.name(), m.isStatic(), t.compose(m.pose()), links, joints, m.line(), m.coordinates(),
                m.controllers(), m.selfCollide());
    }

    /** The held end's goal at time t, into out. */
    void target(double t, double[] out) {
        double advance = 0.05 * Math.max(0, Math.min(4.0, t - 0.5));
        out[0] = APPROACH[0] + advance;
        out[1] = APPROACH[1];
        out[2] = APPROACH[2];
    }

    /** Sets the arm's PD targets for the coming step. Allocates nothing. */
    void control() {
        double h = STEP_S;
        target(time + h, goal);
        target(time + 2 * h, ahead);
        for (int d = 0; d < 3; d++) {
            ahead[d] = (ahead[d] - goal[d]) / h;
        }
        // the hand's z (the beam) along +x; its roll is free
        tracking.trackAxis(goal, ahead, handZ, PLUS_X);
        time += h;
    }

    /** @return the held end's distance from its goal now, m */
    double trackingError() {
        double[] p = new double[3];
        double[] g = new double[3];
        tracking.point(p);
        target(time, g);
        return Math.sqrt((p[0] - g[0]) * (p[0] - g[0]) + (p[1] - g[1]) * (p[1] - g[1]) + (p[2] - g[2]) * (p[2] - g[2]));
    }

    /** @return the beam's held end now (the tracked point), into out (m) */
    double[] heldEnd(double[] out) {
        tracking.point(out);
        return out;
    }

    /** @return the beam's free-end nodes' mean position now, into out (m) */
    double[] freeEnd(double[] out) {
        java.util.Arrays.fill(out, 0);
        int n = 0;
        double[] held = new double[3];
        tracking.point(held);
        // the free end: the nodes farthest from the held end (9 of them)
        double far = 0;
        for (int v = 0; v < model.deformableNodeCount(beam); v++) {
            int b = model.deformableNode(beam, v);
            far = Math.max(far, dist(state.pos, 3 * b, held));
        }
        for (int v = 0; v < model.deformableNodeCount(beam); v++) {
            int b = model.deformableNode(beam, v);
            if (dist(state.pos, 3 * b, held) > far - 0.01) {
                for (int d = 0; d < 3; d++) {
                    out[d] += state.pos[3 * b + d];
                }
                n++;
            }
        }
        for (int d = 0; d < 3; d++) {
            out[d] /= n;
        }
        return out;
    }

    private static double dist(double[] x, int o, double[] p) {
        return Math.sqrt((x[o] - p[0]) * (x[o] - p[0]) + (x[o + 1] - p[1]) * (x[o + 1] - p[1]) + (x[o + 2] - p[2]) * (x[o + 2] - p[2]));
    }

    PhysicsModel model() {
        return model;
    }

    PhysicsState state() {
        return state;
    }

    int beam() {
        return beam;
    }

    void close() {
        runner.close();
    }

    private Pose bodyPose() {
        return new Pose(state.pos[3 * link7], state.pos[3 * link7 + 1], state.pos[3 * link7 + 2], state.quat[4 * link7],
                state.quat[4 * link7 + 1], state.quat[4 * link7 + 2], state.quat[4 * link7 + 3]);
    }
}
