package io.tandem.cle;

import io.tandem.cle.device.Device;
import io.tandem.cle.device.JointState;
import io.tandem.cle.device.JointVelocityCommand;
import io.tandem.cle.device.LeakyIntegrator;
import io.tandem.cle.device.PoissonSource;
import java.util.ArrayList;
import java.util.List;

/**
 * A test engine: time advances by whole timesteps; it publishes its time (ms) on its reading
 * device "NAME.out" and records, per advance, the start time and the command value in effect
 * ("NAME.in": a Poisson rate on the brain side, a joint velocity on the robot side).
 */
public final class FakeEngine implements Engine {
    final String name;
    final long timestepNs;
    final boolean brainSide;
    public final List<long[]> advances = new ArrayList<>();
    public final List<Double> commandsInEffect = new ArrayList<>();
    private long timeNs;
    private double command;
    private final PoissonSource rateIn;
    private final LeakyIntegrator voltageOut;
    private final JointVelocityCommand velocityIn;
    private final JointState stateOut;
    public RuntimeException failOnAdvance;

    public FakeEngine(String name, long timestepNs, boolean brainSide) {
        this.name = name;
        this.timestepNs = timestepNs;
        this.brainSide = brainSide;
        rateIn = brainSide ? new PoissonSource(name + ".in", name, 0) : null;
        voltageOut = brainSide ? new LeakyIntegrator(name + ".out", name) : null;
        velocityIn = brainSide ? null : new JointVelocityCommand(name + ".in", name);
        stateOut = brainSide ? null : new JointState(name + ".out", name);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long timestepNs() {
        return timestepNs;
    }

    @Override
    public long timeNs() {
        return timeNs;
    }

    @Override
    public <D extends Device> D device(String deviceName, Class<D> type) {
        for (Device d : new Device[] {rateIn, voltageOut, velocityIn, stateOut}) {
            if (d != null && d.name().equals(deviceName)) {
                if (!type.isInstance(d)) {
                    throw new IllegalArgumentException("device '" + deviceName + "' is a " + d.getClass().getSimpleName());
                }
                return type.cast(d);
            }
        }
        return null;
    }

    @Override
    public List<String> deviceNames() {
        return List.of(name + ".in", name + ".out");
    }

    @Override
    public void initialize() {
    }

    @Override
    public void applyInputs() {
        if (brainSide && rateIn.takeChanged()) {
            command = rateIn.rate();
        } else if (!brainSide && velocityIn.takeChanged()) {
            command = velocityIn.velocity();
        }
    }

    @Override
    public void advance(long durationNs) {
        if (failOnAdvance != null) {
            throw failOnAdvance;
        }
        if (durationNs % timestepNs != 0) {
            throw new IllegalArgumentException("advance " + durationNs + " not a multiple of " + timestepNs);
        }
        advances.add(new long[] {timeNs, durationNs});
        commandsInEffect.add(command);
        timeNs += durationNs;
    }

    @Override
    public void publishOutputs() {
        if (brainSide) {
            voltageOut.publish(timeNs / 1e6);
        } else {
            stateOut.publish(timeNs / 1e6, 0);
        }
    }

    @Override
    public void reset() {
        timeNs = 0;
        command = 0;
        advances.clear();
        commandsInEffect.clear();
    }

    @Override
    public void close() {
    }
}
