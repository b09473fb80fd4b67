package io.tandem.world.robot;

import io.tandem.physics.SolverSettings;
import io.tandem.world.HuskyWorld;
import io.tandem.world.SuppressForbidden;
import io.tandem.world.WorldRunner;
import java.util.Locale;

/**
 * One-off measurement of the camera's render time and the closed loop's robot-side cost (not a
 * test; run by hand from the repository root after {@code mvn -pl tandem-world -am test-compile}):
 * {@code java -cp tandem-world/target/classes:tandem-world/target/test-classes:tandem-physics/target/classes:tandem-cosim/target/classes:<slf4j-api jar>
 * io.tandem.world.robot.RayCastCameraMeasurement}. The Husky world, the robot turning in place so that
 * the view changes every frame, a frame every 10 physics steps (20 ms); prints the mean time per
 * frame for three image sizes and per physics step (2 ms steps, SubADMM 30).
 * Measured on the 2-core development machine (JDK 17): 64x48 0.13 ms, 160x120 0.73 ms, 320x240
 * 2.7 ms per frame; physics 0.08 to 0.1 ms per step (the red detection of tandem-cle's eye TF took 0.09 ms
 * at 160x120 when it was measured here).
 */
@SuppressForbidden // console output and System.nanoTime in a measurement tool
final class RayCastCameraMeasurement {
    private RayCastCameraMeasurement() {
    }

    public static void main(String[] args) {
        int[][] sizes = {{64, 48}, {160, 120}, {320, 240}};
        for (int round = 0; round < 2; round++) {
            System.out.println(round == 0 ? "# warm-up round" : "# measured round");
            try (WorldRunner r = new WorldRunner(HuskyWorld.load(), SolverSettings.subAdmm(30), false)) {
                SkidSteerDrive drive = HuskyWorld.drive(r);
                for (int[] size : sizes) {
                    RayCastCamera camera = RayCastCamera.of(r, HuskyWorld.CAMERA, size[0], size[1]);
                    byte[] img = camera.newImage();
                    int frames = 300;
                    long render = 0;
                    long physics = 0;
                    for (int f = 0; f < frames; f++) {
                        long t0 = System.nanoTime();
                        drive.setTwist(0, 1);
                        for (int k = 0; k < 10; k++) {
                            r.step();
                        }
                        long t1 = System.nanoTime();
                        camera.render(img);
                        long t2 = System.nanoTime();
                        physics += t1 - t0;
                        render += t2 - t1;
                    }
                    if (round == 1) {
                        System.out.println(String.format(Locale.ROOT,
                                "%dx%d: render %.3f ms/frame, physics %.3f ms/step",
                                size[0], size[1], render / 1e6 / frames, physics / 1e6 / frames / 10));
                    }
                }
            }
        }
    }
}
