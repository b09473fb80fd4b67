package io.tandem.world;

import io.tandem.world.robot.SkidSteerDrive;
import io.tandem.world.sdf.SdfLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The Husky Braitenberg experiment's world (examples/experiments/husky_braitenberg/world.sdf of the checkout). */
public final class HuskyWorld {
    public static final String[] LEFT = {"husky::front_left_wheel_joint", "husky::rear_left_wheel_joint"};
    public static final String[] RIGHT = {"husky::front_right_wheel_joint", "husky::rear_right_wheel_joint"};
    public static final String CAMERA = "husky::base_link::camera";

    private HuskyWorld() {
    }

    public static Path file() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null) {
            Path candidate = p.resolve("examples/experiments/husky_braitenberg/world.sdf");
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
            p = p.getParent();
        }
        throw new IllegalStateException("no examples/experiments/husky_braitenberg/world.sdf above "
                + Path.of("").toAbsolutePath());
    }

    /** @return the world; fails on any loader warning (the example must load cleanly) */
    public static World load() {
        List<String> warnings = new ArrayList<>();
        World w = SdfLoader.load(file(), warnings::add);
        if (!warnings.isEmpty()) {
            throw new IllegalStateException("warnings loading the Husky world: " + warnings);
        }
        return w;
    }

    /** The yaw of the robot's chassis, rad. */
    public static double yaw(WorldRunner r) {
        Pose p = r.modelPose("husky");
        return Math.atan2(2 * (p.qw() * p.qz() + p.qx() * p.qy()), 1 - 2 * (p.qy() * p.qy() + p.qz() * p.qz()));
    }

    public static SkidSteerDrive drive(WorldRunner r) {
        return SkidSteerDrive.builder(r).leftWheels(LEFT).rightWheels(RIGHT).nrpHusky().build();
    }
}
