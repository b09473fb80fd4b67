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
 * The SubADMM paper's stir scenario with its robot (seed 002; our recipe, shared/specs/
 * physics-wave2.md 9.1-9.2, since the paper's numbers are blank): the Franka Emika Panda of
 * examples/robots/panda/panda.urdf (copied into this jar at build time) on a fixed base at the
 * origin, in joint coordinates (one subsystem), its hand and a stirrer (capsule r 0.01 m, 0.25 m
 * along the hand's z from 0.0584 m, 0.1 kg) lumped into link 7 with 9.2's mass, centre and inertia,
 * no fingers; a static open box centred at (0.5, 0, 0), inner 0.5 x 0.5 m, walls 0.15 m high and
 * 0.02 m thick, on a ground plane (link 1 without collisions: its capsule reaches the floor); N spheres r 0.02 m, 600 kg/m^3, on a 10 x 10 grid per layer,
 * 0.045 m apart (+-1 mm jitter, seed 1 unless chosen), the first layer at z = 0.03; friction 0.5, h = 2 ms.
 * One subsystem per sphere plus the robot: N + 1.
 *
 * Control, per step before the physics: the stirrer's tip traces a horizontal circle of radius
 * 0.12 m about (0.5, 0, 0.04) at 0.5 Hz, reached from the start pose over a 1 s smoothstep ramp;
 * the hand keeps its start orientation. Damped least squares (9.1) on the tip's 6 x 7 Jacobian
 * (PhysicsState.pointJacobian): dq = J^T (J J^T + 1e-4 I)^-1 xi with xi the tip's position and
 * orientation error at the actual configuration; the PD target is q + dq with the velocity
 * J^T (J J^T + 1e-4 I)^-1 (pdot_d, 0) (ours: a target integrated from its own error, as 9.1 reads,
 * wound up behind the PD's lag). Gains Kp = (4500, 4500, 3500, 3500, 2000, 2000, 2000), Kd a tenth;
 * the effort limits (87 / 12 N m) from the URDF are counted, not enforced (1.4). 9.1's armature 0.1
 * is not set: URDF has no field for it, and the implicit PD needs none to be stable.
 */

/** The Panda stirring spheres in a box (see the notes): builds the scene and drives the arm. Not thread-safe. */
final class PandaStir {
    static final double STEP_S = 0.002;
    static final double[] HOME = {0, -0.785, 0, -2.356, 0, 1.571, 0.785};
    static final double[] KP = {4500, 4500, 3500, 3500, 2000, 2000, 2000};
    /** the stirrer's tip in link 7's frame, m */
    static final double TIP_Z = 0.4154;
    static final double SPHERE_R = 0.02;
    static final double SPHERE_DENSITY = 600;

    private final WorldRunner runner;
    private final PhysicsModel model;
    private final PhysicsState state;
    private final int[] dofs;
    private final int link7;
    /** the tip in link 7's body frame, and the body's start orientation (the hand keeps it) */
    private final double[] tipInBody = new double[3];
    private final double[] startQuat = new double[4];
    private final double[] startTip = new double[3];
    private final double[] xi = new double[3];
    private final double[] feed = new double[3];
    private ArmTracking tracking;
    private double time;

    private PandaStir(WorldRunner runner) {
        this.runner = runner;
        model = runner.physicsModel();
        state = runner.physicsState();
        dofs = armDofs(model);
        link7 = model.dofBody(dofs[6]);
    }

    /**
     * @param spheres N, at least 1
     * @param solver  the constraint solver
     * @return the scene at its start: the arm at (0, -0.785, 0, -2.356, 0, 1.571, 0.785), at rest
     */
    static PandaStir build(int spheres, SolverSettings solver) {
        return build(spheres, solver, 1);
    }

    /**
     * @param spheres N, at least 1
     * @param solver  the constraint solver
     * @param seed    the spheres' jitter (9.1's runs use seeds 1, 2 and 3)
     * @return the scene at its start
     */
    static PandaStir build(int spheres, SolverSettings solver, long seed) {
        if (spheres < 1) {
            throw new IllegalArgumentException("the stir scene needs at least 1 sphere, got " + spheres);
        }
        World panda = panda();
        World.Model arm = arm(panda.models().get(0));
        List<World.Model> models = new ArrayList<>();
        models.add(arm);
        models.add(staticModel("ground", Pose.IDENTITY, List.of(
                new World.Collision("plane", Pose.IDENTITY, new Geometry.Plane(0, 0, 1, 100, 100), 0.5))));
        double wall = 0.02;
        double reach = 0.25 + wall / 2;
        double span = 0.5 + 2 * wall;
        models.add(staticModel("box", Pose.translation(0.5, 0, 0), List.of(
                new World.Collision("wall_px", Pose.translation(reach, 0, 0.075), new Geometry.Box(wall, span, 0.15), 0.5),
                new World.Collision("wall_mx", Pose.translation(-reach, 0, 0.075), new Geometry.Box(wall, span, 0.15), 0.5),
                new World.Collision("wall_py", Pose.translation(0, reach, 0.075), new Geometry.Box(span, wall, 0.15), 0.5),
                new World.Collision("wall_my", Pose.translation(0, -reach, 0.075), new Geometry.Box(span, wall, 0.15), 0.5))));
        double mass = SPHERE_DENSITY * 4.0 / 3.0 * Math.PI * Math.pow(SPHERE_R, 3);
        double inertia = 0.4 * mass * SPHERE_R * SPHERE_R;
        java.util.Random rnd = new java.util.Random(seed);
        for (int k = 0; k < spheres; k++) {
            int layer = k / 100;
            int i = k % 10;
            int j = (k / 10) % 10;
            double x = 0.5 + (i - 4.5) * 0.045 + (rnd.nextDouble() * 2 - 1) * 0.001;
            double y = (j - 4.5) * 0.045 + (rnd.nextDouble() * 2 - 1) * 0.001;
            double z = 0.03 + layer * 0.045;
            World.Link l = new World.Link("ball", Pose.translation(x, y, z),
                    new World.Inertial(mass, Pose.IDENTITY, inertia, 0, 0, inertia, 0, inertia),
                    List.of(new World.Collision("c", Pose.IDENTITY, new Geometry.Sphere(SPHERE_R), 0.5)), List.of(), 0, List.of());
            models.add(new World.Model("sphere_" + k, false, Pose.IDENTITY, List.of(l), List.of(), 0));
        }
        World w = new World("stir", "stir (shared/specs/physics-wave2.md 9.2)", 0, 0, -9.81, Math.round(STEP_S * 1e9), 1.0,
                models, List.of(), List.of(), false);
        PandaStir scene = new PandaStir(new WorldRunner(w, solver, false));
        scene.start();
        return scene;
    }

    /** The stir scene's arm alone (no ground, nothing to touch), for {@code bench robot}'s held Panda. */
    static World armAlone() {
        return new World("panda", "the Panda alone (bench robot)", 0, 0, -9.81, Math.round(STEP_S * 1e9), 1.0,
                List.of(arm(panda().models().get(0))), List.of(), List.of(), false);
    }

    /** Puts the arm of {@link #armAlone} at home, at rest, with the stir scene's gains holding it there. */
    static void hold(PhysicsModel model, PhysicsState state) {
        int a = model.articulationIndex("panda");
        for (int i = 0; i < 7; i++) {
            int d = model.dof(a, i);
            state.setDofState(d, HOME[i], 0);
            state.setDofGains(d, KP[i], KP[i] / 10);
            state.setDofTarget(d, HOME[i], 0);
        }
    }

    /** @return the seven dofs of the model's articulation "panda", base to tip */
    static int[] armDofs(PhysicsModel model) {
        int a = model.articulationIndex("panda");
        int[] dofs = new int[7];
        for (int i = 0; i < 7; i++) {
            dofs[i] = model.dof(a, i);
        }
        return dofs;
    }

    static World panda() {
        try (InputStream in = PandaStir.class.getResourceAsStream("/io/tandem/bench/robots/panda.urdf")) {
            if (in == null) {
                throw new IllegalStateException("panda.urdf is missing from the tandem jar (built from examples/robots/panda)");
            }
            return UrdfLoader.load(in, "panda.urdf", w -> { });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The URDF's arm without its fingers, link 7 with the hand and the stirrer lumped in (9.2). */
    private static World.Model arm(World.Model m) {
        return arm(m, true);
    }

    /**
     * The URDF's arm without its fingers, link 7 with the hand and the stirrer lumped in (9.2), with
     * the stirrer's capsule or without it (the beam scene: the lumped mass stays).
     */
    static World.Model arm(World.Model m, boolean stirrer) {
        List<World.Link> links = new ArrayList<>();
        for (World.Link l : m.links()) {
            if (l.name().endsWith("finger")) {
                continue;
            }
            if (l.name().equals("link1")) {
                // franka_ros' capsule of link 1 reaches down into link 0, to z = 0 - 0.06 at the
                // base: on the floor it would press into the ground, which joint 1 cannot lift it
                // from (a contact no velocity can satisfy: its impulse grows without bound). Link 1
                // turns about the base's vertical axis within 0.06 m of it and cannot reach the
                // box, so it goes without collisions.
                l = new World.Link(l.name(), l.pose(), l.inertial(), List.of(), l.visuals(), l.line(), l.cameras());
            }
            if (l.name().equals("link7")) {
                World.Inertial in = new World.Inertial(1.565522, Pose.translation(0.001644, 0.001300, 0.111372),
                        0.020343, 0.000395, -0.000679, 0.017921, -0.001029, 0.006681);
                List<World.Collision> c = new ArrayList<>(l.collisions());
                // the stirrer: from hand z 0.0584 (link 7 z 0.1654) to the tip at link 7 z 0.4154
                if (stirrer) {
                    c.add(new World.Collision("stirrer", Pose.translation(0, 0, TIP_Z - 0.125), new Geometry.Capsule(0.01, 0.25), 0.5));
                }
                l = new World.Link(l.name(), l.pose(), in, c, l.visuals(), l.line(), l.cameras());
            }
            links.add(l);
        }
        List<World.Joint> joints = new ArrayList<>();
        for (World.Joint j : m.joints()) {
            if (!j.child().endsWith("finger")) {
                joints.add(j);
            }
        }
        return new World.Model(m.name(), false, m.pose(), links, joints, m.line());
    }

    static World.Model staticModel(String name, Pose pose, List<World.Collision> collisions) {
        World.Link l = new World.Link("body", pose, new World.Inertial(1, Pose.IDENTITY, 1, 0, 0, 1, 0, 1), collisions, List.of(), 0,
                List.of());
        return new World.Model(name, true, Pose.IDENTITY, List.of(l), List.of(), 0);
    }

    /** The tip's place on link 7's body (from the file's pose at q = 0), then the arm at home with its gains. */
    private void start() {
        World.Link l7 = runner.world().models().get(0).links().stream().filter(l -> l.name().equals("link7")).findFirst().orElseThrow();
        double[] tip = l7.pose().transform(0, 0, TIP_Z);
        Pose body = new Pose(state.pos[3 * link7], state.pos[3 * link7 + 1], state.pos[3 * link7 + 2], state.quat[4 * link7],
                state.quat[4 * link7 + 1], state.quat[4 * link7 + 2], state.quat[4 * link7 + 3]);
        double[] local = body.inverse().transform(tip[0], tip[1], tip[2]);
        System.arraycopy(local, 0, tipInBody, 0, 3);
        tracking = new ArmTracking(state, dofs, link7, tipInBody);
        for (int i = 0; i < 7; i++) {
            state.setDofState(dofs[i], HOME[i], 0);
            state.setDofGains(dofs[i], KP[i], KP[i] / 10);
            state.setDofTarget(dofs[i], HOME[i], 0);
        }
        System.arraycopy(state.quat, 4 * link7, startQuat, 0, 4);
        tip(startTip);
    }

    /** The stirrer's tip in the world now. */
    private void tip(double[] out) {
        tracking.point(out);
    }

    /** The tip's target at time t (the ramp into the circle), into out. */
    void target(double t, double[] out) {
        double w = 2 * Math.PI * 0.5;
        double cx = 0.5 + 0.12 * Math.cos(w * t);
        double cy = 0.12 * Math.sin(w * t);
        double cz = 0.04;
        double u = Math.min(1, t / 1.0);
        double s = u * u * (3 - 2 * u);
        out[0] = startTip[0] + s * (cx - startTip[0]);
        out[1] = startTip[1] + s * (cy - startTip[1]);
        out[2] = startTip[2] + s * (cz - startTip[2]);
    }

    /** Sets the arm's PD targets for the coming step (see the notes). Allocates nothing. */
    void control() {
        double h = STEP_S;
        target(time + h, xi);
        target(time + 2 * h, feed);
        for (int d = 0; d < 3; d++) {
            // the velocity the target moves at
            feed[d] = (feed[d] - xi[d]) / h;
        }
        tracking.track(xi, feed, startQuat);
        time += h;
    }

    /** @return the stirrer tip's distance from its target now, m (how well the arm tracks) */
    double trackingError() {
        double[] p = new double[3];
        double[] g = new double[3];
        tip(p);
        target(time, g);
        return Math.sqrt((p[0] - g[0]) * (p[0] - g[0]) + (p[1] - g[1]) * (p[1] - g[1]) + (p[2] - g[2]) * (p[2] - g[2]));
    }

    /** @return the tip's height now, m */
    double tipHeight() {
        double[] p = new double[3];
        tip(p);
        return p[2];
    }

    PhysicsModel model() {
        return model;
    }

    PhysicsState state() {
        return state;
    }

    /** @return how many steps some joint's PD torque exceeded its effort limit so far, summed over the joints */
    long saturations() {
        long n = 0;
        for (int d : dofs) {
            n += state.effortSaturations(d);
        }
        return n;
    }

    /** Releases the runner that compiled the scene (the caller steps the model with an engine of its own). */
    void close() {
        runner.close();
    }
}
