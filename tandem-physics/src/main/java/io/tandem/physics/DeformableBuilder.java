package io.tandem.physics;

import io.tandem.physics.internal.dynamics.RigidOps;
import io.tandem.physics.internal.fem.BoxMesher;
import io.tandem.physics.internal.fem.CorotationalTet;
import io.tandem.physics.internal.fem.TetMesh;
import io.tandem.physics.internal.fem.TetMeshFiles;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/*
 * Implementation notes.
 *
 * A deformable body is a co-rotational linear tetrahedral FEM mesh (shared/specs/physics-wave2.md
 * 6; internal.fem.FemBlock) split into blocks (6.3): each tetrahedron goes to the block of its
 * centroid along the mesh's longest axis (equal slabs), so a box mesh of 20 layers in 4 blocks
 * gets 5 layers each. A node shared by several blocks is duplicated, one copy per block, each with
 * the lumped mass of its own block's tetrahedra (the total is preserved), and the copies are tied
 * to the first block's copy by ball joints: 3 hard rows x_a - x_a' = 0 between the subsystems,
 * which SubADMM splits. Every node copy is a body of the model at the node's position (identity
 * orientation; the engine moves it by its block's solve, never by a rigid drift), so joints, welds
 * and contacts act on nodes as on any body: a surface node (on a face of exactly one tetrahedron)
 * carries a sphere of the node radius for contacts; a weld is a ball joint at the node. A body's
 * nodes never collide with each other (one collision family).
 */

/**
 * Describes a deformable body: a tetrahedral mesh (a meshed box or the caller's nodes and
 * tetrahedra), its material, Rayleigh damping, its split into blocks (one subsystem each) and its
 * nodes' contact radius. Finish with {@link #add()}. Build-time only; not thread-safe.
 */
public final class DeformableBuilder {
    private final PhysicsModel.Builder owner;
    private final String name;
    private TetMesh mesh;
    private final double[] pose = {0, 0, 0, 1, 0, 0, 0};
    private double youngs = Double.NaN;
    private double poisson = Double.NaN;
    private double density = Double.NaN;
    private double alpha;
    private double betaR;
    private int blocks = 1;
    private double nodeRadius = 1e-3;
    private double friction = 0.5;
    private long firstBodyId = -1;
    private long firstJointId = -1;

    DeformableBuilder(PhysicsModel.Builder owner, String name) {
        this.owner = owner;
        this.name = name;
    }

    /**
     * A box of sizeX x sizeY x sizeZ m centred on the body frame's origin, nx x ny x nz cells of six
     * tetrahedra each (the Kuhn split, conforming).
     *
     * @return this
     */
    public DeformableBuilder box(double sizeX, double sizeY, double sizeZ, int nx, int ny, int nz) {
        try {
            mesh = BoxMesher.box(sizeX, sizeY, sizeZ, nx, ny, nz, true);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("deformable '" + name + "': " + e.getMessage(), e);
        }
        return this;
    }

    /**
     * The caller's mesh, in the body's frame.
     *
     * @param nodes x, y, z per node, m
     * @param tets  four node indices per tetrahedron, each with positive volume
     * @return this
     * @throws IllegalArgumentException naming the first inverted, degenerate or out-of-range element
     */
    public DeformableBuilder mesh(double[] nodes, int[] tets) {
        try {
            mesh = new TetMesh(nodes, tets);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("deformable '" + name + "': " + e.getMessage(), e);
        }
        return this;
    }

    /**
     * A mesh users already have, in the body's frame (metres): Gmsh MSH 4.1 / 4.0 ASCII ({@code .msh})
     * or TetGen ({@code .node} with its {@code .ele} beside it).
     *
     * @return this
     * @throws IllegalArgumentException naming FILE:LINE and the fix for a file that does not parse
     */
    public DeformableBuilder meshFile(java.nio.file.Path file) {
        String f = String.valueOf(file.getFileName()).toLowerCase(java.util.Locale.ROOT);
        if (f.endsWith(".msh")) {
            mesh = TetMeshFiles.readGmsh(file);
        } else if (f.endsWith(".node")) {
            mesh = TetMeshFiles.readTetGen(file);
        } else {
            throw new IllegalArgumentException(file + ": deformable '" + name + "' reads tetrahedral meshes from Gmsh .msh"
                    + " (4.1 ASCII) or TetGen .node/.ele files; convert it with `gmsh -3 -format msh41`");
        }
        return this;
    }

    /** @return this, with the body's frame at (x, y, z) m, turned by the unit quaternion (w, x, y, z) */
    public DeformableBuilder at(double x, double y, double z, double qw, double qx, double qy, double qz) {
        double n = Math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz);
        if (!Double.isFinite(x + y + z) || !(n > 1e-9) || !Double.isFinite(n)) {
            throw new IllegalArgumentException("deformable '" + name + "': pose needs a finite position and a non-zero"
                    + " quaternion");
        }
        pose[0] = x;
        pose[1] = y;
        pose[2] = z;
        pose[3] = qw / n;
        pose[4] = qx / n;
        pose[5] = qy / n;
        pose[6] = qz / n;
        return this;
    }

    /** @return this, with the body's frame at (x, y, z) m, unturned */
    public DeformableBuilder at(double x, double y, double z) {
        return at(x, y, z, 1, 0, 0, 0);
    }

    /**
     * @param youngsModulusPa E, &gt; 0
     * @param poissonRatio    nu, in (-1, 0.5)
     * @param kgPerM3         density, &gt; 0
     * @return this
     */
    public DeformableBuilder material(double youngsModulusPa, double poissonRatio, double kgPerM3) {
        String what = "deformable '" + name + "'";
        youngs = Material.youngs(what, youngsModulusPa);
        poisson = Material.poisson(what, poissonRatio);
        density = Material.density(what, kgPerM3);
        return this;
    }

    /**
     * Rayleigh damping D = alpha M + beta K.
     *
     * @param alphaPerS mass-proportional, 1/s, at least 0
     * @param betaS     stiffness-proportional, s, at least 0
     * @return this
     */
    public DeformableBuilder rayleigh(double alphaPerS, double betaS) {
        if (!(alphaPerS >= 0) || !(betaS >= 0) || Double.isInfinite(alphaPerS + betaS)) {
            throw new IllegalArgumentException("deformable '" + name + "': Rayleigh damping needs finite alpha >= 0 and"
                    + " beta >= 0, got " + alphaPerS + " and " + betaS);
        }
        alpha = alphaPerS;
        betaR = betaS;
        return this;
    }

    /** @param count blocks (subsystems) along the mesh's longest axis, at least 1; default 1 @return this */
    public DeformableBuilder blocks(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("deformable '" + name + "': blocks must be >= 1, got " + count);
        }
        blocks = count;
        return this;
    }

    /** @param metres the contact sphere radius of each surface node, &gt; 0; default 1 mm @return this */
    public DeformableBuilder nodeRadius(double metres) {
        if (!(metres > 0) || Double.isInfinite(metres)) {
            throw new IllegalArgumentException("deformable '" + name + "': node radius must be a finite number > 0 m, got "
                    + metres);
        }
        nodeRadius = metres;
        return this;
    }

    /** @param mu friction coefficient of the surface nodes, at least 0 @return this */
    public DeformableBuilder friction(double mu) {
        if (!(mu >= 0) || Double.isInfinite(mu)) {
            throw new IllegalArgumentException("deformable '" + name + "': friction must be finite and >= 0, got " + mu);
        }
        friction = mu;
        return this;
    }

    /**
     * Gives the node bodies stable global ids {@code bodyId, bodyId + 1, ...} (in the order they
     * are added: block by block, nodes in mesh order) and the ties {@code jointId, ...} (default:
     * their indices).
     *
     * @return this
     */
    public DeformableBuilder ids(long bodyId, long jointId) {
        firstBodyId = bodyId;
        firstJointId = jointId;
        return this;
    }

    /**
     * Adds the node bodies, the ties between blocks and the deformable body to the model.
     *
     * @return the deformable body's index; its nodes' bodies via {@link PhysicsModel.Builder#deformableNode}
     */
    public int add() {
        String what = "deformable '" + name + "'";
        if (mesh == null) {
            throw new IllegalArgumentException(what + " needs a mesh: call box(...) or mesh(nodes, tets)");
        }
        if (Double.isNaN(youngs)) {
            throw new IllegalArgumentException(what + " needs its material: call material(E, nu, density)");
        }
        CorotationalTet.lame(youngs, poisson);
        int nn = mesh.nodeCount();
        int nt = mesh.tetCount();
        double[] rest = mesh.nodes();
        int[] tets = mesh.tets();
        // world positions of the nodes
        double[] world = new double[3 * nn];
        for (int v = 0; v < nn; v++) {
            RigidOps.rotate(pose, 3, rest[3 * v], rest[3 * v + 1], rest[3 * v + 2], world, 3 * v);
            for (int d = 0; d < 3; d++) {
                world[3 * v + d] += pose[d];
            }
        }
        // blocks: slabs of equal width along the longest axis of the (unturned) mesh, by centroid
        double[] lo = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
        double[] hi = {-Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE};
        for (int v = 0; v < nn; v++) {
            for (int d = 0; d < 3; d++) {
                lo[d] = Math.min(lo[d], rest[3 * v + d]);
                hi[d] = Math.max(hi[d], rest[3 * v + d]);
            }
        }
        int axis = 0;
        for (int d = 1; d < 3; d++) {
            if (hi[d] - lo[d] > hi[axis] - lo[axis]) {
                axis = d;
            }
        }
        int[] blockOfTet = new int[nt];
        int[] tetsInBlock = new int[blocks];
        for (int e = 0; e < nt; e++) {
            double c = 0;
            for (int k = 0; k < 4; k++) {
                c += rest[3 * tets[4 * e + k] + axis] / 4;
            }
            int b = (int) Math.floor(blocks * (c - lo[axis]) / (hi[axis] - lo[axis]));
            blockOfTet[e] = Math.max(0, Math.min(blocks - 1, b));
            tetsInBlock[blockOfTet[e]]++;
        }
        for (int b = 0; b < blocks; b++) {
            if (tetsInBlock[b] == 0) {
                throw new IllegalArgumentException(what + ": block " + b + " of " + blocks + " holds no tetrahedron (the mesh"
                        + " is too coarse along its longest axis); use fewer blocks");
            }
        }
        // surface nodes: on a face that only one tetrahedron has
        Map<Long, Integer> faces = new HashMap<>();
        int[][] faceOf = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
        for (int e = 0; e < nt; e++) {
            for (int[] f : faceOf) {
                faces.merge(faceKey(tets[4 * e + f[0]], tets[4 * e + f[1]], tets[4 * e + f[2]]), 1, Integer::sum);
            }
        }
        boolean[] surface = new boolean[nn];
        boolean[] used = new boolean[nn];
        // the boundary triangles, each turned so its normal points away from its tetrahedron's fourth node
        int[] triangles = new int[0];
        int triangleCount = 0;
        for (int e = 0; e < nt; e++) {
            for (int k = 0; k < 4; k++) {
                used[tets[4 * e + k]] = true;
            }
            for (int opposite = 0; opposite < 4; opposite++) {
                int[] f = faceOf[opposite];
                int a = tets[4 * e + f[0]];
                int b = tets[4 * e + f[1]];
                int c = tets[4 * e + f[2]];
                if (faces.get(faceKey(a, b, c)) != 1) {
                    continue;
                }
                surface[a] = true;
                surface[b] = true;
                surface[c] = true;
                if (outwardVolume(rest, a, b, c, tets[4 * e + opposite]) > 0) {
                    int t = b;
                    b = c;
                    c = t;
                }
                if (3 * triangleCount + 3 > triangles.length) {
                    triangles = java.util.Arrays.copyOf(triangles, Math.max(48, 2 * triangles.length));
                }
                int o = 3 * triangleCount++;
                triangles[o] = a;
                triangles[o + 1] = b;
                triangles[o + 2] = c;
            }
        }
        triangles = java.util.Arrays.copyOf(triangles, 3 * triangleCount);
        for (int v = 0; v < nn; v++) {
            if (!used[v]) {
                throw new IllegalArgumentException(what + ": node " + v + " belongs to no tetrahedron; remove it from the mesh");
            }
        }
        // per block: its nodes (local numbering in node order) and lumped masses
        int family = owner.families++;
        int d = owner.deformables.size();
        int[] nodeBody = new int[nn];
        java.util.Arrays.fill(nodeBody, -1);
        List<Deformables.Block> built = new ArrayList<>();
        long nextBody = 0;
        long nextJoint = 0;
        int[] local = new int[nn];
        for (int b = 0; b < blocks; b++) {
            java.util.Arrays.fill(local, -1);
            double[] lumped = new double[nn];
            int count = 0;
            for (int e = 0; e < nt; e++) {
                if (blockOfTet[e] != b) {
                    continue;
                }
                double m = density * mesh.volume(e) / 4;
                for (int k = 0; k < 4; k++) {
                    int v = tets[4 * e + k];
                    if (local[v] < 0) {
                        local[v] = count++;
                    }
                    lumped[v] += m;
                }
            }
            // local numbers in node order (deterministic)
            int next = 0;
            int[] bodies = new int[count];
            double[] restNodes = new double[3 * count];
            for (int v = 0; v < nn; v++) {
                if (local[v] < 0) {
                    continue;
                }
                local[v] = next++;
                boolean copy = nodeBody[v] >= 0;
                PhysicsModel.BodyBuilder body = owner.body(copy ? name + "/" + v + "@" + b : name + "/" + v)
                        .position(world[3 * v], world[3 * v + 1], world[3 * v + 2])
                        .mass(lumped[v], 0.4 * lumped[v] * nodeRadius * nodeRadius, 0.4 * lumped[v] * nodeRadius * nodeRadius,
                                0.4 * lumped[v] * nodeRadius * nodeRadius)
                        .friction(friction);
                if (surface[v]) {
                    body.sphere(nodeRadius);
                }
                body.family = family;
                if (firstBodyId >= 0) {
                    body.id(firstBodyId + nextBody++);
                }
                int index = body.add();
                bodies[local[v]] = index;
                System.arraycopy(world, 3 * v, restNodes, 3 * local[v], 3);
                if (copy) {
                    PhysicsModel.JointBuilder tie = owner.ballJoint(index, nodeBody[v], world[3 * v], world[3 * v + 1], world[3 * v + 2]);
                    if (firstJointId >= 0) {
                        tie.id(firstJointId + nextJoint++);
                    }
                    tie.add();
                } else {
                    nodeBody[v] = index;
                }
            }
            int[] localTets = new int[4 * tetsInBlock[b]];
            int t = 0;
            for (int e = 0; e < nt; e++) {
                if (blockOfTet[e] == b) {
                    for (int k = 0; k < 4; k++) {
                        localTets[4 * t + k] = local[tets[4 * e + k]];
                    }
                    t++;
                }
            }
            built.add(new Deformables.Block(d, bodies, restNodes, localTets));
        }
        owner.deformables.add(new Deformables.Spec(name, built, youngs, poisson, density, alpha, betaR, nodeBody, triangles));
        return d;
    }

    /** (b - a) x (c - a) . (d - a) on the rest nodes: positive when d lies on the side the triangle's normal points to */
    private static double outwardVolume(double[] x, int a, int b, int c, int d) {
        double ux = x[3 * b] - x[3 * a], uy = x[3 * b + 1] - x[3 * a + 1], uz = x[3 * b + 2] - x[3 * a + 2];
        double vx = x[3 * c] - x[3 * a], vy = x[3 * c + 1] - x[3 * a + 1], vz = x[3 * c + 2] - x[3 * a + 2];
        double wx = x[3 * d] - x[3 * a], wy = x[3 * d + 1] - x[3 * a + 1], wz = x[3 * d + 2] - x[3 * a + 2];
        return (uy * vz - uz * vy) * wx + (uz * vx - ux * vz) * wy + (ux * vy - uy * vx) * wz;
    }

    private static long faceKey(int a, int b, int c) {
        int x = Math.min(a, Math.min(b, c));
        int z = Math.max(a, Math.max(b, c));
        int y = a + b + c - x - z;
        return ((long) x << 42) | ((long) y << 21) | z;
    }
}
