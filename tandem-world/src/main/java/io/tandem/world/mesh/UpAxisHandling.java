package io.tandem.world.mesh;

/**
 * What a COLLADA file's {@code <asset><up_axis>} does to its vertices (STL and OBJ have no up axis:
 * their coordinates are taken as written, z up).
 */
public enum UpAxisHandling {
    /**
     * The tag is ignored and the coordinates are taken as written, z up, as Gazebo (gz-common's
     * ColladaLoader, and its AssimpLoader, which drops the root rotation), RViz and MoveIt load
     * meshes; a model that looks right in Gazebo looks the same here. The default.
     */
    IGNORE,
    /**
     * The COLLADA 1.4.1 specification's reading: Y_UP (also the default when the tag is absent)
     * turns (x, y, z) into (x, -z, y), X_UP turns it into (-y, -z, x), Z_UP keeps it; as Blender
     * imports and three.js loads.
     */
    ROTATE_TO_Z_UP
}
