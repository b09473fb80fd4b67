/** Shapes, mass properties, bounding boxes, broad phase and narrow phase. */
package io.tandem.physics.internal.geometry;
