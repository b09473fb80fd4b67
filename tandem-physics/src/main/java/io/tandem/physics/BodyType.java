package io.tandem.physics;

/** How a body moves. */
public enum BodyType {
    /** never moves; infinite mass */
    STATIC,
    /** moves along a prescribed trajectory; infinite mass, pushes dynamic bodies */
    KINEMATIC,
    /** moves under forces, contacts and joints */
    DYNAMIC
}
