package io.tandem.world.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.cosim.Participant;
import io.tandem.cosim.Registry;
import io.tandem.physics.SolverSettings;
import io.tandem.world.GazeboWorlds;
import io.tandem.world.Pose;
import io.tandem.world.World;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Cables and deformable bodies do not run distributed yet: such a world is refused before anything starts, in one line. */
class DistributedElasticBodiesTest {
    private static final World.Material RUBBER = new World.Material(1e7, 0.45, 1200);

    private static World withCableAndBeam() {
        World.Cable rope = new World.Cable("rope", 0, 0, 1, 1, 0, 1, 10, 0.02, RUBBER, 10, World.Anchor.WORLD, null, 42);
        World.Deformable beam = new World.Deformable("beam", Pose.IDENTITY, 0.3, 0.03, 0.03, 10, 2, 2, null, RUBBER, 0, 0, 1,
                1e-3, List.of(), 50);
        return GazeboWorlds.example("drop.sdf").withBodies(List.of(rope), List.of(beam));
    }

    @Test
    void unsupported_worldWithCable_oneLineNamingItsLineAndTheFix() {
        World w = withCableAndBeam();
        assertThat(DistributedPrimary.unsupported(w)).isEqualTo(w.source() + ":42: world 'drop' has cable 'rope' and 1 more"
                + " cables or deformable bodies: cables and deformable bodies do not run distributed yet; run the world"
                + " standalone (without --network-role)");
        World beamOnly = w.withBodies(List.of(), w.deformables());
        assertThat(DistributedPrimary.unsupported(beamOnly)).startsWith(w.source() + ":50: world 'drop' has deformable body"
                + " 'beam': cables");
        assertThat(DistributedPrimary.unsupported(GazeboWorlds.example("drop.sdf"))).isNull();
    }

    @Test
    void constructors_worldWithCable_refusedBeforeJoining() throws Exception {
        World w = withCableAndBeam();
        try (Registry reg = Registry.start("tandem+inproc://elastic-refused");
             Participant p = Participant.connect(reg.uri(), "drop", DistributedPrimary.NAME);
             Participant s = Participant.connect(reg.uri(), "drop", "secondary-1")) {
            assertThatThrownBy(() -> new DistributedPrimary(w, p, 1, 1_000_000_000L, System::nanoTime))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("do not run distributed yet");
            assertThatThrownBy(() -> new DistributedSecondary(w, s, SolverSettings.defaults(), System::nanoTime))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("do not run distributed yet");
        }
    }
}
