package io.tandem.physics.internal.collision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tandem.physics.internal.geometry.ConvexHull;
import io.tandem.physics.internal.geometry.Meshes;
import io.tandem.physics.internal.geometry.Poses;
import io.tandem.physics.internal.geometry.Shape;
import io.tandem.physics.internal.geometry.ShapeType;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Randomized checks of every shape pair against exact signed distances. Seed overridable with
 * -Dtandem.test.seed=N.
 */
class NarrowPhasePropertyTest {
    private static final long SEED = Long.getLong("tandem.test.seed", 20240611L);
    private static final int TRIALS = 300;
    private static final int SAMPLES = 150;

    private final NarrowPhase np = new NarrowPhase();
    private final ContactManifold m = new ContactManifold();
    private final ContactManifold swapped = new ContactManifold();

    private static Shape randomShape(ShapeType t, Random rnd) {
        return switch (t) {
            case SPHERE -> Shape.sphere(dim(rnd));
            case BOX -> Shape.box(dim(rnd), dim(rnd), dim(rnd));
            case CAPSULE -> Shape.capsule(dim(rnd), dim(rnd));
            case CYLINDER -> Shape.cylinder(dim(rnd), dim(rnd));
            case CONVEX -> randomConvex(rnd);
            case PLANE -> Shape.plane();
        };
    }

    /**
     * A convex hull off its shape origin by up to half its size: a jittered icosahedron or
     * 42-vertex icosphere stretched along the axes, a jittered box, or the hull of 6 to 40 points in
     * a ball.
     */
    private static Shape randomConvex(Random rnd) {
        double sx = dim(rnd);
        double sy = dim(rnd);
        double sz = dim(rnd);
        double[] xyz = switch (rnd.nextInt(3)) {
            case 0 -> Meshes.icosphere(1, rnd.nextInt(2));
            case 1 -> Meshes.boxCorners(1, 1, 1);
            default -> Meshes.ball(6 + rnd.nextInt(35), 1, 0, 0, 0, rnd);
        };
        double h = 0.5 * Math.min(sx, Math.min(sy, sz));
        double ox = h * (2 * rnd.nextDouble() - 1);
        double oy = h * (2 * rnd.nextDouble() - 1);
        double oz = h * (2 * rnd.nextDouble() - 1);
        for (int k = 0; k < xyz.length / 3; k++) {
            double j = 1 + 0.2 * (rnd.nextDouble() - 0.5);
            xyz[3 * k] = ox + sx * j * xyz[3 * k];
            xyz[3 * k + 1] = oy + sy * j * xyz[3 * k + 1];
            xyz[3 * k + 2] = oz + sz * j * xyz[3 * k + 2];
        }
        return Shape.convex(xyz);
    }

    /**
     * 1 / sin(theta / 2) for the sharpest corner theta of a convex hull's faces: clipping pushes
     * the reference face's side planes out by a slop, so a clip point at a corner lies up to
     * slop / sin(theta / 2) outside the face (sqrt 2 for a box); 1 for other shapes.
     */
    private static double cornerFactor(Shape s) {
        if (s.type() != ShapeType.CONVEX) {
            return 1;
        }
        ConvexHull h = s.hull;
        double worst = 1;
        for (int f = 0; f < h.faceCount; f++) {
            int start = h.faceStart[f];
            int m = h.faceStart[f + 1] - start;
            for (int k = 0; k < m; k++) {
                int a = h.faceVertices[start + (k + m - 1) % m];
                int b = h.faceVertices[start + k];
                int c = h.faceVertices[start + (k + 1) % m];
                double ux = h.vertices[3 * a] - h.vertices[3 * b];
                double uy = h.vertices[3 * a + 1] - h.vertices[3 * b + 1];
                double uz = h.vertices[3 * a + 2] - h.vertices[3 * b + 2];
                double vx = h.vertices[3 * c] - h.vertices[3 * b];
                double vy = h.vertices[3 * c + 1] - h.vertices[3 * b + 1];
                double vz = h.vertices[3 * c + 2] - h.vertices[3 * b + 2];
                double cos = (ux * vx + uy * vy + uz * vz)
                        / Math.sqrt((ux * ux + uy * uy + uz * uz) * (vx * vx + vy * vy + vz * vz));
                worst = Math.max(worst, 1 / Math.sin(0.5 * Math.acos(Math.max(-1, Math.min(1, cos)))));
            }
        }
        return worst;
    }

    private static double dim(Random rnd) {
        return 0.05 + 0.45 * rnd.nextDouble();
    }

    /** Tolerance of a shape's surface as the narrow phase sees it: prism error, clip slop for polytopes. */
    private static double surfaceTolerance(Shape s, Shape other) {
        double tol = 1e-7;
        boolean polytopePair = s.hull != null && other.hull != null;
        if (polytopePair) {
            tol += 2e-3 * Math.max(s.boundingRadius(), other.boundingRadius())
                    * Math.max(cornerFactor(s), cornerFactor(other)) / Math.sqrt(2);
        }
        if (s.type() == ShapeType.CYLINDER && polytopePair) {
            tol += s.radius() * (1 - Math.cos(Math.PI / Shape.CYLINDER_PRISM_SIDES));
        }
        return tol;
    }

    /**
     * Whether a point of this depth must lie midway between the surfaces. Exact pairs: always.
     * Polytope pairs (box, cylinder prism, convex hull): margin contacts use the SAT lower bound, and deep
     * penetrations (here more than 5 % of the smaller shape) may leave no clipped point and fall back
     * to the deepest incident vertex, so only shallow penetrations are checked; capsule against a
     * polytope: up to 10 % of the smaller shape beyond the capsule radius.
     */
    private static boolean pointsExpectedOnSurfaces(Shape a, Shape b, double depth) {
        boolean hullA = a.type() == ShapeType.BOX || a.type() == ShapeType.CYLINDER || a.type() == ShapeType.CONVEX;
        boolean hullB = b.type() == ShapeType.BOX || b.type() == ShapeType.CYLINDER || b.type() == ShapeType.CONVEX;
        double small = Math.min(a.boundingRadius(), b.boundingRadius());
        if (hullA && hullB) {
            return depth >= 0 && depth <= 0.05 * small;
        }
        if ((hullA && b.type() == ShapeType.CAPSULE) || (hullB && a.type() == ShapeType.CAPSULE)) {
            return depth <= (hullA ? b.radius() : a.radius()) + 0.1 * small;
        }
        return true;
    }

    /**
     * How far inside its shape a capsule's point may lie: multi-point capsule manifolds use one
     * normal for every point, so a point of a capsule tilted against that normal is the deepest
     * point of the ball around its segment point, inside the capsule (up to r).
     */
    private static double inset(Shape s, Shape other) {
        return s.type() == ShapeType.CAPSULE && other.type() != ShapeType.SPHERE ? s.radius() : 0;
    }

    private void randomPoses(Shape a, Shape b, Poses p, Random rnd) {
        p.at(0, 0, 0, 0).randomOrientation(0, rnd).at(1, 0, 0, 0).randomOrientation(1, rnd);
        p.randomOrientation(0, rnd);
        double ra = a.type() == ShapeType.PLANE ? 0 : a.boundingRadius();
        double rb = b.type() == ShapeType.PLANE ? 0 : b.boundingRadius();
        double dist = (ra + rb) * 1.1 * rnd.nextDouble();
        double ux = rnd.nextGaussian();
        double uy = rnd.nextGaussian();
        double uz = rnd.nextGaussian();
        double ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
        p.translate(1, ux / ul * dist, uy / ul * dist, uz / ul * dist);
    }

    @Test
    void collide_everyPairRandomPoses_pointsLieOnBothSurfacesAndOverlapsAreFound() {
        Random primitives = new Random(SEED);
        // convex pairs draw from their own stream, so the primitive pairs see the same poses as before
        Random convex = new Random(SEED + 1);
        Poses p = new Poses(2);
        Poses q = new Poses(2);
        for (ShapeType ta : ShapeType.values()) {
            for (ShapeType tb : ShapeType.values()) {
                if (ta == ShapeType.PLANE && tb == ShapeType.PLANE) {
                    continue;
                }
                Random rnd = ta == ShapeType.CONVEX || tb == ShapeType.CONVEX ? convex : primitives;
                int contacts = 0;
                for (int trial = 0; trial < TRIALS; trial++) {
                    Shape a = randomShape(ta, rnd);
                    Shape b = randomShape(tb, rnd);
                    randomPoses(a, b, p, rnd);
                    String what = ta + "-" + tb + " trial " + trial + " seed " + SEED;
                    double margin = 0.02;
                    int n = np.collide(a, p.pos, p.quat, 0, b, 1, margin, m);
                    assertThat(n).as(what).isBetween(0, 4);
                    double tolA = surfaceTolerance(a, b);
                    double tolB = surfaceTolerance(b, a);
                    if (n > 0) {
                        contacts++;
                        double nl = Math.sqrt(
                                m.normal[0] * m.normal[0] + m.normal[1] * m.normal[1] + m.normal[2] * m.normal[2]);
                        assertThat(nl).as(what).isCloseTo(1, within(1e-9));
                        for (int k = 0; k < n; k++) {
                            double d = m.depth[k];
                            assertThat(d).as(what).isGreaterThanOrEqualTo(-margin - 1e-9);
                            if (!pointsExpectedOnSurfaces(a, b, d)) {
                                continue;
                            }
                            boolean twoPointCapsules = (m.feature[k] & 0x100) != 0
                                    && ta == ShapeType.CAPSULE && tb == ShapeType.CAPSULE;
                            double approx = twoPointCapsules ? 5e-3 : 0;
                            double h = 0.5 * d;
                            // A's surface point at p + n d/2, B's at p - n d/2
                            double sa = SignedDistance.of(a, p.pos, p.quat, 0, m.point[3 * k] + m.normal[0] * h,
                                    m.point[3 * k + 1] + m.normal[1] * h, m.point[3 * k + 2] + m.normal[2] * h);
                            double sb = SignedDistance.of(b, p.pos, p.quat, 1, m.point[3 * k] - m.normal[0] * h,
                                    m.point[3 * k + 1] - m.normal[1] * h, m.point[3 * k + 2] - m.normal[2] * h);
                            assertThat(sa).as("%s: A surface, point %d of %s", what, k, m)
                                    .isBetween(-tolA - 1e-9 - inset(a, b) - approx, tolA + 1e-9 + approx);
                            assertThat(sb).as("%s: B surface, point %d of %s", what, k, m)
                                    .isBetween(-tolB - 1e-9 - inset(b, a) - approx, tolB + 1e-9 + approx);
                        }
                        if (ta != tb) {
                            // swapped order: same points, negated normal
                            q.at(0, 0, 0, 0).at(1, 0, 0, 0);
                            System.arraycopy(p.pos, 3, q.pos, 0, 3);
                            System.arraycopy(p.quat, 4, q.quat, 0, 4);
                            System.arraycopy(p.pos, 0, q.pos, 3, 3);
                            System.arraycopy(p.quat, 0, q.quat, 4, 4);
                            assertThat(np.collide(b, q.pos, q.quat, 0, a, 1, margin, swapped)).as(what).isEqualTo(n);
                            for (int c = 0; c < 3; c++) {
                                assertThat(swapped.normal[c]).as(what).isEqualTo(-m.normal[c]);
                            }
                            assertThat(java.util.Arrays.copyOf(swapped.depth, n)).as(what)
                                    .containsExactly(java.util.Arrays.copyOf(m.depth, n));
                        }
                    }
                    // overlap found whenever sampled points of A lie inside B
                    double deepest = deepestSample(a, b, p, rnd);
                    double slack = tolA + tolB + 1e-6;
                    if (deepest > slack) {
                        assertThat(n).as("%s: missed overlap of %s", what, deepest).isPositive();
                        assertThat(m.maxDepth()).as("%s: depth below sampled penetration %s, %s", what, deepest, m)
                                .isGreaterThanOrEqualTo(deepest - slack);
                    }
                }
                assertThat(contacts).as(ta + "-" + tb + " produced contacts").isGreaterThan(TRIALS / 10);
            }
        }
    }

    /** max over sampled points x of A (surface of a bounded A, or a patch of a plane) of -sdf_B(x). */
    private static double deepestSample(Shape a, Shape b, Poses p, Random rnd) {
        double best = Double.NEGATIVE_INFINITY;
        double ra = a.type() == ShapeType.PLANE ? 2 * b.boundingRadius() : a.boundingRadius();
        double cx = p.pos[0];
        double cy = p.pos[1];
        double cz = p.pos[2];
        if (a.type() == ShapeType.PLANE) {
            // A is a half-space: sample points of B and measure how far below the plane they are
            for (int s = 0; s < SAMPLES; s++) {
                double x = p.pos[3] + (2 * rnd.nextDouble() - 1) * b.boundingRadius();
                double y = p.pos[4] + (2 * rnd.nextDouble() - 1) * b.boundingRadius();
                double z = p.pos[5] + (2 * rnd.nextDouble() - 1) * b.boundingRadius();
                if (SignedDistance.of(b, p.pos, p.quat, 1, x, y, z) <= 0) {
                    best = Math.max(best, -SignedDistance.of(a, p.pos, p.quat, 0, x, y, z));
                }
            }
            return best;
        }
        for (int s = 0; s < SAMPLES; s++) {
            double x = cx + (2 * rnd.nextDouble() - 1) * ra;
            double y = cy + (2 * rnd.nextDouble() - 1) * ra;
            double z = cz + (2 * rnd.nextDouble() - 1) * ra;
            if (SignedDistance.of(a, p.pos, p.quat, 0, x, y, z) <= 0) {
                best = Math.max(best, -SignedDistance.of(b, p.pos, p.quat, 1, x, y, z));
            }
        }
        return best;
    }

    @Test
    void collide_everyPairWithNonFinitePose_noContactNoException() {
        Random rnd = new Random(SEED);
        Random convex = new Random(SEED + 1);
        Poses p = new Poses(2);
        double[] bad = {Double.NaN, Double.POSITIVE_INFINITY};
        for (ShapeType ta : ShapeType.values()) {
            for (ShapeType tb : ShapeType.values()) {
                for (double v : bad) {
                    for (int slot = 0; slot < 7; slot++) {
                        Random r = ta == ShapeType.CONVEX || tb == ShapeType.CONVEX ? convex : rnd;
                        Shape a = randomShape(ta, r);
                        Shape b = randomShape(tb, r);
                        p.at(0, 0, 0, 0).at(1, 0.01, 0.02, 0.03);
                        if (slot < 3) {
                            p.pos[3 + slot] = v;
                        } else {
                            p.quat[4 + slot - 3] = v;
                        }
                        int n = np.collide(a, p.pos, p.quat, 0, b, 1, 0.01, m);
                        if (tb != ShapeType.SPHERE || slot < 3) {
                            // (a sphere ignores its orientation)
                            assertThat(n).as("%s-%s %s slot %d", ta, tb, v, slot).isZero();
                        }
                    }
                }
            }
        }
    }
}
