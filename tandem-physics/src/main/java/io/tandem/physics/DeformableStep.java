package io.tandem.physics;

import io.tandem.physics.internal.fem.FemBlock;
import io.tandem.physics.internal.solver.ConstraintProblem;

/*
 * Implementation notes.
 *
 * The engine's step for deformable bodies (shared/specs/physics-wave2.md 6.2), in the engine's
 * drift-kick-drift form: each block is an articulated subsystem of the problem (ConstraintProblem's
 * dense A_r with link Jacobians), its coordinates the 3 n node velocities and each node a "link"
 * body whose Jacobian Lambda selects its three velocities (the angular rows are zero), so every
 * solver, row and contact works on nodes unchanged:
 *   1. x^{k+1/2} = x^k + h/2 v^k (rows and contacts see the nodes at the midpoint, as rigid bodies);
 *   2. A_b, b_b from x^k and v^k (FemBlock, rotations frozen at x^k);
 *   4. the solver;
 *   5. x^{k+1} = x^{k+1/2} + h/2 v^{k+1}; the node velocities into the state.
 * Blocks are stepped serially in index order: deterministic for any thread count.
 */

/** Steps a model's deformable bodies inside {@link PhysicsEngine#step}. Allocation-free. Not thread-safe. */
final class DeformableStep {
    private final PhysicsModel m;
    private final Deformables def;
    private final FemBlock[] blocks;
    /** subsystem of each block in the engine's problem */
    final int[] subsystem;
    private final int[] dims;
    /** x^k and v^k of the nodes of the block being assembled (3 per node) */
    private final double[] x;
    private final double[] v;
    private int first;

    DeformableStep(PhysicsModel model, int[] subsystemOfBlock) {
        m = model;
        def = model.deformables;
        blocks = new FemBlock[def.blocks.length];
        dims = new int[blocks.length];
        int most = 0;
        for (int k = 0; k < blocks.length; k++) {
            Deformables.Block b = def.blocks[k];
            int d = b.deformable();
            blocks[k] = new FemBlock(b.restNodes(), b.tets(), def.youngs[d], def.poisson[d], def.density[d], def.alpha[d],
                    def.betaR[d]);
            dims[k] = 3 * b.bodies().length;
            most = Math.max(most, dims[k]);
        }
        subsystem = subsystemOfBlock;
        x = new double[most];
        v = new double[most];
    }

    /** @return coordinates per block (3 per node) */
    int[] dims() {
        return dims;
    }

    /** @return nodes per block (the "links" of each articulated subsystem) */
    int[] links() {
        int[] n = new int[dims.length];
        for (int k = 0; k < n.length; k++) {
            n[k] = dims[k] / 3;
        }
        return n;
    }

    /**
     * Tells the problem which subsystems and bodies are the blocks' (articulations {@code first ..}),
     * and writes the nodes' constant Jacobians. Call after {@link ConstraintProblem#layoutArticulations}.
     */
    void layout(ConstraintProblem pr, int[] dyn, int firstArticulation) {
        first = firstArticulation;
        for (int k = 0; k < blocks.length; k++) {
            int a = first + k;
            int n = dims[k];
            pr.articulationOf[subsystem[k]] = a;
            int[] bodies = def.blocks[k].bodies();
            int l0 = pr.lambdaStart[a];
            java.util.Arrays.fill(pr.lambda, l0, l0 + 6 * n * bodies.length, 0);
            for (int i = 0; i < bodies.length; i++) {
                pr.linkOf[dyn[bodies[i]]] = i;
                for (int d = 0; d < 3; d++) {
                    pr.lambda[l0 + 6 * n * i + n * d + 3 * i + d] = 1;
                }
            }
            pr.indexLambda(subsystem[k]);
        }
    }

    /** 1. The first half drift of every node. */
    void firstHalf(PhysicsState s, double h) {
        for (Deformables.Block b : def.blocks) {
            for (int body : b.bodies()) {
                for (int d = 0; d < 3; d++) {
                    s.pos[3 * body + d] += 0.5 * h * s.linVel[3 * body + d];
                }
            }
        }
    }

    /** 2. A_b and b_b of every block into the problem, from x^k (the step's start poses) and v^k. */
    void dynamics(PhysicsState s, double[] startPos, ConstraintProblem pr, double h) {
        for (int k = 0; k < blocks.length; k++) {
            int a = first + k;
            int[] bodies = def.blocks[k].bodies();
            for (int i = 0; i < bodies.length; i++) {
                System.arraycopy(startPos, 3 * bodies[i], x, 3 * i, 3);
                System.arraycopy(s.linVel, 3 * bodies[i], v, 3 * i, 3);
            }
            blocks[k].assemble(x, v, m.gravity, h, pr.articulationA, pr.articulationMatrixStart[a], pr.articulationB,
                    pr.articulationStart[a]);
            System.arraycopy(v, 0, pr.articulationV, pr.articulationStart[a], dims[k]);
        }
    }

    /** 5. The second half drift and the new velocities of every node. */
    void secondHalf(PhysicsState s, ConstraintProblem pr, double h) {
        for (int k = 0; k < blocks.length; k++) {
            int v0 = pr.articulationStart[first + k];
            int[] bodies = def.blocks[k].bodies();
            for (int i = 0; i < bodies.length; i++) {
                int body = bodies[i];
                for (int d = 0; d < 3; d++) {
                    double vn = pr.articulationV[v0 + 3 * i + d];
                    s.pos[3 * body + d] += 0.5 * h * vn;
                    s.linVel[3 * body + d] = vn;
                    s.angVel[3 * body + d] = 0;
                }
            }
        }
    }

    /** @return block k's elastic energy at the state's node positions, J (tests and diagnostics) */
    double elasticEnergy(PhysicsState s, int k) {
        int[] bodies = def.blocks[k].bodies();
        double[] xs = new double[3 * bodies.length];
        for (int i = 0; i < bodies.length; i++) {
            System.arraycopy(s.pos, 3 * bodies[i], xs, 3 * i, 3);
        }
        return blocks[k].elasticEnergy(xs);
    }
}
