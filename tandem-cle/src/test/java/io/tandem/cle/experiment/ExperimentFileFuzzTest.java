package io.tandem.cle.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The experiment-file readers on any text (Jazzer): JSON and YAML give an experiment, or an
 * ExperimentFileException naming the file and the line of each problem; never another exception.
 * Seeds: the shipped experiments (ExperimentFileFuzzTestInputs).
 */
class ExperimentFileFuzzTest {
    private static void parse(byte[] data, String name) {
        String text = new String(data, StandardCharsets.UTF_8);
        try {
            assertThat(ExperimentFile.parse(text, Path.of(name), ExperimentOverrides.none())).isNotNull();
        } catch (ExperimentFileException e) {
            assertThat(e.getMessage()).contains(name);
            for (String line : e.getMessage().split("\n")) {
                assertThat(line).as("each problem names the file and line").matches(".*" + name.replace(".", "\\.") + ":[0-9]+.*");
            }
        }
    }

    @FuzzTest(maxDuration = "10s")
    void parse_anyJson_parsesOrFailsNamingFileAndLine(byte[] data) {
        parse(data, "fuzz.json");
    }

    @FuzzTest(maxDuration = "10s")
    void parse_anyYaml_parsesOrFailsNamingFileAndLine(byte[] data) {
        parse(data, "fuzz.yaml");
    }
}
