package io.tandem.world.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.world.RobotJointsTest;
import io.tandem.world.World;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;

class WorldDigestTest {
    @Test
    void of_velocityMotor_changesTheDigest() {
        // a motor changes the world's digest (a secondary with another world is refused); its absence does not
        World w = RobotJointsTest.parse(RobotJointsTest.wheel("<effort>5</effort><velocity>3</velocity>",
                "<tandem:velocity_motor/>"), new ArrayList<>());
        World plain = RobotJointsTest.parse(RobotJointsTest.wheel("<effort>5</effort><velocity>3</velocity>", ""),
                new ArrayList<>());
        assertThat(WorldDigest.of(w)).isNotEqualTo(WorldDigest.of(plain));
        assertThat(WorldDigest.of(plain)).isEqualTo(WorldDigest.of(RobotJointsTest.parse(
                RobotJointsTest.wheel("<effort>5</effort><velocity>3</velocity>", ""), new ArrayList<>())));
    }
}
