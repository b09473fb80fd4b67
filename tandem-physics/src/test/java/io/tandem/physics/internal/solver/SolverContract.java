package io.tandem.physics.internal.solver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every constraint solver converges to exact references on small problems (shared/specs/physics.md
 * 1.7): a pinned ball-joint chain against a dense KKT solve, frictionless contacts against an
 * exact LCP solve by enumeration, and the 10-sphere stack whose impulses are known in closed form.
 */
abstract class SolverContract {
    /** @return the solver under test with a generous iteration budget */
    abstract ConstraintSolver solver(int iterations);

    /** iterations that let this solver converge on the small problems */
    abstract int budget();

    @Test
    void ballChain_convergesToDenseKkt() {
        ConstraintProblem pr = Problems.ballChain(8, 7, null);
        double[] exact = Problems.denseKkt(pr);
        solver(budget()).solve(pr);
        int nv = Problems.totalDim(pr);
        for (int i = 0; i < nv; i++) {
            assertThat(pr.v[i]).as("v[%d]", i).isCloseTo(exact[i], within(1e-6 * (1 + Math.abs(exact[i]))));
        }
        for (int r = 0; r < pr.totalRows; r++) {
            assertThat(pr.rowVelocity(r)).as("constraint velocity row %d", r).isCloseTo(0.0, within(1e-6));
        }
    }

    @Test
    void sphereStack_normalImpulsesMatchWeightCarried() {
        int n = 10;
        ConstraintProblem pr = Problems.sphereStack(n, 0.5);
        solver(budget()).solve(pr);
        for (int k = 0; k < n; k++) {
            double expected = (n - k) * 1.0 * Problems.G * Problems.H;
            int r0 = pr.rowStart[k];
            assertThat(pr.p[r0]).as("normal impulse under sphere %d", k).isCloseTo(expected, within(1e-6));
            assertThat(pr.p[r0 + 1]).isCloseTo(0.0, within(1e-9));
            assertThat(pr.p[r0 + 2]).isCloseTo(0.0, within(1e-9));
        }
        for (int k = 0; k < n; k++) {
            assertThat(pr.v[pr.coord(k) + 2]).as("sphere %d stays at rest", k).isCloseTo(0.0, within(1e-7));
        }
    }

    @Test
    void frictionlessContacts_matchExactLcp() {
        // three spheres in a row on the ground, pushed together and down: contacts sphere-ground
        // (3) and sphere-sphere (2), frictionless; exact solution by active-set enumeration
        ConstraintProblem pr = new ConstraintProblem();
        pr.resetBodies(3);
        pr.layout();
        double r = 0.1;
        double[] vx = {1.0, 0.0, -0.5};
        double[] vz = {-0.3, -0.1, 0.2};
        for (int k = 0; k < 3; k++) {
            Problems.rigidBody(pr, k, 1 + k, 0.004, 0.004, 0.004);
            int c0 = pr.coord(k);
            pr.v[c0] = vx[k];
            pr.v[c0 + 2] = vz[k];
            pr.b[c0] = (1 + k) * vx[k];
            pr.b[c0 + 2] = (1 + k) * (vz[k] - Problems.G * Problems.H);
        }
        double[] nz = {0, 0, 1};
        double[] nx = {1, 0, 0};
        double[] ty = {0, 1, 0};
        double[] down = {0, 0, -r};
        for (int k = 0; k < 3; k++) {
            int r0 = pr.addBlock(ConstraintProblem.CONTACT, 3, k, -1, 0);
            Problems.row(pr.jA, r0, nz, down);
            Problems.row(pr.jA, r0 + 1, nx, down);
            Problems.row(pr.jA, r0 + 2, ty, down);
        }
        for (int k = 1; k < 3; k++) {
            // normal from sphere k-1 (B) to sphere k (A) along +x
            int r0 = pr.addBlock(ConstraintProblem.CONTACT, 3, k, k - 1, 0);
            double[][] dirs = {nx, nz, ty};
            for (int q = 0; q < 3; q++) {
                Problems.row(pr.jA, r0 + q, dirs[q], new double[] {-r, 0, 0});
                Problems.row(pr.jB, r0 + q, new double[] {-dirs[q][0], -dirs[q][1], -dirs[q][2]}, new double[] {r, 0, 0});
            }
        }
        for (int row = 0; row < pr.totalRows; row++) {
            pr.p[row] = 0;
        }
        double[] exact = exactFrictionlessLcp(pr);
        solver(budget()).solve(pr);
        for (int c = 0; c < pr.constraints; c++) {
            assertThat(pr.p[pr.rowStart[c]]).as("normal impulse of contact %d", c)
                    .isCloseTo(exact[c], within(1e-6));
        }
    }

    /** Enumerates active sets of the normal rows (tangent rows carry no impulse when mu = 0). */
    private static double[] exactFrictionlessLcp(ConstraintProblem pr) {
        int nc = pr.constraints;
        for (int mask = 0; mask < (1 << nc); mask++) {
            ConstraintProblem eq = new ConstraintProblem();
            eq.resetBodies(pr.bodies);
            eq.layout();
            System.arraycopy(pr.mass, 0, eq.mass, 0, 36 * pr.bodies);
            System.arraycopy(pr.b, 0, eq.b, 0, eq.b.length);
            List<Integer> active = new ArrayList<>();
            for (int c = 0; c < nc; c++) {
                if ((mask & (1 << c)) != 0) {
                    active.add(c);
                    int r = eq.addBlock(ConstraintProblem.HARD, 1, pr.bodyA[c], pr.bodyB[c], 0);
                    System.arraycopy(pr.jA, 6 * pr.rowStart[c], eq.jA, 6 * r, 6);
                    System.arraycopy(pr.jB, 6 * pr.rowStart[c], eq.jB, 6 * r, 6);
                    eq.e[r] = pr.e[pr.rowStart[c]];
                }
            }
            double[] sol = Problems.denseKkt(eq);
            int nv = Problems.totalDim(eq);
            System.arraycopy(sol, 0, eq.v, 0, nv);
            boolean ok = true;
            double[] p = new double[nc];
            for (int i = 0; i < active.size(); i++) {
                p[active.get(i)] = sol[nv + i];
                ok &= sol[nv + i] >= -1e-12;
            }
            for (int c = 0; c < nc && ok; c++) {
                if ((mask & (1 << c)) == 0) {
                    ConstraintProblem probe = pr;
                    double y = probe.e[probe.rowStart[c]];
                    int row = 6 * probe.rowStart[c];
                    y += ConstraintProblem.dot6(probe.jA, row, eq.v, eq.coord(probe.bodyA[c]));
                    if (probe.bodyB[c] >= 0) {
                        y += ConstraintProblem.dot6(probe.jB, row, eq.v, eq.coord(probe.bodyB[c]));
                    }
                    ok = y >= -1e-12;
                }
            }
            if (ok) {
                return p;
            }
        }
        throw new AssertionError("no active set solves the LCP");
    }
}
