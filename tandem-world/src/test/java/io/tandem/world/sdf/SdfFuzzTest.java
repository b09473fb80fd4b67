package io.tandem.world.sdf;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.tandem.world.World;
import io.tandem.world.WorldFormatException;
import java.io.ByteArrayInputStream;

/**
 * The SDF loader on any bytes (Jazzer): a world, or a WorldFormatException whose message is one
 * line naming the file and, for anything past the XML prolog, the line; warnings likewise; never
 * another exception or error. In the test run: the seeds (the shipped worlds, in
 * SdfFuzzTestInputs) and every finding kept there; fuzzing: see README, "Fuzzing".
 */
class SdfFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void load_anyBytes_loadsOrFailsNamingFileAndLine(byte[] data) {
        try {
            World w = SdfLoader.load(new ByteArrayInputStream(data), "fuzz.sdf", warning -> assertThat(warning)
                    .doesNotContain("\n").matches("fuzz\\.sdf:[0-9]+: .+"));
            assertThat(w.models()).isNotNull();
        } catch (WorldFormatException e) {
            assertThat(e.getMessage()).doesNotContain("\n").matches("fuzz\\.sdf(:[0-9]+)?: .+");
        }
    }
}
