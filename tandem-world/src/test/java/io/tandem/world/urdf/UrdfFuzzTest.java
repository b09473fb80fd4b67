package io.tandem.world.urdf;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tandem.world.World;
import io.tandem.world.WorldFormatException;
import java.io.ByteArrayInputStream;

/**
 * The URDF loader on any bytes (Jazzer): a world, or a WorldFormatException whose message is one
 * line naming the file and, past the XML prolog, the line; warnings likewise; never another
 * exception or error. In the test run: the seeds (the shipped robots, in UrdfFuzzTestInputs) and
 * every finding kept there; fuzzing: see README, "Fuzzing".
 */
class UrdfFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void load_anyBytes_loadsOrFailsNamingFileAndLine(byte[] data) {
        try {
            World w = UrdfLoader.load(new ByteArrayInputStream(data), "fuzz.urdf", warning -> assertThat(warning)
                    .doesNotContain("\n").matches("fuzz\\.urdf:[0-9]+: .+"));
            assertThat(w.models()).hasSize(1);
        } catch (WorldFormatException e) {
            assertThat(e.getMessage()).doesNotContain("\n").matches("fuzz\\.urdf(:[0-9]+)?: .+");
        }
    }
}
