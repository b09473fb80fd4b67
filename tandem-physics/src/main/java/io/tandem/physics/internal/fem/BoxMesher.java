package io.tandem.physics.internal.fem;

/**
 * A box split into an nx x ny x nz grid of cubes (cuboids), each cut into tetrahedra
 * (physics-wave2.md section 6.4): six by the Kuhn split, the same in every cell, which conforms; or
 * five (four corners and a centre tetrahedron), mirrored in alternate cells by the parity of
 * i + j + k so neighbouring faces match. Corners of a cell are numbered {@code v = x + 2y + 4z}.
 * Static; allocates the mesh.
 */
public final class BoxMesher {
    private static final int[][] SIX = {{0, 1, 3, 7}, {0, 1, 7, 5}, {0, 2, 7, 3}, {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 7, 6}};
    private static final int[][] FIVE_EVEN = {{0, 1, 2, 4}, {3, 2, 1, 7}, {5, 4, 7, 1}, {6, 7, 4, 2}, {1, 2, 4, 7}};
    private static final int[][] FIVE_ODD = {{1, 0, 5, 3}, {2, 3, 6, 0}, {4, 5, 0, 6}, {7, 6, 3, 5}, {0, 3, 6, 5}};

    private BoxMesher() {
    }

    /**
     * @param sizeX   the box's side lengths, m, centred on the origin
     * @param nx      cells along x (at least 1)
     * @param sixTets true for the six-tetrahedron Kuhn split, false for five per cell
     * @return the mesh: (nx+1)(ny+1)(nz+1) nodes, 6 (or 5) nx ny nz tetrahedra, every one of positive volume
     * @throws IllegalArgumentException for a size <= 0 or a count < 1
     */
    public static TetMesh box(double sizeX, double sizeY, double sizeZ, int nx, int ny, int nz, boolean sixTets) {
        if (!(sizeX > 0 && sizeY > 0 && sizeZ > 0) || nx < 1 || ny < 1 || nz < 1) {
            throw new IllegalArgumentException("a meshed box needs sizes > 0 m and at least one cell per axis, got "
                    + sizeX + " x " + sizeY + " x " + sizeZ + " m in " + nx + " x " + ny + " x " + nz + " cells");
        }
        double[] nodes = new double[3 * (nx + 1) * (ny + 1) * (nz + 1)];
        for (int k = 0; k <= nz; k++) {
            for (int j = 0; j <= ny; j++) {
                for (int i = 0; i <= nx; i++) {
                    int n = node(i, j, k, nx, ny);
                    nodes[3 * n] = -sizeX / 2 + sizeX * i / nx;
                    nodes[3 * n + 1] = -sizeY / 2 + sizeY * j / ny;
                    nodes[3 * n + 2] = -sizeZ / 2 + sizeZ * k / nz;
                }
            }
        }
        int per = sixTets ? 6 : 5;
        int[] tets = new int[4 * per * nx * ny * nz];
        int t = 0;
        int[] corner = new int[8];
        for (int k = 0; k < nz; k++) {
            for (int j = 0; j < ny; j++) {
                for (int i = 0; i < nx; i++) {
                    for (int v = 0; v < 8; v++) {
                        corner[v] = node(i + (v & 1), j + (v >> 1 & 1), k + (v >> 2 & 1), nx, ny);
                    }
                    int[][] split = sixTets ? SIX : (i + j + k) % 2 == 0 ? FIVE_EVEN : FIVE_ODD;
                    for (int[] tet : split) {
                        for (int c = 0; c < 4; c++) {
                            tets[t++] = corner[tet[c]];
                        }
                    }
                }
            }
        }
        // the splits above are listed with either orientation: make every volume positive
        for (int e = 0; e < tets.length / 4; e++) {
            if (TetMesh.det(nodes, tets, e) < 0) {
                int s = tets[4 * e + 2];
                tets[4 * e + 2] = tets[4 * e + 3];
                tets[4 * e + 3] = s;
            }
        }
        return new TetMesh(nodes, tets);
    }

    private static int node(int i, int j, int k, int nx, int ny) {
        return i + (nx + 1) * (j + (ny + 1) * k);
    }
}
