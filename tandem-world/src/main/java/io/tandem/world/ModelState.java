package io.tandem.world;

import io.tandem.physics.ContactWarmStart;
import java.util.List;

/**
 * One model's full dynamic state, as a {@link WorldRunner} exports it ({@link WorldRunner#exportState})
 * and takes it back ({@link WorldRunner#importState}): what a model carries when it moves to
 * another runner (Gazebo's performer handover between secondaries). The distributed wire format
 * encodes it; the runner does not know that format.
 *
 * <p>Per link (the model's link order) {@value #LINK_VALUES} doubles of its physics body: centre
 * of mass position (m), (w, x, y, z) orientation, linear (m/s) and angular (rad/s) velocity; the
 * warm-start impulses of its joints (the world's joint order, the solver's slots per joint); its
 * joints' velocity motor commands (per joint of the model: target speed, force bound; a bound of
 * 0 is no motor); and, in a handover, the contact warm starts of its bodies (empty otherwise).
 * Immutable apart from the arrays, which are owned by the record once built (not copied).
 *
 * @param model         the model's name
 * @param links         {@value #LINK_VALUES} values per link
 * @param jointImpulses the joints' warm-start impulses
 * @param motors        two values per joint of the model
 * @param contacts      the contact warm starts of its bodies (copied)
 * @param dofs          for a robot in joint coordinates, {@value #DOF_VALUES} values per joint of
 *                      its articulation in the articulation's order (PhysicsState#exportDof:
 *                      position, velocity, PD target and gains, torque, limit and friction warm
 *                      starts); empty otherwise
 */
public record ModelState(String model, double[] links, double[] jointImpulses, double[] motors,
                         List<ContactWarmStart> contacts, double[] dofs) {
    /** values per link: position (3), orientation (4), linear velocity (3), angular velocity (3) */
    public static final int LINK_VALUES = 13;
    /** values per joint of a robot in joint coordinates (PhysicsState#DOF_VALUES) */
    public static final int DOF_VALUES = io.tandem.physics.PhysicsState.DOF_VALUES;

    /** Validates the array sizes. */
    public ModelState {
        if (links.length % LINK_VALUES != 0) {
            throw new IllegalArgumentException("model state needs 13 values per link, got " + links.length);
        }
        if (motors.length % 2 != 0) {
            throw new IllegalArgumentException("model state needs 2 motor values per joint, got " + motors.length);
        }
        if (dofs.length % DOF_VALUES != 0) {
            throw new IllegalArgumentException("model state needs " + DOF_VALUES + " values per joint-coordinate joint, got "
                    + dofs.length);
        }
        contacts = List.copyOf(contacts);
    }

    /** A model state without joint coordinates (no articulation). */
    public ModelState(String model, double[] links, double[] jointImpulses, double[] motors, List<ContactWarmStart> contacts) {
        this(model, links, jointImpulses, motors, contacts, new double[0]);
    }
}
