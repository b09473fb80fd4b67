/** URDF robots, read as Gazebo converts them (fixed joints lumped), into a world of their own. */
package io.tandem.world.urdf;
