package io.tandem.physics;

/**
 * The warm start of one contact point, as a value: what {@link PhysicsState} keeps of a contact
 * between two steps, keyed by global identity only, so it can move between states, models and
 * processes ({@link PhysicsState#contactWarmStarts}, {@link PhysicsState#putContactWarmStart}).
 * Side A is the collider with the lower (body id, shape index).
 *
 * @param bodyA    global id of side A's body
 * @param shapeA   index of side A's shape in its body (0..{@link PhysicsModel.BodyBuilder#MAX_SHAPES} - 1)
 * @param bodyB    global id of side B's body
 * @param shapeB   index of side B's shape in its body
 * @param feature  the contact feature pair of the narrow phase (opaque, stable while the same features touch)
 * @param normal   normal impulse of the last step, N s
 * @param tangent1 impulse along the first tangent, N s
 * @param tangent2 impulse along the second tangent, N s
 */
public record ContactWarmStart(long bodyA, int shapeA, long bodyB, int shapeB, int feature, double normal,
                               double tangent1, double tangent2) {
    /** Validates the shape indices. */
    public ContactWarmStart {
        if (shapeA < 0 || shapeA >= PhysicsModel.BodyBuilder.MAX_SHAPES || shapeB < 0
                || shapeB >= PhysicsModel.BodyBuilder.MAX_SHAPES) {
            throw new IllegalArgumentException("shape indices must be in 0.." + (PhysicsModel.BodyBuilder.MAX_SHAPES - 1)
                    + ", got " + shapeA + ", " + shapeB);
        }
    }
}
