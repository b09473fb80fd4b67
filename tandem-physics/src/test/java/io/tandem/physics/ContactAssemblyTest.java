package io.tandem.physics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tandem.physics.internal.parallel.ParallelLoop;
import io.tandem.physics.internal.solver.ConstraintProblem;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The contact blocks ContactAssembly writes. */
class ContactAssemblyTest {
    /**
     * Every contact block carries the compact form (ConstraintProblem.armed) that SubADMM and its
     * subsystems use in place of the rows, so the form must be the rows': an orthonormal frame,
     * side B's rows (d_i, r_B x d_i), side A's rows -(d_i, r_A x d_i), and a static side's rows
     * cleared. Random overlapping spheres, boxes, capsules and cylinders on a plane.
     */
    @Test
    void assemble_randomShapes_compactFormMatchesRows() {
        PhysicsModel m = scene();
        PhysicsState s = m.newState();
        int[] dyn = dynamic(m);
        int n = count(dyn);
        ConstraintProblem pr = new ConstraintProblem();
        pr.resetBodies(n);
        pr.layout();
        new ContactAssembly(m, ParallelLoop.serial()).assemble(s, pr, dyn, new double[6 * m.bodies], m.timeStep());

        int two = 0;
        int one = 0;
        for (int c = 0; c < pr.constraints; c++) {
            assertThat(pr.armed[c]).as("block %d", c).isTrue();
            int f = 15 * c;
            for (int i = 0; i < 3; i++) {
                for (int k = 0; k < 3; k++) {
                    double dot = 0;
                    for (int d = 0; d < 3; d++) {
                        dot += pr.contactFrame[f + 3 * i + d] * pr.contactFrame[f + 3 * k + d];
                    }
                    assertThat(dot).as("block %d: frame d%d . d%d", c, i, k).isCloseTo(i == k ? 1 : 0, within(1e-12));
                }
                int r = pr.rowStart[c] + i;
                checkSide(pr, c, r, pr.jA, -1, f + 9, pr.bodyA[c] >= 0);
                checkSide(pr, c, r, pr.jB, 1, f + 12, pr.bodyB[c] >= 0);
            }
            if (pr.bodyA[c] >= 0 && pr.bodyB[c] >= 0) {
                two++;
            } else {
                one++;
            }
        }
        assertThat(two).as("blocks between two dynamic bodies").isGreaterThan(10);
        assertThat(one).as("blocks against static bodies").isGreaterThan(10);
    }

    /** 60 random overlapping spheres, boxes, capsules and cylinders on a plane, beside a static box. */
    private static PhysicsModel scene() {
        PhysicsModel.Builder b = PhysicsModel.builder();
        b.body("ground").makeStatic().plane().add();
        b.body("block").makeStatic().box(0.3, 0.3, 0.1).position(0.4, 0.4, 0.1).add();
        Random rnd = new Random(5);
        for (int i = 0; i < 60; i++) {
            PhysicsModel.BodyBuilder body = b.body("b" + i)
                    .position(rnd.nextDouble() - 0.5, rnd.nextDouble() - 0.5, 0.05 + 0.4 * rnd.nextDouble())
                    .orientation(1, rnd.nextGaussian() * 0.3, rnd.nextGaussian() * 0.3, rnd.nextGaussian() * 0.3);
            switch (i % 4) {
                case 0 -> body.sphere(0.1);
                case 1 -> body.box(0.1, 0.07, 0.05);
                case 2 -> body.capsule(0.05, 0.08);
                default -> body.cylinder(0.06, 0.05);
            }
            body.density(1000).add();
        }
        return b.build();
    }

    private static int[] dynamic(PhysicsModel m) {
        int[] dyn = new int[m.bodies];
        int n = 0;
        for (int i = 0; i < m.bodies; i++) {
            dyn[i] = m.bodyType[i] == BodyType.DYNAMIC ? n++ : -1;
        }
        return dyn;
    }

    private static int count(int[] dyn) {
        int n = 0;
        for (int d : dyn) {
            n += d >= 0 ? 1 : 0;
        }
        return n;
    }

    /**
     * For SubADMM the rows are not written (compact form only), and the problem says so; a row's
     * constraint velocity J v + e then comes from the compact form and equals the rows' value.
     */
    @Test
    void assemble_compactOnly_rowVelocityMatchesRows() {
        PhysicsModel m = scene();
        PhysicsState s = m.newState();
        int[] dyn = dynamic(m);
        int n = count(dyn);
        ConstraintProblem rows = new ConstraintProblem();
        ConstraintProblem compact = new ConstraintProblem();
        for (ConstraintProblem pr : new ConstraintProblem[]{rows, compact}) {
            pr.resetBodies(n);
            pr.layout();
        }
        new ContactAssembly(m, ParallelLoop.serial()).assemble(s, rows, dyn, new double[6 * m.bodies], m.timeStep());
        new ContactAssembly(m, ParallelLoop.serial(), true).assemble(s, compact, dyn, new double[6 * m.bodies], m.timeStep());
        assertThat(rows.armedRows).isTrue();
        assertThat(compact.armedRows).isFalse();
        assertThat(compact.constraints).isEqualTo(rows.constraints).isGreaterThan(20);
        Random rnd = new Random(11);
        for (int i = 0; i < 6 * n; i++) {
            double v = rnd.nextGaussian();
            rows.v[i] = v;
            compact.v[i] = v;
        }
        for (int r = 0; r < rows.totalRows; r++) {
            assertThat(compact.e[r]).as("bias of row %d", r).isEqualTo(rows.e[r]);
            assertThat(compact.rowVelocity(r)).as("J v + e of row %d", r).isCloseTo(rows.rowVelocity(r), within(1e-12));
        }
    }

    private static void checkSide(ConstraintProblem pr, int c, int r, double[] jac, double sign, int arm,
            boolean dynamic) {
        double[] cf = pr.contactFrame;
        int d = 15 * c + 3 * (r - pr.rowStart[c]);
        double[] expected = new double[6];
        if (dynamic) {
            double dx = sign * cf[d];
            double dy = sign * cf[d + 1];
            double dz = sign * cf[d + 2];
            double rx = cf[arm];
            double ry = cf[arm + 1];
            double rz = cf[arm + 2];
            expected = new double[]{dx, dy, dz, ry * dz - rz * dy, rz * dx - rx * dz, rx * dy - ry * dx};
        }
        for (int k = 0; k < 6; k++) {
            assertThat(jac[6 * r + k]).as("block %d row %d entry %d (sign %.0f)", c, r, k, sign)
                    .isCloseTo(expected[k], within(1e-12));
        }
    }
}
