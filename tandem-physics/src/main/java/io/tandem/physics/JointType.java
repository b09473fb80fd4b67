package io.tandem.physics;

/** Joint kinds (hard constraints between two bodies, or a body and the world). */
public enum JointType {
    /** shared anchor point; 3 rotational degrees of freedom */
    BALL,
    /** shared anchor and axis; 1 rotational degree of freedom */
    REVOLUTE,
    /** shared orientation and axis line; 1 translational degree of freedom */
    PRISMATIC,
    /** welded; no relative motion */
    FIXED
}
