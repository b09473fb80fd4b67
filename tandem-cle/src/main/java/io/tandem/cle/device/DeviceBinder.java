package io.tandem.cle.device;

/**
 * Looks up the devices a transfer function maps (the NRP's {@code @MapSpikeSource},
 * {@code @MapSpikeSink}, {@code @MapRobotSubscriber}, {@code @MapRobotPublisher}), by name and
 * type, among all engines of the closed loop. Used only in {@link io.tandem.cle.TransferFunction#bind}, on the
 * loop thread while the loop is built; the handles it returns stay valid for the loop's life.
 */
public interface DeviceBinder {
    /**
     * @param name the device's name
     * @param type the device class
     * @param <D>  the device type
     * @return the device
     * @throws IllegalArgumentException when no engine has it, several do, or it has another type,
     *                                  naming what the engines have
     */
    <D extends Device> D device(String name, Class<D> type);

    /** @return the Poisson generator device {@code name} (command) */
    default PoissonSource poissonSource(String name) {
        return device(name, PoissonSource.class);
    }

    /** @return the DC generator device {@code name} (command) */
    default DcSource dcSource(String name) {
        return device(name, DcSource.class);
    }

    /** @return the leaky-integrator device {@code name} (reading: voltage) */
    default LeakyIntegrator leakyIntegrator(String name) {
        return device(name, LeakyIntegrator.class);
    }

    /** @return the population-rate device {@code name} (reading: rate) */
    default PopulationRate populationRate(String name) {
        return device(name, PopulationRate.class);
    }

    /** @return the spike-recorder device {@code name} (reading: the last interval's spikes) */
    default SpikeRecorder spikeRecorder(String name) {
        return device(name, SpikeRecorder.class);
    }

    /** @return the multimeter device {@code name} (reading: the last interval's samples) */
    default Multimeter multimeter(String name) {
        return device(name, Multimeter.class);
    }

    /** @return the joint state of joint {@code scopedName} (model::joint) */
    default JointState jointState(String scopedName) {
        return device(scopedName, JointState.class);
    }

    /** @return the pose of model {@code model} */
    default ModelPose modelPose(String model) {
        return device(model, ModelPose.class);
    }

    /** @return the camera image of camera {@code scopedName} (model::link::sensor) */
    default CameraImage camera(String scopedName) {
        return device(scopedName, CameraImage.class);
    }

    /** @return the velocity command of joint {@code scopedName} */
    default JointVelocityCommand jointVelocity(String scopedName) {
        return device(scopedName, JointVelocityCommand.class);
    }

    /** @return the position command of joint {@code scopedName} (a robot in joint coordinates) */
    default JointPositionCommand jointPosition(String scopedName) {
        return device(scopedName, JointPositionCommand.class);
    }

    /** @return the twist command of the wheeled base {@code drive} */
    default TwistCommand twist(String drive) {
        return device(drive, TwistCommand.class);
    }
}
