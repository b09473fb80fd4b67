package io.tandem.cle.tf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tandem.cle.HuskyBraitenberg;
import io.tandem.physics.SolverSettings;
import io.tandem.world.Pose;
import io.tandem.world.World;
import io.tandem.world.WorldRunner;
import io.tandem.world.robot.RayCastCamera;
import io.tandem.world.robot.SkidSteerDrive;
import io.tandem.world.sdf.SdfLoader;
import org.junit.jupiter.api.Test;

/**
 * The eye TF's red detection on the Husky world's ray-cast camera: red enters the image from the
 * side the robot turns to, and a screen recoloured blue shows no red (moved here with
 * {@link RedDetector} from tandem-world's camera tests).
 */
class RedDetectorCameraTest {
    private static final String CAMERA = "husky::base_link::camera";

    private static World world() {
        return SdfLoader.load(HuskyBraitenberg.findWorldFile(), w -> { });
    }

    private static SkidSteerDrive drive(WorldRunner r) {
        return SkidSteerDrive.builder(r).leftWheels("husky::front_left_wheel_joint", "husky::rear_left_wheel_joint")
                .rightWheels("husky::front_right_wheel_joint", "husky::rear_right_wheel_joint").nrpHusky().build();
    }

    /** The yaw of the robot's chassis, rad. */
    private static double yaw(WorldRunner r) {
        Pose p = r.modelPose("husky");
        return Math.atan2(2 * (p.qw() * p.qz() + p.qx() * p.qy()), 1 - 2 * (p.qy() * p.qy() + p.qz() * p.qz()));
    }

    private static int[] pixel(byte[] img, int width, int u, int v) {
        int o = 3 * (v * width + u);
        return new int[] {img[o] & 0xff, img[o + 1] & 0xff, img[o + 2] & 0xff};
    }

    @Test
    void render_turningRobot_redScreenEntersFromTheLeft() {
        try (WorldRunner r = new WorldRunner(world(), SolverSettings.subAdmm(30), false)) {
            SkidSteerDrive drive = drive(r);
            RayCastCamera camera = RayCastCamera.of(r, CAMERA, 64, 48);
            byte[] img = camera.newImage();
            RedDetector red = new RedDetector();
            r.step();
            camera.render(img);
            red.detect(img, 64, 48);
            // facing the blue screen: nothing red, and blue in the middle
            assertThat(red.goOn()).isEqualTo(1.0);
            assertThat(pixel(img, 64, 32, 20)[2]).isGreaterThan(150);
            double firstLeft = Double.NaN;
            double firstRight = Double.NaN;
            boolean both = false;
            // turn left in place, a frame every 20 ms (10 steps of 2 ms), for at most 8 s
            for (int frame = 0; frame < 400 && !both; frame++) {
                drive.setTwist(0, 1.0);
                for (int k = 0; k < 10; k++) {
                    r.step();
                }
                camera.render(img);
                red.detect(img, 64, 48);
                if (Double.isNaN(firstLeft) && red.left() > 0) {
                    firstLeft = yaw(r);
                    assertThat(red.right()).as("red enters on the left while turning left").isZero();
                }
                if (Double.isNaN(firstRight) && red.right() > 0) {
                    firstRight = yaw(r);
                }
                both = red.left() > 0.2 && red.right() > 0.2;
            }
            assertThat(both).as("the screen fills the middle of the image at some point").isTrue();
            // red first shows when the image's left edge (heading + 30 deg) reaches the screen's nearest
            // corner (3.975, -1) as seen from the camera, 0.5 m ahead of the robot's centre
            double camX = 0.5 * Math.cos(firstLeft);
            double camY = 0.5 * Math.sin(firstLeft);
            double corner = Math.atan2(-1 - camY, 3.975 - camX) - firstLeft;
            assertThat(corner).isCloseTo(1.047 / 2, within(0.03));
            assertThat(firstRight).isGreaterThan(firstLeft);
        }
    }

    @Test
    void setVisualColor_redScreenToBlue_cameraSeesNoRed() {
        try (WorldRunner r = new WorldRunner(world(), SolverSettings.subAdmm(30), false)) {
            // face the red screen
            r.setModelPose("husky", Pose.IDENTITY);
            r.step();
            RayCastCamera c = RayCastCamera.of(r, CAMERA, 64, 48);
            RedDetector red = new RedDetector();
            byte[] img = c.newImage();
            c.render(img);
            red.detect(img, 64, 48);
            // the screen fills about half of each half image (2 m x 1.5 m at 3.5 m, 60 x 45 degrees)
            assertThat(red.left()).isGreaterThan(0.2);
            assertThat(red.right()).isGreaterThan(0.2);
            r.setVisualColor("red_screen", 0, 0, 1);
            c.render(img);
            red.detect(img, 64, 48);
            assertThat(red.goOn()).isEqualTo(1.0);
            assertThat(pixel(img, 64, 32, 20)).containsExactly(0, 0, 102);
            r.setVisualColor("red_screen", 1, 0, 0);
            c.render(img);
            red.detect(img, 64, 48);
            assertThat(red.left()).isGreaterThan(0.2);
            assertThatThrownBy(() -> r.setVisualColor("red_scren", 0, 0, 1)).hasMessageContaining("no model 'red_scren'")
                    .hasMessageContaining("close matches: red_screen");
            assertThatThrownBy(() -> r.setVisualColor("red_screen", 0, 0, 2)).hasMessageContaining("[0, 1]");
        }
    }
}
