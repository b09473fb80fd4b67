package io.tandem.cle;

import io.tandem.cle.device.Device;

/** The direction of a transfer function (the NRP's {@code @Robot2Neuron} and {@code @Neuron2Robot}). */
public enum TransferFunctionKind {
    /** reads robot devices, commands brain devices (Poisson and DC sources) */
    ROBOT_TO_NEURON,
    /** reads brain devices, commands robot devices (joint velocities, twists) */
    NEURON_TO_ROBOT;

    /** @return the side of the devices this kind may command */
    Device.Side commandSide() {
        switch (this) {
            case ROBOT_TO_NEURON:
                return Device.Side.BRAIN;
            case NEURON_TO_ROBOT:
                return Device.Side.ROBOT;
        }
        throw new AssertionError(this);
    }
}
