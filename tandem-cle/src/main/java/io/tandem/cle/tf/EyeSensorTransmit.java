package io.tandem.cle.tf;

import io.tandem.cle.TransferFunction;
import io.tandem.cle.TransferFunctionKind;
import io.tandem.cle.TransferFunctions;
import io.tandem.cle.device.CameraImage;
import io.tandem.cle.device.DeviceBinder;
import io.tandem.cle.device.PoissonSource;
import java.util.Map;

/**
 * The Husky Braitenberg experiment's {@code eye_sensor_transmit} TF (shared/specs/nrp.md 3.1), a
 * Robot2Neuron transfer function: the NRP's red detection on the camera image (OpenCV HSV, red =
 * H 0, S and V at least 30; {@link RedDetector}), then
 * <pre>
 *   red_left_eye.rate   = 2000 Hz x red pixels of the left half  / image size
 *   red_right_eye.rate  = 2000 Hz x red pixels of the right half / image size
 *   green_blue_eye.rate =   75 Hz x non-red pixels               / image size
 * </pre>
 * Params (all optional): {@code camera} (default {@value #DEFAULT_CAMERA}), {@code red_left_eye},
 * {@code red_right_eye}, {@code green_blue_eye} (device names, defaults as shown),
 * {@code max_red_rate_hz} (2000), {@code max_non_red_rate_hz} (75). {@link #run} allocates nothing.
 */
public final class EyeSensorTransmit implements TransferFunction {
    /** The Husky's camera. */
    public static final String DEFAULT_CAMERA = "husky::base_link::camera";
    private final String cameraName;
    private final String leftName;
    private final String rightName;
    private final String goOnName;
    private final double maxRedHz;
    private final double maxNonRedHz;
    private final RedDetector red = new RedDetector();
    private CameraImage camera;
    private PoissonSource left;
    private PoissonSource right;
    private PoissonSource goOn;

    /** The TF with the NRP's defaults. */
    public EyeSensorTransmit() {
        this(Map.of());
    }

    /**
     * @param params see the class notes. Not modified.
     */
    public EyeSensorTransmit(Map<String, Object> params) {
        cameraName = TransferFunctions.string(params, "camera", DEFAULT_CAMERA);
        leftName = TransferFunctions.string(params, "red_left_eye", "red_left_eye");
        rightName = TransferFunctions.string(params, "red_right_eye", "red_right_eye");
        goOnName = TransferFunctions.string(params, "green_blue_eye", "green_blue_eye");
        maxRedHz = TransferFunctions.number(params, "max_red_rate_hz", 2000.0);
        maxNonRedHz = TransferFunctions.number(params, "max_non_red_rate_hz", 75.0);
        if (!(maxRedHz >= 0) || !(maxNonRedHz >= 0) || Double.isInfinite(maxRedHz + maxNonRedHz)) {
            throw new IllegalArgumentException("eye_sensor_transmit: max rates must be finite and >= 0 Hz, got " + maxRedHz
                    + " and " + maxNonRedHz);
        }
    }

    @Override
    public TransferFunctionKind kind() {
        return TransferFunctionKind.ROBOT_TO_NEURON;
    }

    @Override
    public String name() {
        return "eye_sensor_transmit";
    }

    @Override
    public void bind(DeviceBinder d) {
        camera = d.camera(cameraName);
        left = d.poissonSource(leftName);
        right = d.poissonSource(rightName);
        goOn = d.poissonSource(goOnName);
    }

    @Override
    public void run(long timeNs, long iteration) {
        int w = camera.width();
        int h = camera.height();
        red.detect(camera.image(), w, h);
        double size = (double) w * h;
        left.setRate(maxRedHz * red.redLeftPixels() / size);
        right.setRate(maxRedHz * red.redRightPixels() / size);
        goOn.setRate(maxNonRedHz * (size - red.redLeftPixels() - red.redRightPixels()) / size);
    }

    /** @return the red detector's results for the last image seen */
    public RedDetector detector() {
        return red;
    }
}
