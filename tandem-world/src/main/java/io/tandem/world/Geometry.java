package io.tandem.world;

/**
 * A collision or visual shape of SDF, in its own frame (SI units). Immutable.
 */
public sealed interface Geometry {
    /** A box of full side lengths (m), centred. */
    record Box(double sizeX, double sizeY, double sizeZ) implements Geometry {
    }

    /** A sphere of radius (m), centred. */
    record Sphere(double radius) implements Geometry {
    }

    /** A cylinder along z: radius and full length (m), centred. */
    record Cylinder(double radius, double length) implements Geometry {
    }

    /** A capsule along z: radius and the full length of its cylinder part (m), centred. */
    record Capsule(double radius, double length) implements Geometry {
    }

    /** An infinite plane through the origin with unit normal (nx, ny, nz); size is for display only. */
    record Plane(double nx, double ny, double nz, double sizeX, double sizeY) implements Geometry {
    }

    /**
     * A triangle mesh read from a file (STL, OBJ or COLLADA), its vertices in the geometry's frame
     * after the file's unit and the element's scale. As a collision it is the convex hull of each
     * of its parts (a concave part collides as its hull); as a visual, its triangles.
     *
     * @param uri   the URI as the file wrote it (model://, package://, file:// or a path)
     * @param file  the file it names
     * @param mesh  its parts (never empty)
     */
    record Mesh(String uri, java.nio.file.Path file, io.tandem.world.mesh.TriangleMesh mesh) implements Geometry {
    }
}
