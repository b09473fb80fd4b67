package io.tandem.physics.internal.solver;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Small constraint problems with exact references, for the solver contract suite. */
final class Problems {
    static final double H = 1.0 / 240;
    static final double G = 9.81;

    private Problems() {
    }

    /** Rigid-body mass matrix diag(m, m, m, ix, iy, iz) into subsystem s (one body per subsystem). */
    static void rigidBody(ConstraintProblem pr, int body, double m, double ix, double iy, double iz) {
        double[] d = {m, m, m, ix, iy, iz};
        for (int i = 0; i < 6; i++) {
            pr.mass[36 * body + 7 * i] = d[i];
        }
    }

    /** Sets Jacobian row r of a side: linear part u, angular part (lever x u). */
    static void row(double[] j, int r, double[] u, double[] lever) {
        j[6 * r] = u[0];
        j[6 * r + 1] = u[1];
        j[6 * r + 2] = u[2];
        j[6 * r + 3] = lever[1] * u[2] - lever[2] * u[1];
        j[6 * r + 4] = lever[2] * u[0] - lever[0] * u[2];
        j[6 * r + 5] = lever[0] * u[1] - lever[1] * u[0];
    }

    static final double[][] AXES = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

    /**
     * A chain of box links (0.1 x 0.02 x 0.02 m, 0.1 kg) along x joined by ball joints, link 0
     * pinned to the world, random initial velocities: hard constraints only.
     */
    static ConstraintProblem ballChain(int links, long seed, int[] groups) {
        ConstraintProblem pr = new ConstraintProblem();
        pr.resetBodies(links);
        if (groups != null) {
            pr.group(groups);
        }
        pr.layout();
        double m = 0.1;
        double lx = 0.1;
        double ly = 0.02;
        double ix = m * (ly * ly + ly * ly) / 12;
        double iy = m * (lx * lx + ly * ly) / 12;
        Random rnd = new Random(seed);
        for (int i = 0; i < links; i++) {
            rigidBody(pr, i, m, ix, iy, iy);
            int c0 = pr.coord(i);
            double[] d = {m, m, m, ix, iy, iy};
            for (int k = 0; k < 6; k++) {
                double v = rnd.nextGaussian();
                pr.v[c0 + k] = v;
                pr.b[c0 + k] = d[k] * v;
            }
        }
        double[] left = {-lx / 2, 0, 0};
        double[] right = {lx / 2, 0, 0};
        // pin: world point = link 0's left end
        int r0 = pr.addBlock(ConstraintProblem.HARD, 3, 0, -1, 0);
        for (int k = 0; k < 3; k++) {
            row(pr.jA, r0 + k, AXES[k], left);
            pr.p[r0 + k] = 0;
        }
        for (int i = 1; i < links; i++) {
            int r = pr.addBlock(ConstraintProblem.HARD, 3, i - 1, i, 0);
            for (int k = 0; k < 3; k++) {
                row(pr.jA, r + k, AXES[k], right);
                double[] neg = {-AXES[k][0], -AXES[k][1], -AXES[k][2]};
                row(pr.jB, r + k, neg, left);
                pr.p[r + k] = 0;
            }
        }
        return pr;
    }

    /**
     * A vertical stack of n spheres (r 0.1 m, 1 kg) resting on the ground, one time step under
     * gravity from rest: contact k (below sphere k) carries (n - k) m g h.
     */
    static ConstraintProblem sphereStack(int n, double mu) {
        ConstraintProblem pr = new ConstraintProblem();
        pr.resetBodies(n);
        pr.layout();
        double m = 1;
        double r = 0.1;
        double i0 = 0.4 * m * r * r;
        for (int k = 0; k < n; k++) {
            rigidBody(pr, k, m, i0, i0, i0);
            int c0 = pr.coord(k);
            for (int d = 0; d < 6; d++) {
                pr.v[c0 + d] = 0;
            }
            pr.b[c0 + 2] = -m * G * H;
        }
        double[] down = {0, 0, -r};
        double[] up = {0, 0, r};
        double[] nz = {0, 0, 1};
        double[] tx = {1, 0, 0};
        double[] ty = {0, 1, 0};
        for (int k = 0; k < n; k++) {
            // normal from the lower body (side B, or ground) to sphere k (side A): y = n.(v_k - v_below)
            int r0 = pr.addBlock(ConstraintProblem.CONTACT, 3, k, k == 0 ? -1 : k - 1, mu);
            double[][] dirs = {nz, tx, ty};
            for (int q = 0; q < 3; q++) {
                row(pr.jA, r0 + q, dirs[q], down);
                if (k > 0) {
                    double[] neg = {-dirs[q][0], -dirs[q][1], -dirs[q][2]};
                    row(pr.jB, r0 + q, neg, up);
                }
                pr.p[r0 + q] = 0;
            }
        }
        return pr;
    }

    /**
     * n bodies (random masses and diagonal inertias, random velocities, gravity) with random
     * contacts: each between two random bodies or a body and the world, with a random orthonormal
     * frame, random lever arms (up to 0.2 m), friction 0.5 and a random warm start. The rows are
     * always filled; with {@code armed} the blocks also carry the compact form
     * (ConstraintProblem.armed, contactFrame), so the two forms of one seed are the same problem.
     */
    static ConstraintProblem randomContacts(int n, int contacts, long seed, boolean armed) {
        Random rnd = new Random(seed);
        ConstraintProblem pr = new ConstraintProblem();
        pr.resetBodies(n);
        pr.layout();
        for (int i = 0; i < n; i++) {
            double m = 0.5 + 2 * rnd.nextDouble();
            rigidBody(pr, i, m, 0.01 + 0.02 * rnd.nextDouble(), 0.01 + 0.02 * rnd.nextDouble(), 0.01 + 0.02 * rnd.nextDouble());
            int c0 = pr.coord(i);
            for (int d = 0; d < 6; d++) {
                pr.v[c0 + d] = 0.3 * rnd.nextGaussian();
                pr.b[c0 + d] = pr.mass[36 * i + 7 * d] * pr.v[c0 + d];
            }
            pr.b[c0 + 2] -= m * G * H;
        }
        for (int k = 0; k < contacts; k++) {
            int a = rnd.nextInt(n);
            int b = rnd.nextInt(n + 1) - 1;
            if (b == a) {
                b = -1;
            }
            int r0 = pr.addBlock(ConstraintProblem.CONTACT, 3, a, b, 0.5);
            // random unit normal and its tangents (Gram-Schmidt against a random vector)
            double[] nrm = unit(rnd.nextGaussian(), rnd.nextGaussian(), rnd.nextGaussian());
            double[] g = {rnd.nextGaussian(), rnd.nextGaussian(), rnd.nextGaussian()};
            double dot = g[0] * nrm[0] + g[1] * nrm[1] + g[2] * nrm[2];
            double[] t1 = unit(g[0] - dot * nrm[0], g[1] - dot * nrm[1], g[2] - dot * nrm[2]);
            double[] t2 = {nrm[1] * t1[2] - nrm[2] * t1[1], nrm[2] * t1[0] - nrm[0] * t1[2], nrm[0] * t1[1] - nrm[1] * t1[0]};
            double[][] dirs = {nrm, t1, t2};
            double[] armA = {0.2 * rnd.nextGaussian(), 0.2 * rnd.nextGaussian(), 0.2 * rnd.nextGaussian()};
            double[] armB = {0.2 * rnd.nextGaussian(), 0.2 * rnd.nextGaussian(), 0.2 * rnd.nextGaussian()};
            for (int q = 0; q < 3; q++) {
                double[] neg = {-dirs[q][0], -dirs[q][1], -dirs[q][2]};
                row(pr.jA, r0 + q, neg, armA);
                if (b >= 0) {
                    row(pr.jB, r0 + q, dirs[q], armB);
                }
                pr.p[r0 + q] = q == 0 ? 0.05 * rnd.nextDouble() : 0.01 * rnd.nextGaussian();
            }
            pr.e[r0] = -0.05 * rnd.nextDouble();
            if (armed) {
                int c = pr.constraints - 1;
                pr.armed[c] = true;
                int f = 15 * c;
                for (int q = 0; q < 3; q++) {
                    System.arraycopy(dirs[q], 0, pr.contactFrame, f + 3 * q, 3);
                }
                System.arraycopy(armA, 0, pr.contactFrame, f + 9, 3);
                System.arraycopy(armB, 0, pr.contactFrame, f + 12, 3);
            }
        }
        return pr;
    }

    private static double[] unit(double x, double y, double z) {
        double l = Math.sqrt(x * x + y * y + z * z);
        return new double[]{x / l, y / l, z / l};
    }

    /**
     * Every block kind at once, with an articulation: two rigid bodies and a robot in joint
     * coordinates (3 joints, 3 links with random Jacobians Lambda_l, a random SPD A_r). Blocks: a
     * ball joint (HARD) between body 0 and link 2, a spring row (SOFT) on body 1, a limit (LIMIT)
     * between links 0 and 1 of the robot, a saturated motor (BOXED) on body 1, and contacts
     * (CONTACT, friction mu) of body 1 on the ground and of link 1 on body 0. No warm start. No
     * closed form: the reference is a converged solve.
     */
    static ConstraintProblem everyKindWithArticulation(long seed, double mu) {
        Random rnd = new Random(seed);
        ConstraintProblem pr = new ConstraintProblem();
        pr.resetBodies(5);
        pr.group(new int[] {0, 1, 2, 2, 2});
        pr.layout();
        int n = 3;
        pr.layoutArticulations(new int[] {n}, new int[] {3}, 1);
        pr.articulationOf[2] = 0;
        for (int l = 0; l < 3; l++) {
            pr.linkOf[2 + l] = l;
        }
        for (int i = 0; i < 2; i++) {
            rigidBody(pr, i, 1 + rnd.nextDouble(), 0.02, 0.03, 0.025);
            for (int d = 0; d < 6; d++) {
                pr.v[pr.coord(i) + d] = 0.3 * rnd.nextGaussian();
                pr.b[pr.coord(i) + d] = pr.mass[36 * i + 7 * d] * pr.v[pr.coord(i) + d];
            }
            pr.b[pr.coord(i) + 2] -= pr.mass[36 * i] * G * H;
        }
        double[][] root = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                root[i][j] = rnd.nextGaussian();
            }
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double a = i == j ? 0.5 : 0;
                for (int k = 0; k < n; k++) {
                    a += root[i][k] * root[j][k];
                }
                pr.articulationA[n * i + j] = a;
            }
            pr.articulationB[i] = rnd.nextGaussian();
        }
        for (int k = 0; k < 6 * n * 3; k++) {
            pr.lambda[k] = 0.5 * rnd.nextGaussian();
        }
        int joint = pr.addBlock(ConstraintProblem.HARD, 3, 0, 4, 0);
        for (int k = 0; k < 3; k++) {
            row(pr.jA, joint + k, AXES[k], new double[] {0.1, 0, 0});
            row(pr.jB, joint + k, new double[] {-AXES[k][0], -AXES[k][1], -AXES[k][2]}, new double[] {-0.05, 0.02, 0});
            pr.e[joint + k] = 0.01 * rnd.nextGaussian();
        }
        int spring = pr.addBlock(ConstraintProblem.SOFT, 1, 1, -1, 0);
        row(pr.jA, spring, AXES[1], new double[] {0, 0, 0.1});
        pr.gamma[spring] = 0.5;
        pr.e[spring] = 0.05;
        int limit = pr.addBlock(ConstraintProblem.LIMIT, 1, 2, 3, 0);
        pr.jA[6 * limit + 5] = 1;
        pr.jB[6 * limit + 5] = -1;
        pr.e[limit] = -0.2;
        int motor = pr.addBlock(ConstraintProblem.BOXED, 1, 1, -1, 0);
        pr.jA[6 * motor + 3] = 1;
        pr.e[motor] = -2;
        pr.lo[motor] = -0.01;
        pr.hi[motor] = 0.01;
        double[][] dirs = {AXES[2], AXES[0], AXES[1]};
        int ground = pr.addBlock(ConstraintProblem.CONTACT, 3, 1, -1, mu);
        for (int q = 0; q < 3; q++) {
            row(pr.jA, ground + q, dirs[q], new double[] {0.02, -0.01, -0.1});
        }
        pr.e[ground] = -0.3;
        pr.e[ground + 1] = 0.2;
        int touch = pr.addBlock(ConstraintProblem.CONTACT, 3, 3, 0, mu);
        for (int q = 0; q < 3; q++) {
            row(pr.jA, touch + q, dirs[q], new double[] {0, 0.05, -0.05});
            row(pr.jB, touch + q, new double[] {-dirs[q][0], -dirs[q][1], -dirs[q][2]}, new double[] {0, 0, 0.1});
        }
        pr.e[touch] = -0.1;
        java.util.Arrays.fill(pr.p, 0, pr.totalRows, 0);
        return pr;
    }

    /**
     * Asserts that {@code pr} (solved) has the velocities, joint velocities and impulses of
     * {@code ref} (the same problem, solved) within {@code tol}.
     */
    static void assertSameSolution(ConstraintProblem pr, ConstraintProblem ref, double tol) {
        for (int i = 0; i < totalDim(ref); i++) {
            org.assertj.core.api.Assertions.assertThat(pr.v[i]).as("v[%d]", i)
                    .isCloseTo(ref.v[i], org.assertj.core.api.Assertions.within(tol));
        }
        for (int a = 0; a < ref.articulations; a++) {
            for (int i = ref.articulationStart[a]; i < ref.articulationStart[a] + ref.articulationDim[a]; i++) {
                org.assertj.core.api.Assertions.assertThat(pr.articulationV[i]).as("qd[%d]", i)
                        .isCloseTo(ref.articulationV[i], org.assertj.core.api.Assertions.within(tol));
            }
        }
        for (int r = 0; r < ref.totalRows; r++) {
            org.assertj.core.api.Assertions.assertThat(pr.p[r]).as("p[%d]", r)
                    .isCloseTo(ref.p[r], org.assertj.core.api.Assertions.within(tol));
        }
    }

    /**
     * Three spheres (r 0.1 m, 1, 2 and 3 kg) in a row on the ground, pushed together and down:
     * frictionless contacts sphere-ground (3) and sphere-sphere (2), no warm start. Reference:
     * {@link #exactFrictionlessLcp}.
     */
    static ConstraintProblem frictionlessRow() {
        ConstraintProblem pr = new ConstraintProblem();
        pr.resetBodies(3);
        pr.layout();
        double r = 0.1;
        double[] vx = {1.0, 0.0, -0.5};
        double[] vz = {-0.3, -0.1, 0.2};
        for (int k = 0; k < 3; k++) {
            rigidBody(pr, k, 1 + k, 0.004, 0.004, 0.004);
            int c0 = pr.coord(k);
            pr.v[c0] = vx[k];
            pr.v[c0 + 2] = vz[k];
            pr.b[c0] = (1 + k) * vx[k];
            pr.b[c0 + 2] = (1 + k) * (vz[k] - G * H);
        }
        double[] nz = {0, 0, 1};
        double[] nx = {1, 0, 0};
        double[] ty = {0, 1, 0};
        double[] down = {0, 0, -r};
        for (int k = 0; k < 3; k++) {
            int r0 = pr.addBlock(ConstraintProblem.CONTACT, 3, k, -1, 0);
            row(pr.jA, r0, nz, down);
            row(pr.jA, r0 + 1, nx, down);
            row(pr.jA, r0 + 2, ty, down);
        }
        for (int k = 1; k < 3; k++) {
            // normal from sphere k-1 (B) to sphere k (A) along +x
            int r0 = pr.addBlock(ConstraintProblem.CONTACT, 3, k, k - 1, 0);
            double[][] dirs = {nx, nz, ty};
            for (int q = 0; q < 3; q++) {
                row(pr.jA, r0 + q, dirs[q], new double[] {-r, 0, 0});
                row(pr.jB, r0 + q, new double[] {-dirs[q][0], -dirs[q][1], -dirs[q][2]}, new double[] {r, 0, 0});
            }
        }
        for (int row = 0; row < pr.totalRows; row++) {
            pr.p[row] = 0;
        }
        return pr;
    }

    /** Enumerates active sets of the normal rows (tangent rows carry no impulse when mu = 0). */
    static double[] exactFrictionlessLcp(ConstraintProblem pr) {
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
            double[] sol = denseKkt(eq);
            int nv = totalDim(eq);
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

    /** Asserts that two solves of one problem left bitwise the same velocities and impulses. */
    static void assertBitwiseSameSolution(ConstraintProblem expected, ConstraintProblem actual) {
        for (int i = 0; i < totalDim(expected); i++) {
            org.assertj.core.api.Assertions.assertThat(Double.doubleToRawLongBits(actual.v[i])).as("v[%d]", i)
                    .isEqualTo(Double.doubleToRawLongBits(expected.v[i]));
        }
        for (int r = 0; r < expected.totalRows; r++) {
            org.assertj.core.api.Assertions.assertThat(Double.doubleToRawLongBits(actual.p[r])).as("p[%d]", r)
                    .isEqualTo(Double.doubleToRawLongBits(expected.p[r]));
        }
    }

    /**
     * The disjoint union of {@code parts}: their bodies (with their subsystems) one after the other,
     * their blocks in order with the body indices shifted, velocities and warm starts copied. Each
     * part is one or more islands of the union.
     */
    static ConstraintProblem disjointUnion(ConstraintProblem... parts) {
        int bodies = 0;
        for (ConstraintProblem q : parts) {
            bodies += q.bodies;
        }
        int[] groups = new int[bodies];
        int bodyOffset = 0;
        int subsystemOffset = 0;
        for (ConstraintProblem q : parts) {
            for (int i = 0; i < q.bodies; i++) {
                groups[bodyOffset + i] = subsystemOffset + q.subsystemOf[i];
            }
            bodyOffset += q.bodies;
            subsystemOffset += q.subsystems;
        }
        ConstraintProblem pr = new ConstraintProblem();
        pr.resetBodies(bodies);
        pr.group(groups);
        pr.layout();
        bodyOffset = 0;
        for (ConstraintProblem q : parts) {
            for (int i = 0; i < q.bodies; i++) {
                System.arraycopy(q.mass, 36 * i, pr.mass, 36 * (bodyOffset + i), 36);
                System.arraycopy(q.b, q.coord(i), pr.b, pr.coord(bodyOffset + i), 6);
                System.arraycopy(q.v, q.coord(i), pr.v, pr.coord(bodyOffset + i), 6);
            }
            for (int c = 0; c < q.constraints; c++) {
                int a = q.bodyA[c] < 0 ? -1 : bodyOffset + q.bodyA[c];
                int b = q.bodyB[c] < 0 ? -1 : bodyOffset + q.bodyB[c];
                int r0 = pr.addBlock(q.kind[c], q.rows[c], a, b, q.mu[c]);
                int s0 = q.rowStart[c];
                int m = q.rows[c];
                System.arraycopy(q.jA, 6 * s0, pr.jA, 6 * r0, 6 * m);
                System.arraycopy(q.jB, 6 * s0, pr.jB, 6 * r0, 6 * m);
                System.arraycopy(q.e, s0, pr.e, r0, m);
                System.arraycopy(q.gamma, s0, pr.gamma, r0, m);
                System.arraycopy(q.lo, s0, pr.lo, r0, m);
                System.arraycopy(q.hi, s0, pr.hi, r0, m);
                System.arraycopy(q.p, s0, pr.p, r0, m);
            }
            bodyOffset += q.bodies;
        }
        return pr;
    }

    /**
     * Exact dense KKT solve for equality constraints, [A -J^T; J Gamma] [v; p] = [b; -e] (HARD rows
     * have Gamma = 0, SOFT rows their compliance): returns {v; p}.
     */
    static double[] denseKkt(ConstraintProblem pr) {
        int nv = pr.b.length == 0 ? 0 : totalDim(pr);
        int nr = pr.totalRows;
        int n = nv + nr;
        double[][] k = new double[n][n + 1];
        for (int body = 0; body < pr.bodies; body++) {
            int o = pr.coord(body);
            for (int i = 0; i < 6; i++) {
                for (int j = 0; j < 6; j++) {
                    k[o + i][o + j] = pr.mass[36 * body + 6 * i + j];
                }
                k[o + i][n] = pr.b[o + i];
            }
        }
        for (int c = 0; c < pr.constraints; c++) {
            for (int r = pr.rowStart[c]; r < pr.rowStart[c] + pr.rows[c]; r++) {
                for (int side = 0; side < 2; side++) {
                    int body = side == 0 ? pr.bodyA[c] : pr.bodyB[c];
                    double[] j = side == 0 ? pr.jA : pr.jB;
                    if (body < 0) {
                        continue;
                    }
                    int o = pr.coord(body);
                    for (int d = 0; d < 6; d++) {
                        k[nv + r][o + d] += j[6 * r + d];
                        k[o + d][nv + r] -= j[6 * r + d];
                    }
                }
                k[nv + r][nv + r] = pr.gamma[r];
                k[nv + r][n] = -pr.e[r];
            }
        }
        return gauss(k, n);
    }

    static int totalDim(ConstraintProblem pr) {
        int t = 0;
        for (int s = 0; s < pr.subsystems; s++) {
            t += pr.dim[s];
        }
        return t;
    }

    /** Gaussian elimination with partial pivoting on an augmented matrix. */
    static double[] gauss(double[][] k, int n) {
        for (int col = 0; col < n; col++) {
            int piv = col;
            for (int r = col + 1; r < n; r++) {
                if (Math.abs(k[r][col]) > Math.abs(k[piv][col])) {
                    piv = r;
                }
            }
            double[] tmp = k[col];
            k[col] = k[piv];
            k[piv] = tmp;
            for (int r = 0; r < n; r++) {
                if (r != col && k[r][col] != 0) {
                    double f = k[r][col] / k[col][col];
                    for (int c = col; c <= n; c++) {
                        k[r][c] -= f * k[col][c];
                    }
                }
            }
        }
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = k[i][n] / k[i][i];
        }
        return x;
    }
}
