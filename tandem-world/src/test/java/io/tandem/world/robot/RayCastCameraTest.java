package io.tandem.world.robot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tandem.physics.SolverSettings;
import io.tandem.world.HuskyWorld;
import io.tandem.world.SuppressForbidden;
import io.tandem.world.World;
import io.tandem.world.WorldRunner;
import io.tandem.world.sdf.SdfLoader;
import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class RayCastCameraTest {
    /** the default background (0.7, 0.7, 0.7) in bytes */
    private static final int BACKGROUND = 179;

    /**
     * A static camera 1 m up at the origin looking along +x, and the given models.
     *
     * @param fov horizontal field of view, rad
     */
    private static World scene(double fov, int width, int height, String models) {
        String sdf = String.format(Locale.ROOT, """
                <?xml version="1.0"?>
                <sdf version="1.9"><world name="w">
                  <model name="rig"><static>true</static><pose>0 0 1 0 0 0</pose>
                    <link name="mount">
                      <sensor name="cam" type="camera"><update_rate>50</update_rate>
                        <camera><horizontal_fov>%s</horizontal_fov><image><width>%d</width><height>%d</height></image>
                          <clip><near>0.1</near><far>20</far></clip></camera>
                      </sensor>
                    </link>
                  </model>
                  %s
                </world></sdf>
                """, fov, width, height, models);
        return SdfLoader.load(new ByteArrayInputStream(sdf.getBytes(StandardCharsets.UTF_8)), "t.sdf", w -> { });
    }

    /** A static model with one visual at a pose. */
    private static String shape(String name, String pose, String geometry, String rgb) {
        return "<model name=\"" + name + "\"><static>true</static><pose>" + pose + "</pose><link name=\"l\">"
                + "<visual name=\"v\"><geometry>" + geometry + "</geometry><material><diffuse>" + rgb + " 1</diffuse>"
                + "</material></visual></link></model>";
    }

    private static int[] pixel(byte[] img, int width, int u, int v) {
        int o = 3 * (v * width + u);
        return new int[] {img[o] & 0xff, img[o + 1] & 0xff, img[o + 2] & 0xff};
    }

    private static boolean isBackground(byte[] img, int width, int u, int v) {
        int[] p = pixel(img, width, u, v);
        return p[0] == BACKGROUND && p[1] == BACKGROUND && p[2] == BACKGROUND;
    }

    /** Column and row centroid of the pixels that are not background. */
    private static double[] centroid(byte[] img, int width, int height) {
        double su = 0;
        double sv = 0;
        int n = 0;
        for (int v = 0; v < height; v++) {
            for (int u = 0; u < width; u++) {
                if (!isBackground(img, width, u, v)) {
                    su += u;
                    sv += v;
                    n++;
                }
            }
        }
        return new double[] {su / n, sv / n, n};
    }

    private static byte[] renderOnce(World w) {
        try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(10), false)) {
            RayCastCamera c = RayCastCamera.of(r, "rig::mount::cam");
            byte[] img = c.newImage();
            c.render(img);
            return img;
        }
    }

    @Test
    void render_cameraFacingRedBox_redAtCentreBackgroundAtCorners() {
        World w = scene(Math.PI / 2, 64, 48, shape("box", "4 0 1 0 0 0", "<box><size>1 1 1</size></box>", "1 0 0"));
        byte[] img = renderOnce(w);
        // the face towards the camera looks away from the default light: ambient 0.4 of red
        assertThat(pixel(img, 64, 32, 24)).containsExactly(102, 0, 0);
        assertThat(pixel(img, 64, 31, 23)).containsExactly(102, 0, 0);
        for (int[] corner : new int[][] {{0, 0}, {63, 0}, {0, 47}, {63, 47}}) {
            assertThat(isBackground(img, 64, corner[0], corner[1])).as("corner %s", Arrays.toString(corner)).isTrue();
        }
        // the face spans +-0.5 m at 3.5 m: slopes +-1/7 of tan 45 deg, 32 / 7 = 4.6 pixels either side of the centre
        assertThat(isBackground(img, 64, 32 + 4, 24)).isFalse();
        assertThat(isBackground(img, 64, 32 + 6, 24)).isTrue();
        assertThat(isBackground(img, 64, 32 - 6, 24)).isTrue();
    }

    @Test
    void render_sphereAtKnownAngle_landsInExpectedColumnForEachFov() {
        // a small sphere 20 degrees to the left and 0.5 m above the optical axis, 5 m ahead
        double angle = Math.toRadians(20);
        String pose = String.format(Locale.ROOT, "%s %s 1.5 0 0 0", 5 * Math.cos(angle), 5 * Math.sin(angle));
        for (double fov : new double[] {Math.PI / 2, Math.toRadians(60)}) {
            World w = scene(fov, 200, 100, shape("ball", pose, "<sphere><radius>0.08</radius></sphere>", "1 1 1"));
            double[] c = centroid(renderOnce(w), 200, 100);
            double tanH = Math.tan(fov / 2);
            double tanV = tanH * 100 / 200;
            // u = (a / tan(hfov / 2) + 1) W / 2 - 1/2 with a the rightward slope -tan(20 deg)
            double expectedU = (-Math.tan(angle) / tanH + 1) * 100 - 0.5;
            double expectedV = (1 - 0.5 / (5 * Math.cos(angle)) / tanV) * 50 - 0.5;
            assertThat(c[2]).as("pixels hit").isGreaterThan(4);
            assertThat(c[0]).as("column, fov %s", fov).isCloseTo(expectedU, within(0.3));
            assertThat(c[1]).as("row, fov %s", fov).isCloseTo(expectedV, within(0.3));
        }
    }

    @Test
    void render_everyShapeKind_itsColourAtTheCentre() {
        String[][] shapes = {
            {"<box><size>0.5 0.5 0.5</size></box>", "3 0 1 0 0 0"},
            {"<sphere><radius>0.3</radius></sphere>", "3 0 1 0 0 0"},
            // a cylinder lying across the view, and one standing up
            {"<cylinder><radius>0.2</radius><length>1</length></cylinder>", "3 0 1 1.5707963267948966 0 0"},
            {"<cylinder><radius>0.2</radius><length>1</length></cylinder>", "3 0 1 0 0 0"},
            {"<capsule><radius>0.2</radius><length>0.5</length></capsule>", "3 0 1 0 0 0"},
            // a plane facing the camera (normal -x), 1 m square
            {"<plane><normal>-1 0 0</normal><size>1 1</size></plane>", "3 0 1 0 0 0"},
        };
        for (String[] s : shapes) {
            World w = scene(Math.PI / 2, 32, 24, shape("thing", s[1], s[0], "0.2 0.8 0.4"));
            try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(10), false)) {
                RayCastCamera c = RayCastCamera.of(r, "rig::mount::cam");
                // ambient light only: the exact colour
                c.setLighting(1, 0);
                byte[] img = c.newImage();
                c.render(img);
                assertThat(pixel(img, 32, 16, 12)).as(s[0]).containsExactly(51, 204, 102);
                assertThat(isBackground(img, 32, 0, 0)).as(s[0]).isTrue();
            }
        }
    }

    @Test
    void render_capsuleSeenFromItsEnd_roundCapCloserThanAFlatEnd() {
        // a capsule and a cylinder pointing at the camera: the capsule's cap is lit like a sphere
        String capsule = shape("c", "3 0 1 0 1.5707963267948966 0", "<capsule><radius>0.3</radius><length>0.5</length></capsule>",
                "1 1 1");
        String cylinder = shape("c", "3 0 1 0 1.5707963267948966 0", "<cylinder><radius>0.3</radius><length>0.5</length></cylinder>",
                "1 1 1");
        int[] capCentre;
        int[] capEdge;
        int[] cylCentre;
        int[] cylEdge;
        try (WorldRunner r = new WorldRunner(scene(Math.PI / 2, 128, 96, capsule), SolverSettings.subAdmm(10), false)) {
            RayCastCamera c = RayCastCamera.of(r, "rig::mount::cam");
            c.setLightDirection(-1, 0, 0);
            c.setLighting(0, 1);
            byte[] img = c.newImage();
            c.render(img);
            capCentre = pixel(img, 128, 64, 48);
            capEdge = pixel(img, 128, 64 + 6, 48);
        }
        try (WorldRunner r = new WorldRunner(scene(Math.PI / 2, 128, 96, cylinder), SolverSettings.subAdmm(10), false)) {
            RayCastCamera c = RayCastCamera.of(r, "rig::mount::cam");
            c.setLightDirection(-1, 0, 0);
            c.setLighting(0, 1);
            byte[] img = c.newImage();
            c.render(img);
            cylCentre = pixel(img, 128, 64, 48);
            cylEdge = pixel(img, 128, 64 + 6, 48);
        }
        // lit head-on: the flat end is evenly bright, the round cap darkens towards its rim (pixel 70 looks
        // 0.28 m off the axis at the end's 2.75 m, inside the 0.3 m radius)
        assertThat(cylCentre[0]).isEqualTo(cylEdge[0]).isGreaterThan(250);
        assertThat(capCentre[0]).isGreaterThan(250);
        assertThat(capEdge[0]).isLessThan(capCentre[0] - 20);
    }

    @Test
    void render_lightDirection_lambertShading() {
        World w = scene(Math.PI / 2, 32, 24, shape("box", "3 0 1 0 0 0", "<box><size>0.5 0.5 0.5</size></box>", "1 1 1"));
        try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(10), false)) {
            RayCastCamera c = RayCastCamera.of(r, "rig::mount::cam");
            byte[] img = c.newImage();
            c.setLighting(0.2, 0.5);
            // towards the camera: the face is lit fully
            c.setLightDirection(-1, 0, 0);
            c.render(img);
            assertThat(pixel(img, 32, 16, 12)[0]).isEqualTo(179);
            // 60 degrees off the face's normal: half the diffuse term
            c.setLightDirection(-0.5, 0, Math.sqrt(3) / 2);
            c.render(img);
            assertThat(pixel(img, 32, 16, 12)[0]).isEqualTo((int) (0.45 * 255 + 0.5));
            // from behind: ambient only
            c.setLightDirection(1, 0, 0);
            c.render(img);
            assertThat(pixel(img, 32, 16, 12)[0]).isEqualTo(51);
        }
    }

    @Test
    void render_nearAndFarClip_shapesOutsideNotDrawn() {
        // far is 20 m: a box at 25 m is not drawn; one at 0.05 m (inside near) neither
        World far = scene(Math.PI / 2, 16, 12, shape("box", "25 0 1 0 0 0", "<box><size>4 4 4</size></box>", "1 0 0"));
        assertThat(isBackground(renderOnce(far), 16, 8, 6)).isTrue();
        World near = scene(Math.PI / 2, 16, 12, shape("box", "0.05 0 1 0 0 0", "<box><size>0.02 0.02 0.02</size></box>", "1 0 0"));
        assertThat(isBackground(renderOnce(near), 16, 8, 6)).isTrue();
        // nearer of two wins
        World both = scene(Math.PI / 2, 16, 12, shape("back", "6 0 1 0 0 0", "<box><size>2 2 2</size></box>", "0 0 1")
                + shape("front", "3 0 1 0 0 0", "<box><size>0.5 0.5 0.5</size></box>", "1 0 0"));
        assertThat(pixel(renderOnce(both), 16, 8, 6)[0]).isPositive();
        assertThat(pixel(renderOnce(both), 16, 8, 6)[2]).isZero();
    }

    @Test
    void render_linkWithoutVisual_collisionDrawnInGrey() {
        String model = "<model name=\"box\"><static>true</static><pose>3 0 1 0 0 0</pose><link name=\"l\">"
                + "<collision name=\"c\"><geometry><box><size>1 1 1</size></box></geometry></collision></link></model>";
        byte[] img = renderOnce(scene(Math.PI / 2, 16, 12, model));
        // default grey 0.7 at ambient 0.4
        assertThat(pixel(img, 16, 8, 6)).containsExactly(71, 71, 71);
    }

    @Test
    void render_sameState_bitwiseSameImage() {
        World w = HuskyWorld.load();
        byte[] first;
        byte[] again;
        try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(30), false)) {
            SkidSteerDrive d = HuskyWorld.drive(r);
            RayCastCamera c = RayCastCamera.of(r, HuskyWorld.CAMERA);
            for (int k = 0; k < 1000; k++) {
                d.setTwist(0.1, 0.8);
                r.step();
            }
            first = c.newImage();
            c.render(first);
            again = c.newImage();
            c.render(again);
            assertThat(again).isEqualTo(first);
        }
        // another runner driven the same way: the same state, the same bytes
        try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(30), false)) {
            SkidSteerDrive d = HuskyWorld.drive(r);
            for (int k = 0; k < 1000; k++) {
                d.setTwist(0.1, 0.8);
                r.step();
            }
            RayCastCamera c = RayCastCamera.of(r, HuskyWorld.CAMERA);
            byte[] other = c.newImage();
            c.render(other);
            assertThat(other).isEqualTo(first);
        }
    }

    @Test
    @SuppressForbidden
    void render_afterWarmUp_allocatesNothing() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (WorldRunner r = new WorldRunner(HuskyWorld.load(), SolverSettings.subAdmm(30), false)) {
            RayCastCamera c = RayCastCamera.of(r, HuskyWorld.CAMERA, 64, 48);
            byte[] img = c.newImage();
            for (int k = 0; k < 300; k++) {
                c.render(img);
            }
            long before = mx.getCurrentThreadAllocatedBytes();
            for (int k = 0; k < 300; k++) {
                c.render(img);
            }
            assertThat(mx.getCurrentThreadAllocatedBytes() - before).as("bytes allocated by 300 frames").isLessThan(1000);
            assertThat(c.frames()).isEqualTo(600);
        }
    }

    @Test
    void camera_unknownName_namesItAndCloseMatches() {
        try (WorldRunner r = new WorldRunner(HuskyWorld.load(), SolverSettings.subAdmm(10), false)) {
            assertThatThrownBy(() -> RayCastCamera.of(r, "husky::base_link::camra")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no camera 'husky::base_link::camra'")
                    .hasMessageContaining("close matches: husky::base_link::camera");
            // model::sensor is enough when unique
            assertThat(RayCastCamera.of(r, "husky::camera").name()).isEqualTo("husky::base_link::camera");
            RayCastCamera c = RayCastCamera.of(r, HuskyWorld.CAMERA);
            assertThat(c.width()).isEqualTo(160);
            assertThat(c.height()).isEqualTo(120);
            assertThat(c.horizontalFov()).isEqualTo(1.047);
            assertThat(c.near()).isEqualTo(0.05);
            assertThat(c.updatePeriodNs()).isEqualTo(20_000_000L);
            assertThatThrownBy(() -> c.render(new byte[10])).hasMessageContaining("needs 57600 (160 x 120 x 3)");
        }
    }
}
