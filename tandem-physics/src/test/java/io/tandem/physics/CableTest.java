package io.tandem.physics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Cosserat cable against closed forms (issue 19's validation, shared/specs/physics-wave2.md 5):
 * a cantilever's static tip deflection under its own weight against Euler-Bernoulli, a twisted
 * cable's angle against G J theta / L, and the stretch under a hanging load against F L / (E A).
 * Every scene settles under the default near-critical damping (or a stronger one, which changes
 * the path, not the equilibrium) and is read once at rest.
 */
class CableTest {
    private static final double H = 0.002;
    private static final double G = 9.81;

    @ParameterizedTest(name = "{0} segments per subsystem")
    @ValueSource(ints = {20, 5})
    void cantilever_settledUnderOwnWeight_tipDeflectionMatchesEulerBernoulli(int perSubsystem) {
        // 0.1 m of the spec's cable (d 2 cm, E 1e7 Pa, 1200 kg/m^3): bending length 0.28 m, so the
        // 0.1 m overhang sags 0.6 mm, well inside the linear (small deflection) range
        double length = 0.1;
        double d = 0.02;
        double e = 1e7;
        double rho = 1200;
        int n = 20;
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(H).gravity(0, 0, -G)
                .solver(SolverSettings.subAdmm(200));
        int first = b.cable("beam").from(0, 0, 1).to(length, 0, 1).segments(n).diameter(d).material(e, 0.45, rho)
                .damping(50, 0.05).segmentsPerSubsystem(perSubsystem).clampStart().add();
        PhysicsModel model = b.build();
        PhysicsState s = model.newState();
        try (PhysicsEngine engine = new PhysicsEngine(model)) {
            run(engine, s, 1.5);
            double tip = tipZ(model, s, first + n - 1, length / n);
            run(engine, s, 0.5);
            double tipLater = tipZ(model, s, first + n - 1, length / n);
            double area = Math.PI * d * d / 4;
            double inertia = Math.PI * Math.pow(d, 4) / 64;
            double w = rho * area * G;
            double expected = w * Math.pow(length, 4) / (8 * e * inertia);
            assertThat(tipLater - tip).as("settled").isCloseTo(0.0, within(0.01 * expected));
            assertThat(1 - tipLater).as("tip deflection, m").isCloseTo(expected, within(0.05 * expected));
        }
    }

    @Test
    void twistedCable_torqueAtItsEnd_turnsByTorqueTimesLengthOverGJ() {
        double length = 0.5;
        double d = 0.02;
        double e = 1e7;
        double nu = 0.45;
        int n = 10;
        double torque = 0.02; // N m
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(H).gravity(0, 0, 0).solver(SolverSettings.subAdmm(100));
        int first = b.cable("shaft").from(0, 0, 1).to(length, 0, 1).segments(n).diameter(d).material(e, nu, 1200)
                .segmentsPerSubsystem(n).clampStart().add();
        int last = first + n - 1;
        double l = length / n;
        double centre = length - l / 2;
        // the last segment turns about the cable's axis, driven by a saturated motor: a constant torque
        int joint = b.revoluteJoint(last, -1, centre, 0, 1, 1, 0, 0).motor(1e3, torque).add();
        PhysicsModel model = b.build();
        PhysicsState s = model.newState();
        try (PhysicsEngine engine = new PhysicsEngine(model)) {
            run(engine, s, 2.0);
            double angle = model.jointPosition(s, joint);
            run(engine, s, 0.5);
            double angleLater = model.jointPosition(s, joint);
            double gj = e / (2 * (1 + nu)) * Math.PI * Math.pow(d, 4) / 32;
            // from the clamp at x = 0 to the last segment's centre
            double expected = torque * centre / gj;
            assertThat(angleLater - angle).as("settled").isCloseTo(0.0, within(1e-3 * expected));
            assertThat(angleLater).as("twist angle, rad").isCloseTo(expected, within(0.01 * expected));
        }
    }

    @Test
    void hangingLoad_settled_stretchesByForceTimesLengthOverEA() {
        double length = 1.0;
        double d = 0.02;
        double e = 1e7;
        double rho = 1200;
        int n = 40;
        double load = 1.0; // kg
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(H).gravity(0, 0, -G).solver(SolverSettings.subAdmm(100));
        int first = b.cable("rope").from(0, 0, 2).to(0, 0, 2 - length).segments(n).diameter(d).material(e, 0.45, rho)
                .damping(4000, 0.004).segmentsPerSubsystem(10).clampStart().add();
        int last = first + n - 1;
        double r = 0.03;
        int weight = b.body("weight").position(0, 0, 2 - length - r).mass(load, 0.4 * load * r * r, 0.4 * load * r * r,
                0.4 * load * r * r).add();
        b.ballJoint(weight, last, 0, 0, 2 - length).add();
        PhysicsModel model = b.build();
        PhysicsState s = model.newState();
        try (PhysicsEngine engine = new PhysicsEngine(model)) {
            run(engine, s, 2.0);
            double area = Math.PI * d * d / 4;
            double w = rho * area * G;
            // u(x) = (F x + w (L x - x^2 / 2)) / (E A) at the end, x = L; the discrete rod's last half
            // segment is rigid, which takes 1 / (2 n) = 1.25 % off
            double expected = (load * G * length + w * length * length / 2) / (e * area);
            double stretch = (2 - length - r) - s.pos[3 * weight + 2];
            run(engine, s, 0.5);
            double stretchLater = (2 - length - r) - s.pos[3 * weight + 2];
            assertThat(stretchLater - stretch).as("settled").isCloseTo(0.0, within(1e-3 * expected));
            assertThat(stretchLater).as("stretch, m").isCloseTo(expected, within(0.02 * expected));
        }
    }

    @Test
    void cable_badInput_oneLineWithTheFix() {
        assertThatThrownBy(() -> PhysicsModel.builder().cable("c").segments(0))
                .hasMessageContaining("cable 'c' needs at least 1 segment, got 0").hasMessageContaining("segments(n)");
        assertThatThrownBy(() -> PhysicsModel.builder().cable("c").material(0, 0.3, 1000))
                .hasMessageContaining("Young's modulus E must be a finite number > 0 Pa, got 0.0");
        assertThatThrownBy(() -> PhysicsModel.builder().cable("c").material(1e7, 0.5, 1000))
                .hasMessageContaining("Poisson's ratio nu must be inside (-1, 0.5), got 0.5");
        assertThatThrownBy(() -> PhysicsModel.builder().cable("c").material(1e7, -1, 1000))
                .hasMessageContaining("Poisson's ratio");
        assertThatThrownBy(() -> PhysicsModel.builder().cable("c").diameter(1).material(1e7, 0.3, 1000).add())
                .hasMessageContaining("needs its number of segments");
        PhysicsModel.Builder b = PhysicsModel.builder();
        b.cable("c").segments(2).diameter(0.01).material(1e7, 0.3, 1000).add();
        assertThatThrownBy(() -> b.cable("c")).hasMessageContaining("cable name 'c' is used twice");
    }

    @Test
    void cable_segments_haveTheMaterialsMassAndOneSubsystemPerRun() {
        PhysicsModel.Builder b = PhysicsModel.builder();
        b.body("mine").subsystem(3).mass(1, 1, 1, 1).add();
        int first = b.cable("c").from(0, 0, 0).to(0, 2, 0).segments(40).diameter(0.02).material(1e7, 0.45, 1200)
                .segmentsPerSubsystem(10).add();
        PhysicsModel m = b.build();
        // the spec's cable (9.3): 0.018850 kg, 4.398e-6 transverse, 9.425e-7 axial
        assertThat(m.mass(first)).isCloseTo(0.018850, within(1e-6));
        assertThat(m.inertia(first, 0)).isCloseTo(4.398e-6, within(1e-9));
        assertThat(m.inertia(first, 2)).isCloseTo(9.425e-7, within(1e-10));
        assertThat(m.bodyName(first + 39)).isEqualTo("c/39");
        // four runs of 10, numbered after the caller's subsystem 3
        assertThat(m.subsystem[first]).isEqualTo(4);
        assertThat(m.subsystem[first + 9]).isEqualTo(4);
        assertThat(m.subsystem[first + 10]).isEqualTo(5);
        assertThat(m.subsystem[first + 39]).isEqualTo(7);
        assertThat(m.jointCount()).isEqualTo(39);
        // segment 0's centre at y = 0.025, its capsule (body z) along the cable (+y)
        PhysicsState s = m.newState();
        assertThat(s.pos[3 * first + 1]).isCloseTo(0.025, within(1e-12));
        double[] z = new double[3];
        io.tandem.physics.internal.dynamics.RigidOps.rotate(s.quat, 4 * first, 0, 0, 1, z, 0);
        assertThat(z[1]).isCloseTo(1.0, within(1e-12));
    }

    private static void run(PhysicsEngine engine, PhysicsState s, double seconds) {
        int steps = (int) Math.round(seconds / H);
        for (int k = 0; k < steps; k++) {
            engine.step(s);
        }
    }

    /** z of the free end of the last segment (its centre plus half a segment along its axis). */
    private static double tipZ(PhysicsModel m, PhysicsState s, int last, double l) {
        double[] z = new double[3];
        io.tandem.physics.internal.dynamics.RigidOps.rotate(s.quat, 4 * last, 0, 0, 1, z, 0);
        return s.pos[3 * last + 2] + 0.5 * l * z[2];
    }
}
