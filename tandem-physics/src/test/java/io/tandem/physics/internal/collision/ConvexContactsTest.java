package io.tandem.physics.internal.collision;

import static io.tandem.physics.internal.collision.ContactAssertions.EPS;
import static io.tandem.physics.internal.collision.ContactAssertions.assertNormal;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tandem.physics.internal.geometry.Meshes;
import io.tandem.physics.internal.geometry.Poses;
import io.tandem.physics.internal.geometry.Shape;
import io.tandem.physics.internal.geometry.ShapeType;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Convex hulls in the narrow phase. Differential: a convex cube made from points gives the same
 * contacts (count, normal, points, depths within 1e-9) as the BOX shape against a plane, a sphere,
 * a box and a capsule, in random and hand-picked poses, also when its points sit off the shape
 * origin. Seed overridable with -Dtandem.test.seed=N.
 */
class ConvexContactsTest {
    private static final long SEED = Long.getLong("tandem.test.seed", 20240611L);
    private static final double HX = 0.3;
    private static final double HY = 0.2;
    private static final double HZ = 0.15;
    /** where the off-centre cube's points sit in its shape frame */
    private static final double[] OFFSET = {0.4, -0.25, 0.1};

    private final NarrowPhase np = new NarrowPhase();
    private final ContactManifold expected = new ContactManifold();
    private final ContactManifold actual = new ContactManifold();
    private final Shape box = Shape.box(HX, HY, HZ);
    /** the box's corners, face centres and some interior points: a cube as a mesh file gives it */
    private final Shape cube = Shape.convex(Meshes.concat(Meshes.boxCorners(HX, HY, HZ),
            new double[] {HX, 0, 0, -HX, 0, 0, 0, HY, 0, 0, -HY, 0, 0, 0, HZ, 0, 0, -HZ, 0.1, 0.05, 0, 0, 0, 0}));
    private final Shape offCube = Shape.convex(
            Meshes.shifted(Meshes.boxCorners(HX, HY, HZ), OFFSET[0], OFFSET[1], OFFSET[2]));

    /** Same count, normal, depths and (as sets) points. */
    private static void assertSameContacts(ContactManifold e, ContactManifold a, String what) {
        assertThat(a.count).as("%s: count, expected %s, actual %s", what, e, a).isEqualTo(e.count);
        if (e.count == 0) {
            return;
        }
        assertNormal(a, e.normal[0], e.normal[1], e.normal[2], EPS);
        boolean[] used = new boolean[a.count];
        for (int k = 0; k < e.count; k++) {
            int best = -1;
            double bd = Double.POSITIVE_INFINITY;
            for (int j = 0; j < a.count; j++) {
                double dx = a.point[3 * j] - e.point[3 * k];
                double dy = a.point[3 * j + 1] - e.point[3 * k + 1];
                double dz = a.point[3 * j + 2] - e.point[3 * k + 2];
                double d = dx * dx + dy * dy + dz * dz;
                if (!used[j] && d < bd) {
                    bd = d;
                    best = j;
                }
            }
            used[best] = true;
            assertThat(Math.sqrt(bd)).as("%s: point %d, expected %s, actual %s", what, k, e, a).isLessThan(EPS);
            assertThat(a.depth[best]).as("%s: depth %d, expected %s, actual %s", what, k, e, a)
                    .isCloseTo(e.depth[k], within(EPS));
        }
    }

    /** Support (largest u . x - u . centre) of a centred sphere, box or capsule at pose i along world direction u. */
    private static double support(Shape s, Poses p, int i, double ux, double uy, double uz) {
        double[] r = new double[9];
        GeomOps.quatToMatrix(p.quat, i, r, 0);
        // u in the shape frame
        double lx = r[0] * ux + r[3] * uy + r[6] * uz;
        double ly = r[1] * ux + r[4] * uy + r[7] * uz;
        double lz = r[2] * ux + r[5] * uy + r[8] * uz;
        return switch (s.type()) {
            case SPHERE -> s.radius();
            case BOX -> Math.abs(lx) * s.halfExtentX() + Math.abs(ly) * s.halfExtentY()
                    + Math.abs(lz) * s.halfExtentZ();
            case CAPSULE -> Math.abs(lz) * s.halfLength() + s.radius();
            case CYLINDER, CONVEX, PLANE -> throw new IllegalArgumentException("not used here: " + s);
        };
    }

    /**
     * Pose 0 (the cube) and pose 1 (the partner) at random orientations, the partner along a random
     * direction at the distance where their supports along it touch, plus a gap in [-5 cm, 2 cm); a
     * plane partner at the origin, the cube above it by its support along the normal plus the gap.
     */
    private static void randomPoses(Poses p, Shape partner, Random rnd) {
        p.at(0, 0.1 * rnd.nextGaussian(), 0.1 * rnd.nextGaussian(), 0.1 * rnd.nextGaussian()).randomOrientation(0, rnd);
        p.at(1, 0, 0, 0).randomOrientation(1, rnd);
        double gap = -0.05 + 0.07 * rnd.nextDouble();
        Shape cube = Shape.box(HX, HY, HZ);
        if (partner.type() == ShapeType.PLANE) {
            double[] r = new double[9];
            GeomOps.quatToMatrix(p.quat, 1, r, 0);
            double d = support(cube, p, 0, -r[2], -r[5], -r[8]) + gap;
            p.pos[0] = r[2] * d;
            p.pos[1] = r[5] * d;
            p.pos[2] = r[8] * d;
            return;
        }
        double ux = rnd.nextGaussian();
        double uy = rnd.nextGaussian();
        double uz = rnd.nextGaussian();
        double ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
        ux /= ul;
        uy /= ul;
        uz /= ul;
        double d = support(cube, p, 0, ux, uy, uz) + support(partner, p, 1, -ux, -uy, -uz) + gap;
        p.translate(1, p.pos[0] + ux * d, p.pos[1] + uy * d, p.pos[2] + uz * d);
    }

    /** Poses q: as p, but pose 0 moved so that the off-centre cube's points land where the box's corners are. */
    private static void offCentre(Poses p, Poses q) {
        System.arraycopy(p.pos, 0, q.pos, 0, p.pos.length);
        System.arraycopy(p.quat, 0, q.quat, 0, p.quat.length);
        double[] r = new double[9];
        GeomOps.quatToMatrix(p.quat, 0, r, 0);
        for (int k = 0; k < 3; k++) {
            q.pos[k] -= r[3 * k] * OFFSET[0] + r[3 * k + 1] * OFFSET[1] + r[3 * k + 2] * OFFSET[2];
        }
    }

    private int differential(Shape partner, int poses, boolean partnerFirst) {
        Random rnd = new Random(SEED + partner.type().ordinal());
        Poses p = new Poses(2);
        Poses q = new Poses(2);
        int touching = 0;
        for (int t = 0; t < poses; t++) {
            randomPoses(p, partner, rnd);
            offCentre(p, q);
            String what = partner + " pose " + t + " seed " + SEED + (partnerFirst ? " (partner first)" : "");
            double margin = 0.01;
            if (partnerFirst) {
                np.collide(partner, p.pos, p.quat, 1, box, 0, margin, expected);
                np.collide(partner, p.pos, p.quat, 1, cube, 0, margin, actual);
                assertSameContacts(expected, actual, what);
                np.collide(partner, q.pos, q.quat, 1, offCube, 0, margin, actual);
                assertSameContacts(expected, actual, what + " off-centre");
            } else {
                np.collide(box, p.pos, p.quat, 0, partner, 1, margin, expected);
                np.collide(cube, p.pos, p.quat, 0, partner, 1, margin, actual);
                assertSameContacts(expected, actual, what);
                np.collide(offCube, q.pos, q.quat, 0, partner, 1, margin, actual);
                assertSameContacts(expected, actual, what + " off-centre");
            }
            if (expected.count > 0) {
                touching++;
            }
        }
        return touching;
    }

    @Test
    void collide_convexCubeAgainstPlane_sameContactsAsTheBox() {
        assertThat(differential(Shape.plane(), 300, false)).isGreaterThan(100);
        assertThat(differential(Shape.plane(), 300, true)).isGreaterThan(100);
    }

    @Test
    void collide_convexCubeAgainstSphere_sameContactsAsTheBox() {
        // also deep: centres inside the box
        assertThat(differential(Shape.sphere(0.12), 500, false)).isGreaterThan(100);
        assertThat(differential(Shape.sphere(0.4), 500, true)).isGreaterThan(100);
    }

    @Test
    void collide_convexCubeAgainstBox_sameContactsAsTheBox() {
        // partner first: side A of the canonical pair is the partner box for both, as the SAT's
        // tie-break between equally good faces favours side A
        assertThat(differential(Shape.box(0.25, 0.35, 0.1), 1000, true)).isGreaterThan(100);
    }

    @Test
    void collide_convexCubeAgainstCapsule_sameContactsAsTheBox() {
        assertThat(differential(Shape.capsule(0.08, 0.25), 500, false)).isGreaterThan(60);
        assertThat(differential(Shape.capsule(0.2, 0.1), 500, true)).isGreaterThan(60);
    }

    @Test
    void collide_handPickedPoses_sameContactsAsTheBox() {
        Poses p = new Poses(2);
        Poses q = new Poses(2);
        Shape other = Shape.box(0.5, 0.5, 0.1);
        Shape capsule = Shape.capsule(0.05, 0.2);
        // resting flat on a plane, resting flat on a box, tilted onto an edge on the box
        double[][] poses = {
            {0, 0, HZ - 0.002, 1, 0, 0, 0},
            {0.05, 0.02, 0.1 + HZ - 0.003, 1, 0, 0, 0},
            {0, 0, 0.1 + HZ * Math.cos(0.3) + HY * Math.sin(0.3) - 0.004, Math.cos(0.15), Math.sin(0.15), 0, 0},
        };
        Shape[] partners = {Shape.plane(), other, other};
        int[] counts = {4, 4, 2};
        for (int k = 0; k < poses.length; k++) {
            double[] pose = poses[k];
            Shape partner = partners[k];
            p.at(0, pose[0], pose[1], pose[2]).at(1, 0, 0, 0);
            System.arraycopy(pose, 3, p.quat, 0, 4);
            offCentre(p, q);
            // partner first, so that the box pairs have the same side A (see above)
            np.collide(partner, p.pos, p.quat, 1, box, 0, 0.01, expected);
            np.collide(partner, p.pos, p.quat, 1, cube, 0, 0.01, actual);
            assertThat(expected.count).isEqualTo(counts[k]);
            assertSameContacts(expected, actual, partner + " at " + java.util.Arrays.toString(pose));
            np.collide(partner, q.pos, q.quat, 1, offCube, 0, 0.01, actual);
            assertSameContacts(expected, actual, partner + " off-centre at " + java.util.Arrays.toString(pose));
        }
        // a capsule lying across the top face: two points
        p.at(0, 0, 0, 0).at(1, 0.02, 0.01, HZ + 0.05 - 0.003, 0, 1, 0, Math.PI / 2);
        offCentre(p, q);
        np.collide(box, p.pos, p.quat, 0, capsule, 1, 0.01, expected);
        np.collide(cube, p.pos, p.quat, 0, capsule, 1, 0.01, actual);
        assertThat(expected.count).isEqualTo(2);
        assertSameContacts(expected, actual, "capsule lying on top");
        np.collide(offCube, q.pos, q.quat, 0, capsule, 1, 0.01, actual);
        assertSameContacts(expected, actual, "capsule lying on top, off-centre");
    }

    @Test
    void collide_convexCubeAgainstConvexCube_sameContactsAsTwoBoxes() {
        Random rnd = new Random(SEED);
        Poses p = new Poses(2);
        Shape other = Shape.box(0.25, 0.35, 0.1);
        Shape otherCube = Shape.convex(Meshes.boxCorners(0.25, 0.35, 0.1));
        int touching = 0;
        for (int t = 0; t < 1000; t++) {
            randomPoses(p, other, rnd);
            np.collide(other, p.pos, p.quat, 1, box, 0, 0.01, expected);
            np.collide(otherCube, p.pos, p.quat, 1, cube, 0, 0.01, actual);
            assertSameContacts(expected, actual, "pose " + t + " seed " + SEED);
            touching += expected.count > 0 ? 1 : 0;
        }
        assertThat(touching).isGreaterThan(100);
    }


    @Test
    void collide_largeHullsInRandomPoses_featureIdsNonNegativeAndDistinctPerManifold() {
        // 44-vertex hulls (126 edges, the packing's upper range) against each other, a box and a capsule
        Random rnd = new Random(SEED);
        Shape ico = Shape.convex(Meshes.icosphere(0.2, 3));
        Shape rock = Shape.convex(Meshes.ball(400, 0.25, 0.05, 0, -0.03, rnd));
        Shape[] partners = {rock, Shape.box(0.2, 0.1, 0.15), Shape.capsule(0.05, 0.2), Shape.cylinder(0.15, 0.1)};
        Poses p = new Poses(2);
        int touching = 0;
        for (int t = 0; t < 400; t++) {
            Shape partner = partners[t % partners.length];
            p.at(0, 0, 0, 0).randomOrientation(0, rnd).at(1, 0.3 * rnd.nextGaussian(), 0.3 * rnd.nextGaussian(),
                    0.3 * rnd.nextGaussian()).randomOrientation(1, rnd);
            int n = np.collide(ico, p.pos, p.quat, 0, partner, 1, 0.01, actual);
            touching += n > 0 ? 1 : 0;
            for (int k = 0; k < n; k++) {
                assertThat(actual.feature[k]).as("pose %d: %s", t, actual).isNotNegative();
                for (int j = 0; j < k; j++) {
                    assertThat(actual.feature[k]).as("pose %d: %s", t, actual).isNotEqualTo(actual.feature[j]);
                }
            }
        }
        assertThat(touching).isGreaterThan(100);
    }

    @Test
    void collide_sphereCentreDeepInsideTheHull_pushedOutThroughTheNearestFace() {
        Poses p = new Poses(2).at(0, 0, 0, 0).at(1, 0.05, 0.01, HZ - 0.02);
        assertThat(np.collide(cube, p.pos, p.quat, 0, Shape.sphere(0.05), 1, 0.01, actual)).isEqualTo(1);
        assertNormal(actual, 0, 0, 1, EPS);
        assertThat(actual.depth[0]).isCloseTo(0.07, within(EPS));
    }

    @Test
    void collide_cylinderStandingOnConvexCube_capContactsAlongTheFaceNormal() {
        Poses p = new Poses(2).at(0, 0, 0, 0).at(1, 0.02, -0.03, HZ + 0.1 - 0.002);
        int n = np.collide(cube, p.pos, p.quat, 0, Shape.cylinder(0.1, 0.1), 1, 0.01, actual);
        assertThat(n).isEqualTo(4);
        assertNormal(actual, 0, 0, 1, EPS);
        for (int k = 0; k < n; k++) {
            assertThat(actual.depth[k]).isCloseTo(0.002, within(EPS));
        }
    }

    @Test
    void collide_convexIcosphereOnPlane_deepestVertexFirstAndAtMostFour() {
        Shape ball = Shape.convex(Meshes.icosphere(0.2, 3));
        Poses p = new Poses(2).at(0, 0, 0, 0.19).randomOrientation(0, new Random(SEED)).at(1, 0, 0, 0);
        int n = np.collide(ball, p.pos, p.quat, 0, Shape.plane(), 1, 0.05, actual);
        assertThat(n).isEqualTo(4);
        assertNormal(actual, 0, 0, -1, EPS);
        double deepest = 0;
        for (int k = 0; k < n; k++) {
            deepest = Math.max(deepest, actual.depth[k]);
        }
        // the hull is inscribed in the sphere: its lowest vertex at most 1 cm down
        assertThat(deepest).isBetween(0.0, 0.01 + 1e-12);
    }
}
