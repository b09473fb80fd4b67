package io.tandem.physics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Deformable bodies in the engine (issue 19's validation, shared/specs/physics-wave2.md 6): a
 * rigidly turned body at rest stays at rest (no ghost forces, the co-rotational property), the
 * energy of a free vibration does not grow without damping, a beam split into blocks tied at
 * duplicated nodes deflects as the unsplit one, mass is preserved by the split, and a deformable
 * body rests on the ground on its surface nodes.
 */
class DeformableTest {
    private static final double H = 0.002;

    @Test
    void turnedBody_atRest_staysAtRest() {
        // 30 degrees about (1, 2, 3)
        double half = Math.toRadians(15);
        double n = Math.sqrt(14);
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(H).gravity(0, 0, 0);
        int d = b.deformable("block").box(0.1, 0.05, 0.04, 4, 2, 2).material(1e6, 0.4, 1000)
                .at(0.3, -0.2, 0.5, Math.cos(half), Math.sin(half) / n, 2 * Math.sin(half) / n, 3 * Math.sin(half) / n).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        double[] start = s.pos.clone();
        try (PhysicsEngine engine = new PhysicsEngine(m)) {
            for (int k = 0; k < 200; k++) {
                engine.step(s);
            }
            assertThat(engine.deformableElasticEnergy(s, d)).isCloseTo(0.0, within(1e-18));
        }
        for (int i = 0; i < m.bodyCount(); i++) {
            for (int c = 0; c < 3; c++) {
                // rounding only: a ghost force would move the nodes by millimetres
                assertThat(s.pos[3 * i + c]).as("node body %d coordinate %d", i, c).isCloseTo(start[3 * i + c], within(1e-10));
                assertThat(s.linVel[3 * i + c]).isCloseTo(0.0, within(1e-10));
            }
        }
    }

    @Test
    void freeVibration_noDamping_energyDoesNotGrow() {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(H).gravity(0, 0, 0);
        int d = b.deformable("block").box(0.1, 0.04, 0.04, 5, 2, 2).material(1e5, 0.3, 1000).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        // stretch it 2 % along x and let it go
        for (int v = 0; v < m.deformableNodeCount(d); v++) {
            s.pos[3 * m.deformableNode(d, v)] *= 1.02;
        }
        try (PhysicsEngine engine = new PhysicsEngine(m)) {
            double e0 = energy(engine, m, s, d);
            assertThat(e0).isGreaterThan(0);
            double most = e0;
            double least = e0;
            for (int k = 0; k < 1000; k++) {
                engine.step(s);
                double e = energy(engine, m, s, d);
                most = Math.max(most, e);
                least = Math.min(least, e);
            }
            // the rotations frozen at x^k make the step slightly dissipative (-4.5 % in 2 s, -16 % in
            // 20 s here); the energy measured at the current rotation wobbles by 0.2 % around that
            assertThat(most).as("largest energy over 2 s").isLessThanOrEqualTo(e0 * 1.005);
            // and it vibrates: the energy moves between elastic and kinetic, not lost
            assertThat(least).as("smallest total energy").isGreaterThan(0.9 * e0);
        }
    }

    @Test
    void splitBeam_settledUnderWeight_deflectsAsTheUnsplitOne() {
        double one = clampedBeamTip(1);
        double four = clampedBeamTip(3);
        assertThat(one).as("unsplit tip sag, m").isGreaterThan(1e-4);
        assertThat(four).as("split tip sag, m").isCloseTo(one, within(0.01 * one));
    }

    @Test
    void split_preservesMassAndTiesEachCutNode() {
        PhysicsModel.Builder b = PhysicsModel.builder();
        int d = b.deformable("beam").box(0.30, 0.03, 0.03, 20, 2, 2).material(1e7, 0.45, 1000).blocks(4).add();
        PhysicsModel m = b.build();
        // the spec's beam (9.4): 189 nodes, 27 of them duplicated, 81 tie rows (27 ball joints)
        assertThat(m.deformableNodeCount(d)).isEqualTo(189);
        assertThat(m.bodyCount()).isEqualTo(189 + 27);
        assertThat(m.jointCount()).isEqualTo(27);
        double total = 0;
        for (int i = 0; i < m.bodyCount(); i++) {
            total += m.mass(i);
        }
        assertThat(total).isCloseTo(0.27, within(1e-12));
    }

    @Test
    void surface_meshedBox_closedOutwardTrianglesEnclosingItsVolume() {
        PhysicsModel.Builder b = PhysicsModel.builder();
        int d = b.deformable("beam").box(0.30, 0.03, 0.03, 20, 2, 2).material(1e7, 0.45, 1000).blocks(4)
                .at(0.15, 2, 0.5).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        int[] tri = m.deformableSurface(d);
        assertThat(m.deformableName(d)).isEqualTo("beam");
        // 2 (20 x 2 + 20 x 2 + 2 x 2) cell faces on the boundary, two triangles each
        assertThat(tri.length).isEqualTo(3 * 336);
        // closed and consistently turned: every directed edge once, its reverse once
        java.util.Map<Long, Integer> edges = new java.util.HashMap<>();
        for (int t = 0; t < tri.length; t += 3) {
            for (int k = 0; k < 3; k++) {
                edges.merge((long) tri[t + k] << 32 | tri[t + (k + 1) % 3], 1, Integer::sum);
            }
        }
        for (Map.Entry<Long, Integer> e : edges.entrySet()) {
            long key = e.getKey();
            assertThat(e.getValue()).isEqualTo(1);
            assertThat(edges).containsKey((key & 0xffffffffL) << 32 | key >>> 32);
        }
        // outward: the divergence theorem gives the box's volume, positive
        double volume = 0;
        for (int t = 0; t < tri.length; t += 3) {
            double[] p = new double[9];
            for (int k = 0; k < 3; k++) {
                System.arraycopy(s.pos, 3 * m.deformableNode(d, tri[t + k]), p, 3 * k, 3);
            }
            volume += (p[0] * (p[4] * p[8] - p[5] * p[7]) - p[1] * (p[3] * p[8] - p[5] * p[6]) + p[2] * (p[3] * p[7] - p[4] * p[6])) / 6;
        }
        assertThat(volume).isCloseTo(0.30 * 0.03 * 0.03, within(1e-12));
    }

    @Test
    void deformableBox_droppedOnGround_restsOnItsSurfaceNodes() {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(H);
        b.body("ground").makeStatic().plane().add();
        int d = b.deformable("cube").box(0.1, 0.1, 0.1, 2, 2, 2).material(1e5, 0.3, 500).rayleigh(0, 0.01)
                .nodeRadius(0.002).at(0, 0, 0.06).add();
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        try (PhysicsEngine engine = new PhysicsEngine(m)) {
            for (int k = 0; k < 750; k++) {
                engine.step(s);
            }
        }
        double lowest = Double.MAX_VALUE;
        for (int v = 0; v < m.deformableNodeCount(d); v++) {
            int body = m.deformableNode(d, v);
            lowest = Math.min(lowest, s.pos[3 * body + 2]);
            assertThat(s.linVel[3 * body + 2]).as("node %d at rest", v).isCloseTo(0.0, within(1e-3));
        }
        // the bottom nodes' spheres (2 mm) touch the ground
        assertThat(lowest).isCloseTo(0.002, within(5e-4));
    }

    @Test
    void meshFile_tetGenCube_buildsItsNodesAndMass(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        // a unit cube in the six tetrahedra of the Kuhn split, corners numbered x + 2y + 4z, 1-based
        StringBuilder node = new StringBuilder("8 3 0 0\n");
        for (int v = 0; v < 8; v++) {
            node.append(v + 1).append(' ').append(v & 1).append(' ').append(v >> 1 & 1).append(' ').append(v >> 2 & 1).append('\n');
        }
        int[][] six = {{0, 1, 3, 7}, {0, 1, 7, 5}, {0, 2, 7, 3}, {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 7, 6}};
        StringBuilder ele = new StringBuilder("6 4 0\n");
        for (int e = 0; e < 6; e++) {
            ele.append(e + 1);
            for (int c : six[e]) {
                ele.append(' ').append(c + 1);
            }
            ele.append('\n');
        }
        java.nio.file.Files.writeString(dir.resolve("cube.node"), node);
        java.nio.file.Files.writeString(dir.resolve("cube.ele"), ele);
        PhysicsModel.Builder b = PhysicsModel.builder();
        int d = b.deformable("cube").meshFile(dir.resolve("cube.node")).material(1e6, 0.3, 500).add();
        PhysicsModel m = b.build();
        assertThat(m.deformableNodeCount(d)).isEqualTo(8);
        double total = 0;
        for (int i = 0; i < m.bodyCount(); i++) {
            total += m.mass(i);
        }
        assertThat(total).isCloseTo(500.0, within(1e-9));
        assertThatThrownBy(() -> PhysicsModel.builder().deformable("c").meshFile(dir.resolve("cube.obj")))
                .hasMessageContaining("cube.obj: deformable 'c' reads tetrahedral meshes from Gmsh .msh");
    }

    @Test
    void weldedToABody_overlappingIt_neverCollidesWithIt() {
        // a gripper-like box around one end of a deformable bar: the welded nodes and their
        // neighbours inside the box would otherwise push against it
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(H).gravity(0, 0, 0);
        int grip = b.body("grip").position(0, 0, 0).mass(1, 0.01, 0.01, 0.01).box(0.03, 0.03, 0.03).add();
        int d = b.deformable("bar").box(0.2, 0.02, 0.02, 10, 1, 1).material(1e6, 0.3, 1000).nodeRadius(0.002)
                .at(0.08, 0, 0).add();
        b.weldNodes(d, grip, (x, y, z) -> x < -0.015);
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        try (PhysicsEngine engine = new PhysicsEngine(m)) {
            engine.step(s);
            assertThat(engine.contactCount()).isZero();
        }
    }

    @Test
    void deformable_badInput_oneLineWithTheFix() {
        assertThatThrownBy(() -> PhysicsModel.builder().deformable("b").material(-1, 0.3, 1000))
                .hasMessageContaining("deformable 'b': Young's modulus E must be a finite number > 0 Pa, got -1.0");
        assertThatThrownBy(() -> PhysicsModel.builder().deformable("b").material(1e6, 0.7, 1000))
                .hasMessageContaining("Poisson's ratio nu must be inside (-1, 0.5), got 0.7");
        assertThatThrownBy(() -> PhysicsModel.builder().deformable("b")
                .mesh(new double[] {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, new int[] {0, 2, 1, 3}))
                .hasMessageContaining("deformable 'b': tetrahedron 0 (nodes [0, 2, 1, 3]) is inverted")
                .hasMessageContaining("swap two of its nodes");
        assertThatThrownBy(() -> PhysicsModel.builder().deformable("b")
                .mesh(new double[] {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0}, new int[] {0, 1, 2, 3}))
                .hasMessageContaining("tetrahedron 0").hasMessageContaining("degenerate");
        assertThatThrownBy(() -> PhysicsModel.builder().deformable("b").box(0.1, 0.1, 0.1, 2, 1, 1)
                .material(1e6, 0.3, 1000).blocks(5).add())
                .hasMessageContaining("holds no tetrahedron").hasMessageContaining("use fewer blocks");
        assertThatThrownBy(() -> PhysicsModel.builder().deformable("b").box(0.1, 0.1, 0.1, 2, 1, 1).add())
                .hasMessageContaining("needs its material");
    }

    /** Tip sag of a 0.15 m beam clamped at x = 0 (its end face welded to the world), settled under gravity. */
    private static double clampedBeamTip(int blocks) {
        PhysicsModel.Builder b = PhysicsModel.builder().timeStep(H);
        int d = b.deformable("beam").box(0.15, 0.03, 0.03, 10, 2, 2).material(1e6, 0.45, 1000).rayleigh(0, 0.05)
                .blocks(blocks).at(0.075, 0, 1).add();
        b.weldNodes(d, -1, (x, y, z) -> x < 1e-9);
        PhysicsModel m = b.build();
        PhysicsState s = m.newState();
        try (PhysicsEngine engine = new PhysicsEngine(m)) {
            for (int k = 0; k < 250; k++) {
                engine.step(s);
            }
        }
        // the mean sag of the tip face's nodes
        double sag = 0;
        int count = 0;
        for (int v = 0; v < m.deformableNodeCount(d); v++) {
            int body = m.deformableNode(d, v);
            if (m.newState().pos[3 * body] > 0.15 - 1e-9) {
                sag += m.newState().pos[3 * body + 2] - s.pos[3 * body + 2];
                count++;
            }
        }
        return sag / count;
    }

    /** Kinetic plus elastic energy of deformable body d, J. */
    private static double energy(PhysicsEngine engine, PhysicsModel m, PhysicsState s, int d) {
        double kinetic = 0;
        for (int i = 0; i < m.bodyCount(); i++) {
            double v2 = s.linVel[3 * i] * s.linVel[3 * i] + s.linVel[3 * i + 1] * s.linVel[3 * i + 1]
                    + s.linVel[3 * i + 2] * s.linVel[3 * i + 2];
            kinetic += 0.5 * m.mass(i) * v2;
        }
        return kinetic + engine.deformableElasticEnergy(s, d);
    }
}
