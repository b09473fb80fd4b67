package io.tandem.physics;

import java.util.List;

/**
 * A model's deformable bodies (DeformableBuilder), flattened per block: each block is one
 * subsystem of the engine's problem, its nodes bodies of the model (a node on a cut has one body
 * per block, tied by ball joints). Immutable after construction.
 */
final class Deformables {
    /** one block as built: its nodes' bodies and rest positions, its tetrahedra on local nodes */
    record Block(int deformable, int[] bodies, double[] restNodes, int[] tets) {
    }

    /** one deformable body as built */
    record Spec(String name, List<Block> blocks, double youngs, double poisson, double density, double alpha,
                double betaR, int[] nodeBody, int[] surface) {
    }

    final int count;
    final String[] name;
    final Block[] blocks;
    final double[] youngs;
    final double[] poisson;
    final double[] density;
    final double[] alpha;
    final double[] betaR;
    /** per deformable: the body of each mesh node (its copy in the first block holding it) */
    final int[][] nodeBody;
    /** per deformable: its boundary triangles, 3 mesh nodes each, counter-clockwise seen from outside */
    final int[][] surface;
    /** per model body: its block, or -1 */
    final int[] blockOfBody;
    /** per model body: its node inside its block, or -1 */
    final int[] nodeOfBody;

    Deformables(List<Spec> specs, int bodies) {
        count = specs.size();
        name = new String[count];
        youngs = new double[count];
        poisson = new double[count];
        density = new double[count];
        alpha = new double[count];
        betaR = new double[count];
        nodeBody = new int[count][];
        surface = new int[count][];
        int nb = 0;
        for (Spec s : specs) {
            nb += s.blocks().size();
        }
        blocks = new Block[nb];
        blockOfBody = new int[bodies];
        nodeOfBody = new int[bodies];
        java.util.Arrays.fill(blockOfBody, -1);
        java.util.Arrays.fill(nodeOfBody, -1);
        int k = 0;
        for (int d = 0; d < count; d++) {
            Spec s = specs.get(d);
            name[d] = s.name();
            youngs[d] = s.youngs();
            poisson[d] = s.poisson();
            density[d] = s.density();
            alpha[d] = s.alpha();
            betaR[d] = s.betaR();
            nodeBody[d] = s.nodeBody().clone();
            surface[d] = s.surface().clone();
            for (Block b : s.blocks()) {
                blocks[k] = b;
                for (int i = 0; i < b.bodies().length; i++) {
                    blockOfBody[b.bodies()[i]] = k;
                    nodeOfBody[b.bodies()[i]] = i;
                }
                k++;
            }
        }
    }
}
