package io.tandem.cle.remote;

import io.tandem.cle.device.CameraImage;
import io.tandem.cle.device.DcSource;
import io.tandem.cle.device.Device;
import io.tandem.cle.device.JointPositionCommand;
import io.tandem.cle.device.JointState;
import io.tandem.cle.device.JointVelocityCommand;
import io.tandem.cle.device.LeakyIntegrator;
import io.tandem.cle.device.ModelPose;
import io.tandem.cle.device.Multimeter;
import io.tandem.cle.device.PoissonSource;
import io.tandem.cle.device.PopulationRate;
import io.tandem.cle.device.ScalarCommand;
import io.tandem.cle.device.SpikeRecorder;
import io.tandem.cle.device.TwistCommand;
import io.tandem.cosim.spi.FrameReader;
import io.tandem.cosim.spi.FrameWriter;

/*
 * Implementation notes.
 *
 * Per device type: an id (one byte, part of the protocol: never renumber, add new ids at the end
 * and raise EngineProtocol.VERSION when an encoding changes), a descriptor (what a client needs to
 * build its mirror of a server's device) and a value. Values, little-endian:
 *   PoissonSource         rate Hz, then the window start, stop, origin ms (doubles)
 *   DcSource              amplitude pA, then the window start, stop, origin ms (doubles)
 *   LeakyIntegrator       V_m mV (double)
 *   PopulationRate        rate Hz (double)
 *   SpikeRecorder         count (int), then count x (sender int, time ns long)
 *   CameraImage           width, height (ints), frame time ns (long), width x height x 3 RGB bytes
 *   JointState            position, velocity (doubles)
 *   ModelPose             x, y, z, qw, qx, qy, qz (doubles)
 *   JointVelocityCommand  velocity (double)
 *   TwistCommand          linear x, angular z (doubles)
 *   Multimeter            count (int), then count x (sender int, time ns long, one double per variable);
 *                         its descriptor is its record_from (strings)
 *   JointPositionCommand  position, velocity, kp, kd (doubles; the gains NaN until set)
 * The generators' descriptors: the initial value, the resolution (ms, NaN if unknown) and the
 * initial window (start, stop, origin ms). Version 2 added the windows and the multimeter,
 * version 3 the joint position command.
 * Doubles travel as raw bits, so values (NaN included) arrive bitwise. A command device's value is
 * what transfer functions last set; writing it takes nothing, reading it calls the setter (so the
 * engine applies it at its next applyInputs). A reading device's value is its front buffer (the
 * server latches before writing); reading it publishes into the back buffer.
 */

/** The binary codec of every device type (see the implementation notes). Stateless; allocates nothing per value. */
final class DeviceCodec {
    static final byte POISSON = 1;
    static final byte DC = 2;
    static final byte LEAKY_INTEGRATOR = 3;
    static final byte POPULATION_RATE = 4;
    static final byte SPIKE_RECORDER = 5;
    static final byte CAMERA = 6;
    static final byte JOINT_STATE = 7;
    static final byte MODEL_POSE = 8;
    static final byte JOINT_VELOCITY = 9;
    static final byte TWIST = 10;
    static final byte MULTIMETER = 11;
    static final byte JOINT_POSITION = 12;
    /** the spikes a mirror recorder preallocates (it grows by doubling) */
    private static final int MIRROR_SPIKES = 1024;
    /** the rows a mirror multimeter preallocates (it grows by doubling) */
    private static final int MIRROR_SAMPLES = 1024;

    private DeviceCodec() {
    }

    /**
     * @param type a device class
     * @return its id, or 0 for a type no engine serves (an abstract class)
     */
    static byte typeId(Class<?> type) {
        if (type == PoissonSource.class) {
            return POISSON;
        } else if (type == DcSource.class) {
            return DC;
        } else if (type == LeakyIntegrator.class) {
            return LEAKY_INTEGRATOR;
        } else if (type == PopulationRate.class) {
            return POPULATION_RATE;
        } else if (type == SpikeRecorder.class) {
            return SPIKE_RECORDER;
        } else if (type == CameraImage.class) {
            return CAMERA;
        } else if (type == JointState.class) {
            return JOINT_STATE;
        } else if (type == ModelPose.class) {
            return MODEL_POSE;
        } else if (type == JointPositionCommand.class) {
            return JOINT_POSITION;
        } else if (type == JointVelocityCommand.class) {
            return JOINT_VELOCITY;
        } else if (type == TwistCommand.class) {
            return TWIST;
        } else if (type == Multimeter.class) {
            return MULTIMETER;
        }
        return 0;
    }

    /**
     * @param id a type id
     * @return its device class
     * @throws IllegalArgumentException for an unknown id
     */
    static Class<? extends Device> type(int id) {
        switch (id) {
            case POISSON: return PoissonSource.class;
            case DC: return DcSource.class;
            case LEAKY_INTEGRATOR: return LeakyIntegrator.class;
            case POPULATION_RATE: return PopulationRate.class;
            case SPIKE_RECORDER: return SpikeRecorder.class;
            case CAMERA: return CameraImage.class;
            case JOINT_STATE: return JointState.class;
            case MODEL_POSE: return ModelPose.class;
            case JOINT_VELOCITY: return JointVelocityCommand.class;
            case JOINT_POSITION: return JointPositionCommand.class;
            case TWIST: return TwistCommand.class;
            case MULTIMETER: return Multimeter.class;
            default: throw new IllegalArgumentException("unknown device type id " + id);
        }
    }

    /** Writes what a mirror of {@code d} needs beyond its name and type (initial values, size). */
    static void writeDescriptor(Device d, FrameWriter w) {
        switch (typeId(d.getClass())) {
            case POISSON:
            case DC: {
                ScalarCommand c = (ScalarCommand) d;
                w.putDouble(c.initial());
                w.putDouble(c.resolutionMs());
                for (double x : c.initialWindow()) {
                    w.putDouble(x);
                }
                break;
            }
            case CAMERA:
                w.putInt(((CameraImage) d).width());
                w.putInt(((CameraImage) d).height());
                break;
            case MULTIMETER:
                w.putStrings(((Multimeter) d).recordFrom());
                break;
            default:
                break;
        }
    }

    /**
     * Builds a mirror device from a descriptor.
     *
     * @param id     the type id
     * @param name   the device's name
     * @param engine the owning (client) engine's name
     * @param r      positioned at the descriptor
     * @return the device, at its time-0 values
     */
    static Device readDescriptor(int id, String name, String engine, FrameReader r) {
        switch (id) {
            case POISSON: {
                double rate = r.getDouble();
                double h = r.getDouble();
                double start = r.getDouble();
                double stop = r.getDouble();
                return new PoissonSource(name, engine, rate, h, start, stop, r.getDouble());
            }
            case DC: {
                double amplitude = r.getDouble();
                double h = r.getDouble();
                double start = r.getDouble();
                double stop = r.getDouble();
                return new DcSource(name, engine, amplitude, h, start, stop, r.getDouble());
            }
            case LEAKY_INTEGRATOR: return new LeakyIntegrator(name, engine);
            case POPULATION_RATE: return new PopulationRate(name, engine);
            case SPIKE_RECORDER: return new SpikeRecorder(name, engine, MIRROR_SPIKES);
            case CAMERA: return new CameraImage(name, engine, r.getInt(), r.getInt());
            case JOINT_STATE: return new JointState(name, engine);
            case MODEL_POSE: return new ModelPose(name, engine);
            case JOINT_VELOCITY: return new JointVelocityCommand(name, engine);
            case JOINT_POSITION: return new JointPositionCommand(name, engine);
            case TWIST: return new TwistCommand(name, engine);
            case MULTIMETER: return new Multimeter(name, engine, EngineProtocol.getStrings(r), MIRROR_SAMPLES);
            default: throw new IllegalArgumentException("unknown device type id " + id);
        }
    }

    /**
     * A command device's changed flag, cleared (the client, at applyInputs).
     *
     * @param id the device's type id
     * @param d  a command device
     * @return whether a value was set since the last call
     */
    static boolean takeChanged(int id, Device d) {
        switch (id) {
            case POISSON: return ((PoissonSource) d).takeChanged();
            case DC: return ((DcSource) d).takeChanged();
            case JOINT_VELOCITY: return ((JointVelocityCommand) d).takeChanged();
            case JOINT_POSITION: return ((JointPositionCommand) d).takeChanged();
            case TWIST: return ((TwistCommand) d).takeChanged();
            default: throw new IllegalArgumentException(d + " is not a command device");
        }
    }

    /**
     * Writes a device's value: a command's last value, a reading device's front buffer.
     *
     * @param id the device's type id
     * @param d  the device
     * @param w  the frame
     */
    static void writeValue(int id, Device d, FrameWriter w) {
        switch (id) {
            case POISSON:
            case DC: {
                ScalarCommand c = (ScalarCommand) d;
                w.putDouble(c.value());
                w.putDouble(c.start());
                w.putDouble(c.stop());
                w.putDouble(c.origin());
                break;
            }
            case LEAKY_INTEGRATOR:
                w.putDouble(((LeakyIntegrator) d).voltage());
                break;
            case POPULATION_RATE:
                w.putDouble(((PopulationRate) d).rateHz());
                break;
            case SPIKE_RECORDER: {
                SpikeRecorder s = (SpikeRecorder) d;
                int n = s.count();
                w.putInt(n);
                for (int i = 0; i < n; i++) {
                    w.putInt(s.sender(i));
                    w.putLong(s.timeNs(i));
                }
                break;
            }
            case CAMERA: {
                CameraImage c = (CameraImage) d;
                w.putInt(c.width());
                w.putInt(c.height());
                w.putLong(c.frameTimeNs());
                byte[] img = c.image();
                w.putRaw(img, 0, img.length);
                break;
            }
            case JOINT_STATE:
                w.putDouble(((JointState) d).position());
                w.putDouble(((JointState) d).velocity());
                break;
            case MODEL_POSE: {
                ModelPose p = (ModelPose) d;
                w.putDouble(p.x());
                w.putDouble(p.y());
                w.putDouble(p.z());
                w.putDouble(p.qw());
                w.putDouble(p.qx());
                w.putDouble(p.qy());
                w.putDouble(p.qz());
                break;
            }
            case JOINT_VELOCITY:
                w.putDouble(((JointVelocityCommand) d).velocity());
                break;
            case JOINT_POSITION: {
                JointPositionCommand c = (JointPositionCommand) d;
                w.putDouble(c.position());
                w.putDouble(c.velocity());
                w.putDouble(c.kp());
                w.putDouble(c.kd());
                break;
            }
            case TWIST:
                w.putDouble(((TwistCommand) d).linearX());
                w.putDouble(((TwistCommand) d).angularZ());
                break;
            case MULTIMETER: {
                Multimeter m = (Multimeter) d;
                int n = m.count();
                int width = m.recordFrom().size();
                w.putInt(n);
                for (int i = 0; i < n; i++) {
                    w.putInt(m.sender(i));
                    w.putLong(m.timeNs(i));
                    for (int v = 0; v < width; v++) {
                        w.putDouble(m.value(i, v));
                    }
                }
                break;
            }
            default:
                throw new IllegalArgumentException("unknown device type id " + id);
        }
    }

    /**
     * Reads a value into a device: sets a command (as a transfer function would), publishes a
     * reading into the back buffer (as its engine would).
     *
     * @param id the device's type id
     * @param d  the device
     * @param r  positioned at the value
     * @throws IllegalArgumentException for a truncated value or a camera image of another size
     */
    static void readValue(int id, Device d, FrameReader r) {
        switch (id) {
            case POISSON: {
                ((PoissonSource) d).setRate(r.getDouble());
                double start = r.getDouble();
                double stop = r.getDouble();
                ((PoissonSource) d).setWindowMs(start, stop, r.getDouble());
                break;
            }
            case DC: {
                ((DcSource) d).setAmplitude(r.getDouble());
                double start = r.getDouble();
                double stop = r.getDouble();
                ((DcSource) d).setWindowMs(start, stop, r.getDouble());
                break;
            }
            case LEAKY_INTEGRATOR:
                ((LeakyIntegrator) d).publish(r.getDouble());
                break;
            case POPULATION_RATE:
                ((PopulationRate) d).publish(r.getDouble());
                break;
            case SPIKE_RECORDER: {
                SpikeRecorder s = (SpikeRecorder) d;
                int n = r.getInt();
                if (n < 0) {
                    throw new IllegalArgumentException("spike recorder '" + d.name() + "': negative spike count " + n);
                }
                s.beginPublish();
                for (int i = 0; i < n; i++) {
                    int sender = r.getInt();
                    s.publishSpike(sender, r.getLong());
                }
                break;
            }
            case CAMERA: {
                CameraImage c = (CameraImage) d;
                int width = r.getInt();
                int height = r.getInt();
                if (width != c.width() || height != c.height()) {
                    throw new IllegalArgumentException("camera '" + d.name() + "' is " + c.width() + " x " + c.height()
                            + " but the engine sent a " + width + " x " + height + " image");
                }
                long t = r.getLong();
                byte[] back = c.backBuffer();
                r.getRaw(back, 0, back.length);
                c.published(t);
                break;
            }
            case JOINT_STATE: {
                double position = r.getDouble();
                ((JointState) d).publish(position, r.getDouble());
                break;
            }
            case MODEL_POSE: {
                double x = r.getDouble();
                double y = r.getDouble();
                double z = r.getDouble();
                double qw = r.getDouble();
                double qx = r.getDouble();
                double qy = r.getDouble();
                ((ModelPose) d).publish(x, y, z, qw, qx, qy, r.getDouble());
                break;
            }
            case JOINT_VELOCITY:
                ((JointVelocityCommand) d).setVelocity(r.getDouble());
                break;
            case JOINT_POSITION: {
                JointPositionCommand c = (JointPositionCommand) d;
                double position = r.getDouble();
                double velocity = r.getDouble();
                double kp = r.getDouble();
                double kd = r.getDouble();
                if (!Double.isNaN(kp)) {
                    c.setGains(kp, kd);
                }
                c.setTarget(position, velocity);
                break;
            }
            case TWIST: {
                double linear = r.getDouble();
                ((TwistCommand) d).set(linear, r.getDouble());
                break;
            }
            case MULTIMETER: {
                Multimeter m = (Multimeter) d;
                int n = r.getInt();
                if (n < 0) {
                    throw new IllegalArgumentException("multimeter '" + d.name() + "': negative row count " + n);
                }
                double[] row = m.rowScratch();
                m.beginPublish();
                for (int i = 0; i < n; i++) {
                    int sender = r.getInt();
                    long t = r.getLong();
                    for (int v = 0; v < row.length; v++) {
                        row[v] = r.getDouble();
                    }
                    m.publishSample(sender, t, row, 0);
                }
                break;
            }
            default:
                throw new IllegalArgumentException("unknown device type id " + id);
        }
    }
}
