package io.tandem.world.robot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tandem.physics.SolverSettings;
import io.tandem.world.HuskyWorld;
import io.tandem.world.Pose;
import io.tandem.world.WorldRunner;
import org.junit.jupiter.api.Test;

class SkidSteerDriveTest {

    private static void run(WorldRunner r, SkidSteerDrive d, double linear, double angular, int steps) {
        for (int k = 0; k < steps; k++) {
            d.setTwist(linear, angular);
            r.step();
        }
    }

    @Test
    void wheelSpeeds_nrpConstants_mottfFormula() {
        // mot_tf.py: left = (forward - rot * 0.275) * 7, right = (forward + rot * 0.275) * 7
        assertThat(SkidSteerDrive.leftWheelSpeed(1, 0.5, 0.275, 7)).isEqualTo((1 - 0.5 * 0.275) * 7);
        assertThat(SkidSteerDrive.rightWheelSpeed(1, 0.5, 0.275, 7)).isEqualTo((1 + 0.5 * 0.275) * 7);
        try (WorldRunner r = new WorldRunner(HuskyWorld.load(), SolverSettings.subAdmm(30), false)) {
            SkidSteerDrive d = HuskyWorld.drive(r);
            assertThat(d.halfTrack()).isEqualTo(0.275);
            assertThat(d.gain()).isEqualTo(7);
            d.setTwist(0.2, -1);
            assertThat(d.leftSpeed()).isEqualTo((0.2 + 0.275) * 7);
            assertThat(d.rightSpeed()).isEqualTo((0.2 - 0.275) * 7);
            // every wheel of a side gets its side's speed
            for (String j : HuskyWorld.LEFT) {
                assertThat(r.jointVelocityCommand(r.jointHandle(j))).isEqualTo(d.leftSpeed());
            }
            for (String j : HuskyWorld.RIGHT) {
                assertThat(r.jointVelocityCommand(r.jointHandle(j))).isEqualTo(d.rightSpeed());
            }
        }
    }

    @Test
    void setTwist_equalWheelSpeeds_drivesStraightAtWheelSpeedTimesRadius() {
        try (WorldRunner r = new WorldRunner(HuskyWorld.load(), SolverSettings.subAdmm(30), false)) {
            SkidSteerDrive d = HuskyWorld.drive(r);
            run(r, d, 0, 0, 100);
            Pose start = r.modelPose("husky");
            // 0.5 m/s at NRP's gain: 3.5 rad/s on 0.165 m wheels, 0.5775 m/s; 1 s to speed up, 2 s measured
            run(r, d, 0.5, 0, 500);
            Pose mid = r.modelPose("husky");
            run(r, d, 0.5, 0, 1000);
            Pose end = r.modelPose("husky");
            // it faces -x (yaw pi): forward is -x
            assertThat((mid.x() - end.x()) / 2.0).as("speed, m/s").isCloseTo(3.5 * 0.165, within(0.01));
            assertThat(end.y() - start.y()).as("sideways drift").isCloseTo(0, within(0.005));
            assertThat(HuskyWorld.yaw(r)).as("heading").isCloseTo(Math.PI, within(0.005));
            assertThat(r.jointVelocity(HuskyWorld.LEFT[0])).isCloseTo(3.5, within(0.01));
            assertThat(r.jointVelocity(HuskyWorld.RIGHT[1])).isCloseTo(3.5, within(0.01));
            // still on its wheels
            assertThat(end.z()).isCloseTo(0, within(0.01));
        }
    }

    @Test
    void setTwist_oppositeWheelSpeeds_turnsInPlace() {
        try (WorldRunner r = new WorldRunner(HuskyWorld.load(), SolverSettings.subAdmm(30), false)) {
            SkidSteerDrive d = HuskyWorld.drive(r);
            run(r, d, 0, 0, 100);
            Pose start = r.modelPose("husky");
            double yaw0 = HuskyWorld.yaw(r);
            // left = -right = -1.925 rad/s: wheels roll at 0.32 m/s along the track, sliding sideways on the ground
            run(r, d, 0, 1, 1500);
            assertThat(r.jointVelocityCommand(r.jointHandle(HuskyWorld.LEFT[0]))).isEqualTo(-0.275 * 7);
            double turned = HuskyWorld.yaw(r) - yaw0;
            if (turned < 0) {
                turned += 2 * Math.PI;
            }
            // positive angular speed turns left (counter-clockwise), by about 1.8 rad in 3 s: slower than
            // the 1.16 rad/s of rolling without slip, as skid steering is
            assertThat(turned).isBetween(1.2, 3.4);
            Pose end = r.modelPose("husky");
            assertThat(Math.hypot(end.x() - start.x(), end.y() - start.y())).as("centre drift, m").isLessThan(0.01);
            // and back the other way
            run(r, d, 0, -1, 1500);
            double back = HuskyWorld.yaw(r) - yaw0;
            assertThat(Math.abs(Math.atan2(Math.sin(back), Math.cos(back)))).isLessThan(0.2);
        }
    }

    @Test
    void builder_badWheelsOrConstants_helpfulErrors() {
        try (WorldRunner r = new WorldRunner(HuskyWorld.load(), SolverSettings.subAdmm(10), false)) {
            assertThatThrownBy(() -> SkidSteerDrive.builder(r).leftWheels("husky::front_left_wheel"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no joint 'husky::front_left_wheel'")
                    .hasMessageContaining("close matches: husky::front_left_wheel_joint");
            assertThatThrownBy(() -> SkidSteerDrive.builder(r).leftWheels(HuskyWorld.LEFT).rightWheels(HuskyWorld.RIGHT).build())
                    .hasMessageContaining("nrpHusky()");
            assertThatThrownBy(() -> SkidSteerDrive.builder(r).leftWheels(HuskyWorld.LEFT).rightWheels(HuskyWorld.LEFT))
                    .hasMessageContaining("given twice");
            assertThatThrownBy(() -> SkidSteerDrive.builder(r).leftWheels(HuskyWorld.LEFT).nrpHusky().build())
                    .hasMessageContaining("0 right");
            assertThatThrownBy(() -> SkidSteerDrive.builder(r).halfTrack(-1)).hasMessageContaining("half track");
            SkidSteerDrive exact = SkidSteerDrive.builder(r).leftWheels(HuskyWorld.LEFT).rightWheels(HuskyWorld.RIGHT)
                    .halfTrack(0.275).wheelRadius(0.165).build();
            assertThat(exact.gain()).isEqualTo(1 / 0.165);
        }
    }
}
