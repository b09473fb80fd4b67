package io.tandem.world;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tandem.world.sdf.SdfLoader;
import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the Gazebo conformance worlds (shared/worlds/gazebo beside the checkout); tests skip without them. */
public final class GazeboWorlds {
    private GazeboWorlds() {
    }

    /** @return the folder, or skips the calling test with the reason */
    public static Path dir() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null) {
            Path candidate = p.resolve("shared/worlds/gazebo");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
            p = p.getParent();
        }
        assumeTrue(false, "skipped: no shared/worlds/gazebo folder above " + Path.of("").toAbsolutePath()
                + " (the Gazebo conformance worlds live beside the checkout)");
        return null;
    }

    public static World load(String relative) {
        return SdfLoader.load(dir().resolve(relative), w -> { });
    }

    /**
     * @param name a file of the checkout's examples/worlds
     * @return that world
     */
    public static World example(String name) {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !p.resolve("examples/worlds").toFile().isDirectory()) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("no examples/worlds above " + Path.of("").toAbsolutePath());
        }
        return SdfLoader.load(p.resolve("examples/worlds").resolve(name), w -> { });
    }
}
