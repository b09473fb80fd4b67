package io.tandem.physics.internal.solver;

/*
 * Implementation notes.
 *
 * Islands are the connected components of the graph whose nodes are the problem's dynamic bodies
 * and whose edges are the constraint blocks with two dynamic sides and the subsystems (a
 * subsystem's bodies are solved together). Static and kinematic bodies are not nodes, so two
 * piles on one floor are two islands. Union-find with path halving; islands are numbered in the
 * order of their first body, so the numbering follows the problem's body order (the canonical
 * order of PhysicsEngine) and an island's number relative to the others never reaches into its
 * own arithmetic. A solver that needs a scalar over "all constraints" (a conjugate-gradient beta,
 * a convergence test) computes it per island, so that separate islands never interact, not even
 * bitwise. O(bodies + constraints) per build; allocation-free once grown.
 */

/** The islands of a {@link ConstraintProblem}. Not thread-safe. */
final class Islands {
    /** number of islands */
    int count;
    /** island of each body (bodies) */
    int[] ofBody = new int[0];
    /** island of each block (constraints), -1 for a block without a dynamic side */
    int[] ofBlock = new int[0];
    private int[] parent = new int[0];
    private int[] label = new int[0];

    void build(ConstraintProblem pr) {
        int n = pr.bodies;
        parent = ConstraintProblem.grow(parent, n);
        label = ConstraintProblem.grow(label, n);
        ofBody = ConstraintProblem.grow(ofBody, n);
        ofBlock = ConstraintProblem.grow(ofBlock, pr.constraints);
        for (int b = 0; b < n; b++) {
            parent[b] = b;
            label[b] = -1;
        }
        for (int c = 0; c < pr.constraints; c++) {
            if (pr.bodyA[c] >= 0 && pr.bodyB[c] >= 0) {
                union(pr.bodyA[c], pr.bodyB[c]);
            }
        }
        for (int s = 0; s < pr.subsystems; s++) {
            int q0 = pr.subsystemBodyStart[s];
            for (int q = q0 + 1; q < pr.subsystemBodyStart[s + 1]; q++) {
                union(pr.subsystemBodies[q0], pr.subsystemBodies[q]);
            }
        }
        count = 0;
        for (int b = 0; b < n; b++) {
            int r = find(b);
            if (label[r] < 0) {
                label[r] = count++;
            }
            ofBody[b] = label[r];
        }
        for (int c = 0; c < pr.constraints; c++) {
            int b = pr.bodyA[c] >= 0 ? pr.bodyA[c] : pr.bodyB[c];
            ofBlock[c] = b >= 0 ? ofBody[b] : -1;
        }
    }

    private int find(int b) {
        while (parent[b] != b) {
            parent[b] = parent[parent[b]];
            b = parent[b];
        }
        return b;
    }

    private void union(int a, int b) {
        int ra = find(a);
        int rb = find(b);
        if (ra != rb) {
            // the lower root wins: the result does not depend on the order of the unions
            if (ra < rb) {
                parent[rb] = ra;
            } else {
                parent[ra] = rb;
            }
        }
    }
}
