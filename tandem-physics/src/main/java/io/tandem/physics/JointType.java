package io.tandem.physics;

/** Joint kinds (constraints between two bodies, or a body and the world; all hard but {@link #ROD}). */
public enum JointType {
    /** shared anchor point; 3 rotational degrees of freedom */
    BALL,
    /** shared anchor and axis; 1 rotational degree of freedom */
    REVOLUTE,
    /** shared orientation and axis line; 1 translational degree of freedom */
    PRISMATIC,
    /** welded; no relative motion */
    FIXED,
    /**
     * a Cosserat rod connection between two cable segments ({@link CableBuilder}): six compliant
     * rows at the shared end point, stretch and two shears along A's material axes, twist and two
     * bends about them; no hard rows
     */
    ROD
}
