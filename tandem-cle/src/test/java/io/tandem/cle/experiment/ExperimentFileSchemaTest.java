package io.tandem.cle.experiment;

import static io.tandem.cle.experiment.ExperimentFileTestSupport.errors;
import static io.tandem.cle.experiment.ExperimentFileTestSupport.examples;
import static io.tandem.cle.experiment.ExperimentFileTestSupport.minimal;
import static io.tandem.cle.experiment.ExperimentFileTestSupport.replace;
import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cle.internal.json.JsonParser;
import io.tandem.cle.internal.json.JsonValue;
import io.tandem.cle.internal.json.JsonWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Schema violations, one test per kind, each with its line and column; and the shipped JSON Schema. */
class ExperimentFileSchemaTest {
    @TempDir
    Path dir;

    @Test
    void load_stringWhereNumber_namesKeyLineAndExpectation() {
        String text = replace(minimal(), "\"timeout_s\": 1", "\"timeout_s\": 1,\n  \"engines\": {\n"
                + "    \"physics\": {\"timestep_ms\": \"fast\"}\n  }");
        assertThat(errors(dir, text)).isEqualTo(dir.resolve("exp.json")
                + ":7:17: \"timestep_ms\" must be a number > 0, got \"fast\" (write the number without quotes)");
    }

    @Test
    void load_numberOutOfRange_namesTheBound() {
        String text = replace(minimal(), "\"timeout_s\": 1", "\"timeout_s\": 0");
        assertThat(errors(dir, text)).endsWith("exp.json:5:3: \"timeout_s\" must be a number > 0, got 0");
    }

    @Test
    void load_unknownKey_namesTheNearestValidKey() {
        String text = replace(minimal(), "\"timeout_s\": 1", "\"timeout_s\": 1,\n  \"engines\": {\"loop_step\": 20}");
        assertThat(errors(dir, text)).endsWith("exp.json:6:15: unknown key \"loop_step\" in \"engines\"; did you mean"
                + " \"loop_step_ms\"? (valid keys: loop_step_ms, mode, physics, brain)");
    }

    @Test
    void load_unknownTopLevelKey_namesTheNearestValidKey() {
        String text = replace(minimal(), "\"timeout_s\": 1", "\"timeout_s\": 1,\n  \"timeout\": 2");
        assertThat(errors(dir, text)).contains("exp.json:6:3: unknown key \"timeout\" in the experiment; did you mean"
                + " \"timeout_s\"?");
    }

    @Test
    void load_missingRequiredKey_namedAtTheObjectsLine() {
        String text = replace(minimal(), "{\"file\": \"world.sdf\"}", "{\n    \"visual_colors\": {}\n  }");
        assertThat(errors(dir, text)).endsWith("exp.json:3:12: \"world\" is missing the required key \"file\": the SDF"
                + " world file, relative to this experiment file.");
        String noTimeout = replace(minimal(), ",\n  \"timeout_s\": 1", "");
        assertThat(errors(dir, noTimeout)).endsWith("exp.json:1:1: the experiment is missing the required key"
                + " \"timeout_s\": how long the experiment runs, in simulated seconds (NRP's SimulationTimeout).");
    }

    @Test
    void load_valueNotInEnumeration_listsTheChoicesAndNearest() {
        String text = replace(minimal(), "\"timeout_s\": 1", "\"timeout_s\": 1,\n  \"engines\": {\"mode\": \"paralel\"}");
        assertThat(errors(dir, text)).endsWith("exp.json:6:15: \"mode\" must be one of parallel, serial, got"
                + " \"paralel\" (did you mean \"parallel\"?)");
        String builtin = replace(minimal(), "\"braitenberg\"", "\"brunell\"");
        assertThat(errors(dir, builtin)).endsWith("exp.json:4:13: \"builtin\" must be one of braitenberg, brunel, got"
                + " \"brunell\" (did you mean \"brunel\"?)");
    }

    @Test
    void load_fractionWhereInteger_rejected() {
        String text = replace(minimal(), "{\"builtin\": \"braitenberg\"}", "{\"builtin\": \"braitenberg\", \"seed\": 1.5}");
        assertThat(errors(dir, text)).endsWith("exp.json:4:39: \"seed\" must be an integer >= 0, got 1.5");
    }

    @Test
    void load_emptyArrayWhereItemsNeeded_rejected() {
        String text = replace(minimal(), "{\"builtin\": \"braitenberg\"}", "{\"populations\": []}");
        assertThat(errors(dir, text)).endsWith("exp.json:4:13: \"populations\" needs at least 1 item, got 0");
    }

    @Test
    void load_arrayItemOfWrongShape_namedWithItsIndex() {
        String text = replace(minimal(), "{\"builtin\": \"braitenberg\"}",
                "{\"populations\": [{\"name\": \"a\", \"model\": \"iaf_psc_alpha\", \"n\": 1}, 7]}");
        assertThat(errors(dir, text)).endsWith("exp.json:4:78: populations[1] must be an object, got 7");
    }

    @Test
    void load_noAlternativeMatches_describesTheAlternatives() {
        String text = replace(minimal(), "{\"builtin\": \"braitenberg\"}", "\"braitenberg\"");
        assertThat(errors(dir, text)).endsWith("exp.json:4:3: \"brain\" must be {\"builtin\": \"braitenberg\"} or"
                + " {\"populations\": [...], ...}, got \"braitenberg\"");
    }

    @Test
    void load_nullParameterValue_rejected() {
        String text = replace(minimal(), "\"timeout_s\": 1", "\"timeout_s\": 1,\n  \"transfer_functions\": [\n"
                + "    {\"class\": \"a.B\", \"params\": {\"x\": null}}\n  ]");
        assertThat(errors(dir, text)).endsWith("exp.json:7:33: \"x\" must not be null: give a value or leave the key"
                + " out");
    }

    @Test
    void load_severalViolations_reportsAllInFileOrder() {
        String text = "{\n  \"nam\": \"t\",\n  \"world\": {\"file\": 3},\n  \"brain\": {\"builtin\": \"braitenberg\"},\n"
                + "  \"timeout_s\": \"1\"\n}";
        ExperimentFileException e = org.assertj.core.api.Assertions.catchThrowableOfType(
                () -> ExperimentFileTestSupport.load(dir, text), ExperimentFileException.class);
        assertThat(e.errors()).hasSize(4);
        assertThat(e.errors().get(0)).endsWith(":1:1: the experiment is missing the required key \"name\": the"
                + " experiment's name.");
        assertThat(e.errors().get(1)).endsWith(":2:3: unknown key \"nam\" in the experiment; did you mean \"name\"?"
                + " (valid keys: $schema, name, description, parameters, world, brain, engines, timeout_s,"
                + " transfer_functions, robot, outputs, view)");
        assertThat(e.errors().get(2)).endsWith(":3:13: \"file\" must be a string, got 3");
        assertThat(e.errors().get(3)).endsWith(":5:3: \"timeout_s\" must be a number > 0, got \"1\" (write the number"
                + " without quotes)");
        assertThat(e.location().line()).isEqualTo(1);
        assertThat(e.getMessage()).isEqualTo(String.join("\n", e.errors()));
    }

    @Test
    void load_malformedJson_reportsFileLineColumn() {
        String text = replace(minimal(), "\"timeout_s\": 1", "\"timeout_s\": 1,");
        assertThat(errors(dir, text)).isEqualTo(dir.resolve("exp.json") + ":6:1: trailing comma before '}': remove the"
                + " last ',' (JSON allows no trailing commas)");
        assertThat(errors(dir, "[1]")).endsWith("exp.json:1:1: an experiment file is one JSON object, {\"name\": ...,"
                + " \"world\": ..., \"brain\": ..., \"timeout_s\": ...}; got array");
    }

    @Test
    void load_missingFile_saysSo() {
        Path missing = dir.resolve("nope.json");
        ExperimentFileException e = org.assertj.core.api.Assertions.catchThrowableOfType(
                () -> ExperimentFile.load(missing), ExperimentFileException.class);
        assertThat(e.getMessage()).isEqualTo(missing + ": no such file; give the path of an experiment .json or"
                + " .yaml file");
    }

    // ---- the shipped JSON Schema

    private static Path schemaFile() {
        return examples().resolve("experiment.schema.json");
    }

    @Test
    void experimentSchemaJson_isTheRenderingOfTheCodeSchema() throws IOException {
        String generated = JsonWriter.write(ExperimentFileSchema.toJsonSchema());
        if (Boolean.getBoolean("tandem.regenerateSchema")) {
            Files.writeString(schemaFile(), generated, StandardCharsets.UTF_8);
        }
        assertThat(Files.readString(schemaFile(), StandardCharsets.UTF_8))
                .as("examples/experiments/experiment.schema.json is out of date: rerun this test with"
                        + " -Dtandem.regenerateSchema=true to rewrite it")
                .isEqualTo(generated);
    }

    @Test
    void experimentSchemaJson_namesEveryKeyOfTheCodeSchema() throws IOException {
        JsonValue doc = JsonParser.parse(Files.readString(schemaFile(), StandardCharsets.UTF_8));
        String text = Files.readString(schemaFile(), StandardCharsets.UTF_8);
        assertThat(doc).isInstanceOf(JsonValue.JsonObject.class);
        for (String path : ExperimentFileSchema.keyPaths()) {
            String key = path.substring(path.lastIndexOf('.') + 1);
            assertThat(text).as(path).contains("\"" + key + "\": {");
        }
        assertThat(text).contains("\"$schema\": \"https://json-schema.org/draft/2020-12/schema\"");
    }
}
