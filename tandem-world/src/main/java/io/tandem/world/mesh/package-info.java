/**
 * Triangle meshes read from the files Gazebo and ROS models name in {@code <mesh>}: STL (binary and
 * ASCII), Wavefront OBJ and COLLADA (.dae), in metres, for collision hulls and visuals. Entry point:
 * {@link io.tandem.world.mesh.MeshFile#read(java.nio.file.Path, double, double, double)}.
 */
package io.tandem.world.mesh;
