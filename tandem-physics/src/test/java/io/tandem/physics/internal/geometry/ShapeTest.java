package io.tandem.physics.internal.geometry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ShapeTest {

    @Test
    void factories_validDimensions_keepTypeAndDimensions() {
        Shape s = Shape.sphere(0.1);
        Shape b = Shape.box(0.1, 0.2, 0.3);
        Shape c = Shape.capsule(0.05, 0.2);
        Shape y = Shape.cylinder(0.3, 0.1);
        assertThat(s.type()).isEqualTo(ShapeType.SPHERE);
        assertThat(s.radius()).isEqualTo(0.1);
        assertThat(b.type()).isEqualTo(ShapeType.BOX);
        assertThat(new double[] {b.halfExtentX(), b.halfExtentY(), b.halfExtentZ()}).containsExactly(0.1, 0.2, 0.3);
        assertThat(c.type()).isEqualTo(ShapeType.CAPSULE);
        assertThat(c.radius()).isEqualTo(0.05);
        assertThat(c.halfLength()).isEqualTo(0.2);
        assertThat(y.type()).isEqualTo(ShapeType.CYLINDER);
        assertThat(y.radius()).isEqualTo(0.3);
        assertThat(y.halfLength()).isEqualTo(0.1);
        assertThat(Shape.plane().type()).isEqualTo(ShapeType.PLANE);
    }

    @Test
    void boundingRadius_eachShape_enclosesTheShape() {
        assertThat(Shape.sphere(0.1).boundingRadius()).isEqualTo(0.1);
        assertThat(Shape.box(1, 2, 2).boundingRadius()).isEqualTo(3.0);
        assertThat(Shape.capsule(0.1, 0.5).boundingRadius()).isEqualTo(0.6);
        assertThat(Shape.cylinder(0.3, 0.4).boundingRadius())
                .isCloseTo(0.5, org.assertj.core.data.Offset.offset(1e-15));
        assertThat(Shape.plane().boundingRadius()).isInfinite();
        assertThat(ShapeType.PLANE.isBounded()).isFalse();
        assertThat(ShapeType.BOX.isBounded()).isTrue();
    }

    @Test
    void factories_nonPositiveOrNonFiniteDimension_throwNamingTheDimension() {
        assertThatThrownBy(() -> Shape.sphere(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sphere radius").hasMessageContaining("positive and finite");
        assertThatThrownBy(() -> Shape.sphere(Double.NaN)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NaN");
        assertThatThrownBy(() -> Shape.box(1, -1, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hy");
        assertThatThrownBy(() -> Shape.box(1, 1, Double.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hz");
        assertThatThrownBy(() -> Shape.capsule(0.1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("capsule half length");
        assertThatThrownBy(() -> Shape.cylinder(-0.1, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cylinder radius");
    }

    @Test
    void cylinderHull_prism_hasVerticesOnTheRimAndClosedTopology() {
        Shape c = Shape.cylinder(0.3, 0.2);
        ConvexHull h = c.hull;
        int n = Shape.CYLINDER_PRISM_SIDES;
        assertThat(h.vertexCount).isEqualTo(2 * n);
        assertThat(h.faceCount).isEqualTo(n + 2);
        assertThat(h.edgeCount).isEqualTo(3 * n);
        for (int v = 0; v < h.vertexCount; v++) {
            double r = Math.hypot(h.vertices[3 * v], h.vertices[3 * v + 1]);
            assertThat(r).isCloseTo(0.3, org.assertj.core.data.Offset.offset(1e-12));
        }
        // Euler: V - E + F = 2
        assertThat(h.vertexCount - h.edgeCount + h.faceCount).isEqualTo(2);
        ConvexHull box = Shape.box(1, 2, 3).hull;
        assertThat(box.vertexCount - box.edgeCount + box.faceCount).isEqualTo(2);
    }

    @Test
    void convex_offCentrePoints_keepsHullAndDescribesIt() {
        Shape s = Shape.convex(Meshes.shifted(Meshes.boxCorners(0.1, 0.2, 0.3), 1, 0, 0));
        assertThat(s.type()).isEqualTo(ShapeType.CONVEX);
        assertThat(s.type().isBounded()).isTrue();
        assertThat(s.hull.vertexCount).isEqualTo(8);
        assertThat(s.radius()).isZero();
        assertThat(s.halfLength()).isZero();
        // the farthest vertex from the origin: (1.1, +-0.2, +-0.3)
        assertThat(s.boundingRadius())
                .isCloseTo(Math.sqrt(1.21 + 0.04 + 0.09), org.assertj.core.data.Offset.offset(1e-12));
        assertThat(s.toString()).startsWith("Shape[convex vertices=8 faces=6 edges=12").contains("centre=(1.0");
        assertThat(Shape.convex(Meshes.icosphere(1, 3)).toString()).contains("simplified, error=");
    }
}
