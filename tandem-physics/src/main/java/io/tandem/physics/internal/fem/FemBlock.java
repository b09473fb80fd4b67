package io.tandem.physics.internal.fem;

/*
 * Implementation notes.
 *
 * One block of a co-rotational linear FEM body as a subsystem (shared/specs/physics-wave2.md 6.2):
 * the trapezoidal (midpoint) step of M vdot = f_el(x) - D v + M g with the element rotations frozen
 * at x^k (Mueller and Gross 2004: K_w = R K_e R^T, the warped stiffness without the dR/dx terms,
 * Vega's warp = 1):
 *   A_b = M (1 + h alpha / 2) + (h beta / 2 + h^2 / 4) K_w
 *   b_b = M (1 - h alpha / 2) v^k - (h beta / 2 + h^2 / 4) K_w v^k + h (f_el(x^k) + M g)
 * with D = alpha M + beta K_w (Rayleigh), f_el(x) = -(R (x) I4) K_e (R^T x - X) summed over the
 * block's tetrahedra, and the lumped mass M (rho V_e / 4 per node and tetrahedron). Then
 * x^{k+1} = x^k + h/2 (v^k + v^{k+1}) (the engine's two half drifts), and the elastic force at the
 * midpoint x^k + h/4 (v^k + v^{k+1}) is linearised as f_el(x^k) - K_w (x - x^k): exactly the
 * (h^2 / 4) K_w terms above. With alpha = beta = 0 and a fixed rotation the step is the implicit
 * midpoint rule on a linear system, which conserves its energy (the test without damping checks
 * that the energy does not grow).
 *
 * A_b is dense here (row-major n x n, n = 3 nodes), which the engine's articulated subsystems
 * (ConstraintProblem's dense A_r with link Jacobians) already factorize and solve in every solver;
 * a block of the spec's beam has 54 nodes (n = 162). A sparse factorization pays from a few hundred
 * nodes per block: split bigger meshes into more blocks.
 */

/**
 * The matrices of one block of a co-rotational tetrahedral FEM body: rest stiffness per
 * tetrahedron computed once, then per step the block's dense A_b and b_b from the nodes' positions
 * and velocities. Allocation-free after construction. Not thread-safe (one instance per block).
 */
public final class FemBlock {
    private final int nodes;
    private final int[] tets;
    private final double[] rest;
    /** K_e per tetrahedron (144 each) */
    private final double[] ke;
    /** Dm^-1 per tetrahedron (9 each) */
    private final double[] dmInverse;
    private final double[] mass;
    private final double alpha;
    private final double beta;
    // scratch
    private final double[] x12 = new double[12];
    private final double[] rest12 = new double[12];
    private final double[] f9 = new double[9];
    private final double[] r9 = new double[9];
    private final double[] inv9 = new double[9];
    private final double[] ds9 = new double[9];
    private final double[] dm9 = new double[9];
    private final double[] z12 = new double[12];
    private final double[] kz12 = new double[12];
    private final double[] kw = new double[144];
    private final double[] tmp3 = new double[9];

    /**
     * @param restNodes    the block's node positions at rest, m (3 per node)
     * @param tets         the block's tetrahedra, 4 local node indices each, positive volume
     * @param youngs       E, Pa
     * @param poisson      nu
     * @param density      kg/m^3
     * @param alpha        Rayleigh mass damping, 1/s
     * @param betaR        Rayleigh stiffness damping, s
     */
    public FemBlock(double[] restNodes, int[] tets, double youngs, double poisson, double density, double alpha, double betaR) {
        this.nodes = restNodes.length / 3;
        this.tets = tets.clone();
        this.rest = restNodes.clone();
        int m = tets.length / 4;
        this.ke = new double[144 * m];
        this.dmInverse = new double[9 * m];
        this.mass = new double[nodes];
        this.alpha = alpha;
        this.beta = betaR;
        double[] lame = CorotationalTet.lame(youngs, poisson);
        double[] k = new double[144];
        double[] inv = new double[9];
        for (int e = 0; e < m; e++) {
            gather(rest, e, rest12);
            double v = CorotationalTet.restStiffness(rest12, lame, k, inv);
            System.arraycopy(k, 0, ke, 144 * e, 144);
            System.arraycopy(inv, 0, dmInverse, 9 * e, 9);
            for (int a = 0; a < 4; a++) {
                mass[tets[4 * e + a]] += density * v / 4;
            }
        }
    }

    /** @return the number of nodes */
    public int nodes() {
        return nodes;
    }

    /** @return node i's lumped mass, kg */
    public double mass(int i) {
        return mass[i];
    }

    /**
     * A_b (n x n row-major at {@code ao}, n = 3 nodes) and b_b (at {@code bo}) of the step from x^k
     * and v^k (3 per node each).
     *
     * @param g gravity, m/s^2 (3)
     * @param h time step, s
     */
    public void assemble(double[] x, double[] v, double[] g, double h, double[] a, int ao, double[] b, int bo) {
        int n = 3 * nodes;
        java.util.Arrays.fill(a, ao, ao + n * n, 0);
        java.util.Arrays.fill(b, bo, bo + n, 0);
        double ck = 0.5 * h * beta + 0.25 * h * h;
        for (int e = 0; e < tets.length / 4; e++) {
            gather(x, e, x12);
            gather(rest, e, rest12);
            rotation(e);
            warped(e);
            // the elastic force f_el = -(R (x) I4) K_e (R^T x - X), and -ck K_w v
            for (int p = 0; p < 4; p++) {
                for (int i = 0; i < 3; i++) {
                    z12[3 * p + i] = r9[i] * x12[3 * p] + r9[3 + i] * x12[3 * p + 1] + r9[6 + i] * x12[3 * p + 2]
                            - rest12[3 * p + i];
                }
            }
            int k0 = 144 * e;
            for (int row = 0; row < 12; row++) {
                double s = 0;
                for (int c = 0; c < 12; c++) {
                    s += ke[k0 + 12 * row + c] * z12[c];
                }
                kz12[row] = s;
            }
            for (int p = 0; p < 4; p++) {
                int np = tets[4 * e + p];
                for (int i = 0; i < 3; i++) {
                    double fel = -(r9[3 * i] * kz12[3 * p] + r9[3 * i + 1] * kz12[3 * p + 1] + r9[3 * i + 2] * kz12[3 * p + 2]);
                    double kv = 0;
                    for (int q = 0; q < 4; q++) {
                        int nq = tets[4 * e + q];
                        for (int j = 0; j < 3; j++) {
                            double w = kw[12 * (3 * p + i) + 3 * q + j];
                            kv += w * v[3 * nq + j];
                            a[ao + n * (3 * np + i) + 3 * nq + j] += ck * w;
                        }
                    }
                    b[bo + 3 * np + i] += h * fel - ck * kv;
                }
            }
        }
        for (int p = 0; p < nodes; p++) {
            double mp = mass[p];
            for (int i = 0; i < 3; i++) {
                int d = 3 * p + i;
                a[ao + n * d + d] += mp * (1 + 0.5 * h * alpha);
                b[bo + d] += mp * (1 - 0.5 * h * alpha) * v[d] + h * mp * g[i];
            }
        }
    }

    /**
     * The elastic energy 1/2 z^T K_e z with z = R^T x - X per tetrahedron (the co-rotational
     * model's energy at a rotation fixed to the current one), J.
     */
    public double elasticEnergy(double[] x) {
        double energy = 0;
        for (int e = 0; e < tets.length / 4; e++) {
            gather(x, e, x12);
            gather(rest, e, rest12);
            rotation(e);
            for (int p = 0; p < 4; p++) {
                for (int i = 0; i < 3; i++) {
                    z12[3 * p + i] = r9[i] * x12[3 * p] + r9[3 + i] * x12[3 * p + 1] + r9[6 + i] * x12[3 * p + 2]
                            - rest12[3 * p + i];
                }
            }
            for (int row = 0; row < 12; row++) {
                double s = 0;
                for (int c = 0; c < 12; c++) {
                    s += ke[144 * e + 12 * row + c] * z12[c];
                }
                energy += 0.5 * z12[row] * s;
            }
        }
        return energy;
    }

    /** R of tetrahedron e at the coordinates in x12, into r9 (polar decomposition, det +1). */
    private void rotation(int e) {
        for (int k = 0; k < 3; k++) {
            for (int i = 0; i < 3; i++) {
                ds9[3 * i + k] = x12[3 * (k + 1) + i] - x12[i];
            }
        }
        System.arraycopy(dmInverse, 9 * e, dm9, 0, 9);
        Mat3.multiply(ds9, dm9, f9);
        CorotationalTet.polarRotation(f9, r9, inv9);
    }

    /** K_w = R K_e R^T blockwise for tetrahedron e, into kw (12 x 12). */
    private void warped(int e) {
        int k0 = 144 * e;
        for (int p = 0; p < 4; p++) {
            for (int q = 0; q < 4; q++) {
                // tmp = K_pq R^T
                for (int i = 0; i < 3; i++) {
                    for (int j = 0; j < 3; j++) {
                        double s = 0;
                        for (int l = 0; l < 3; l++) {
                            s += ke[k0 + 12 * (3 * p + i) + 3 * q + l] * r9[3 * j + l];
                        }
                        tmp3[3 * i + j] = s;
                    }
                }
                for (int i = 0; i < 3; i++) {
                    for (int j = 0; j < 3; j++) {
                        double s = 0;
                        for (int l = 0; l < 3; l++) {
                            s += r9[3 * i + l] * tmp3[3 * l + j];
                        }
                        kw[12 * (3 * p + i) + 3 * q + j] = s;
                    }
                }
            }
        }
    }

    private void gather(double[] src, int e, double[] out) {
        for (int k = 0; k < 4; k++) {
            System.arraycopy(src, 3 * tets[4 * e + k], out, 3 * k, 3);
        }
    }
}
