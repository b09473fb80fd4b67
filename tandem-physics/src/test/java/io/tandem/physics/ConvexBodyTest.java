package io.tandem.physics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tandem.physics.internal.geometry.ConvexHull;
import io.tandem.physics.internal.geometry.MassProperties;
import io.tandem.physics.internal.geometry.Meshes;
import io.tandem.physics.internal.geometry.Shape;
import java.lang.management.ManagementFactory;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Bodies with convex-hull shapes (meshes) in the engine: resting, dropping, the builder, allocation. */
class ConvexBodyTest {

    private static SolverSettings settings(SolverKind kind) {
        return switch (kind) {
            case SUB_ADMM -> SolverSettings.subAdmm(60);
            case PGS -> SolverSettings.pgs(30);
            case PROJECTED_JACOBI -> SolverSettings.projectedJacobi(100);
            case FULL_ADMM -> SolverSettings.fullAdmm(60);
            case NONSMOOTH_NEWTON -> SolverSettings.nonsmoothNewton(9);
        };
    }

    /** World z of the lowest hull vertex of body i's only shape (placed at the body origin, unturned). */
    private static double lowestZ(ConvexHull h, PhysicsState s, int i, double[] shapeOffset) {
        double w = s.quat[4 * i];
        double x = s.quat[4 * i + 1];
        double y = s.quat[4 * i + 2];
        double z = s.quat[4 * i + 3];
        // row z of the rotation matrix
        double r20 = 2 * (x * z - w * y);
        double r21 = 2 * (y * z + w * x);
        double r22 = 1 - 2 * (x * x + y * y);
        double low = Double.POSITIVE_INFINITY;
        for (int k = 0; k < h.vertexCount; k++) {
            double vx = h.vertices[3 * k] + shapeOffset[0];
            double vy = h.vertices[3 * k + 1] + shapeOffset[1];
            double vz = h.vertices[3 * k + 2] + shapeOffset[2];
            low = Math.min(low, s.pos[3 * i + 2] + r20 * vx + r21 * vy + r22 * vz);
        }
        return low;
    }

    @ParameterizedTest
    @EnumSource(SolverKind.class)
    void icosphere_droppedOnPlane_restsAtItsRadiusUnderEverySolver(SolverKind kind) {
        // a 162-vertex icosphere mesh of radius 0.1 m, simplified to 44 vertices (inscribed, error ~5 mm)
        double r = 0.1;
        double[] mesh = Meshes.icosphere(r, 2);
        double error = Shape.convex(mesh).hull.simplificationError;
        double m = 1.0;
        double i = 0.4 * m * r * r;
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).solver(settings(kind));
        b.body("ground").makeStatic().plane().add();
        b.body("ball").convex(mesh).mass(m, i, i, i).position(0.3, -0.2, r + 0.05).add();
        PhysicsModel model = b.build();
        PhysicsState s = model.newState();
        try (PhysicsEngine e = new PhysicsEngine(model)) {
            for (int k = 0; k < 720; k++) {
                e.step(s);
            }
            assertThat(e.contactCount()).as("%s: contacts", kind).isPositive();
        }
        assertThat(error).isBetween(0.0, 0.06 * r);
        assertThat(s.pos[5]).as("%s: centre height (m)", kind).isBetween(r - error - 1e-3, r + 1e-3);
        assertThat(Math.abs(s.linVel[5])).as("%s: vertical speed", kind).isLessThan(1e-3);
        assertThat(Math.hypot(s.pos[3] - 0.3, s.pos[4] + 0.2)).as("%s: drift (m)", kind).isLessThan(0.01);
        // resting on the hull: its lowest vertex on the plane, within a millimetre
        ConvexHull hull = Shape.convex(mesh).hull;
        assertThat(lowestZ(hull, s, 1, new double[3])).as("%s: lowest vertex (m)", kind).isCloseTo(0, within(1e-3));
    }

    @ParameterizedTest
    @EnumSource(SolverKind.class)
    void offCentreBoxMesh_droppedTurnedOnABox_restsFlatOnItsTop(SolverKind kind) {
        // a box mesh (corners and face centres) in a file frame 0.3 m off its centre, placed back with at(...)
        double hx = 0.1;
        double hy = 0.08;
        double hz = 0.05;
        double[] mesh = Meshes.shifted(Meshes.concat(Meshes.boxCorners(hx, hy, hz),
                new double[] {hx, 0, 0, -hx, 0, 0, 0, 0, hz, 0, 0, -hz}), 0.3, 0, 0);
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).solver(settings(kind));
        b.body("ground").makeStatic().plane().add();
        b.body("table").makeStatic().box(0.5, 0.5, 0.1).position(0, 0, 0.1).add();
        double c = Math.cos(0.1);
        double sn = Math.sin(0.1);
        b.body("brick").convex(mesh).at(-0.3, 0, 0, 1, 0, 0, 0).density(700)
                .position(0.05, 0.02, 0.2 + hz + 0.1).orientation(c, sn, 0, 0).add();
        PhysicsModel model = b.build();
        assertThat(model.mass(2)).isCloseTo(8 * hx * hy * hz * 700, within(1e-9));
        PhysicsState s = model.newState();
        try (PhysicsEngine e = new PhysicsEngine(model)) {
            for (int k = 0; k < 720; k++) {
                e.step(s);
            }
        }
        assertThat(s.pos[8]).as("%s: brick centre height (m)", kind).isCloseTo(0.2 + hz, within(2e-3));
        assertThat(Math.abs(s.linVel[8])).as("%s: vertical speed", kind).isLessThan(1e-3);
        // flat: its local z still points up
        double x = s.quat[9];
        double y = s.quat[10];
        assertThat(1 - 2 * (x * x + y * y)).as("%s: tilt cosine", kind).isGreaterThan(0.9999);
    }

    @Test
    void rockMesh_droppedOnABox_comesToRestOnItsTop() {
        // an irregular hull of 25 points, its centre of mass moved to the body origin with at(...)
        double[] rock = Meshes.ball(25, 0.08, 0, 0, 0, new Random(11));
        MassProperties mp = MassProperties.of(Shape.convex(rock), 2000);
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240);
        b.body("ground").makeStatic().plane().add();
        b.body("table").makeStatic().box(0.5, 0.5, 0.1).position(0, 0, 0.1).add();
        b.body("rock").convex(rock).at(-mp.comX(), -mp.comY(), -mp.comZ(), 1, 0, 0, 0)
                .mass(mp.mass(), mp.ixx(), mp.iyy(), mp.izz()).position(0, 0, 0.5).orientation(0.9, 0.3, 0.2, 0.1)
                .add();
        PhysicsModel model = b.build();
        PhysicsState s = model.newState();
        try (PhysicsEngine e = new PhysicsEngine(model)) {
            for (int k = 0; k < 1440; k++) {
                e.step(s);
            }
            assertThat(e.contactCount()).isPositive();
        }
        ConvexHull hull = Shape.convex(rock).hull;
        double low = lowestZ(hull, s, 2, new double[] {-mp.comX(), -mp.comY(), -mp.comZ()});
        assertThat(low).as("lowest vertex of the rock (m)").isCloseTo(0.2, within(2e-3));
        assertThat(Math.hypot(s.pos[6], s.pos[7])).as("still over the table (m)").isLessThan(0.45);
        double speed = Math.sqrt(s.linVel[6] * s.linVel[6] + s.linVel[7] * s.linVel[7] + s.linVel[8] * s.linVel[8]);
        assertThat(speed).as("speed at rest (m/s)").isLessThan(1e-2);
    }

    @Test
    void convex_builder_copiesThePointsAndNamesTheBodyInErrors() {
        double[] mesh = Meshes.boxCorners(0.1, 0.1, 0.1);
        PhysicsModel.Builder b = PhysicsModel.builder();
        PhysicsModel.BodyBuilder body = b.body("crate").convex(mesh);
        mesh[0] = 5;
        body.density(1000).add();
        PhysicsModel model = b.build();
        assertThat(model.mass(0)).isCloseTo(8, within(1e-12));
        assertThat(model.inertia(0, 0)).isCloseTo(8 * 0.02 / 3, within(1e-12));
        double[] square = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
        assertThatThrownBy(() -> PhysicsModel.builder().body("sheet").convex(square))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'sheet'")
                .hasMessageContaining("flat or degenerate");
        assertThatThrownBy(() -> PhysicsModel.builder().body("lump").convex(new double[] {0, 0}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'lump'");
        // a hull off the body origin with density: the centre-of-mass check names the offset
        double[] off = Meshes.shifted(Meshes.boxCorners(0.1, 0.1, 0.1), 0.5, 0, 0);
        assertThatThrownBy(() -> PhysicsModel.builder().body("off").convex(off).density(1000).add())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("centre of mass");
    }

    @Test
    @SuppressForbidden
    void step_withConvexShapes_afterWarmUp_allocatesNothing() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (SolverSettings st : new SolverSettings[] {SolverSettings.subAdmm(20), SolverSettings.pgs(10),
                SolverSettings.projectedJacobi(10)}) {
            // convex spheres, rocks and boxes on a plane and a table: convex-plane, convex-box,
            // convex-convex, convex-sphere and convex-capsule in play
            PhysicsModel.Builder b = PhysicsModel.builder().timeStep(1.0 / 240).solver(st);
            b.body("floor").makeStatic().plane().add();
            b.body("table").makeStatic().box(0.4, 0.4, 0.1).position(0, 0, 0.1).add();
            Random rnd = new Random(3);
            double[] ball = Meshes.icosphere(0.06, 2);
            for (int i = 0; i < 16; i++) {
                double x = (i % 4) * 0.16 - 0.24;
                double y = (i / 4) * 0.16 - 0.24;
                PhysicsModel.BodyBuilder body = b.body("b" + i).position(x, y, 0.35 + 0.05 * (i % 3));
                switch (i % 4) {
                    case 0 -> body.convex(ball).mass(0.5, 7e-4, 7e-4, 7e-4);
                    case 1 -> body.convex(Meshes.ball(20, 0.06, 0, 0, 0, rnd)).mass(0.5, 7e-4, 7e-4, 7e-4);
                    case 2 -> body.sphere(0.05).density(1000);
                    default -> body.capsule(0.03, 0.04).density(1000);
                }
                body.add();
            }
            PhysicsModel m = b.build();
            PhysicsState s = m.newState();
            try (PhysicsEngine e = new PhysicsEngine(m)) {
                for (int k = 0; k < 1000; k++) {
                    e.step(s);
                }
                long id = Thread.currentThread().getId();
                long before = mx.getThreadAllocatedBytes(id);
                for (int k = 0; k < 300; k++) {
                    e.step(s);
                }
                long allocated = mx.getThreadAllocatedBytes(id) - before;
                assertThat(e.contactCount()).as("%s: contacts in play", st.kind()).isGreaterThan(16);
                assertThat(allocated).as("%s: bytes allocated by 300 steps with convex contacts", st).isLessThan(1000);
            }
        }
    }
}
