package io.tandem.cle.experiment;

import static io.tandem.cle.experiment.ExperimentFileTestSupport.examples;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.cle.internal.json.JsonParser;
import io.tandem.cle.internal.json.JsonValue;
import io.tandem.cle.internal.json.JsonValue.JsonArray;
import io.tandem.cle.internal.json.JsonValue.JsonBoolean;
import io.tandem.cle.internal.json.JsonValue.JsonNumber;
import io.tandem.cle.internal.json.JsonValue.JsonObject;
import io.tandem.cle.internal.json.JsonValue.JsonString;
import io.tandem.cle.internal.json.JsonValue.Member;
import io.tandem.cle.internal.json.YamlReader;
import io.tandem.neuro.NodeModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Experiment files in YAML: the shipped husky-braitenberg.yaml is the same experiment as the
 * .json, overrides work the same, and errors name the YAML file's lines.
 */
class ExperimentFileYamlTest {
    @TempDir
    Path dir;

    private static Path json() {
        return examples().resolve("husky-braitenberg.json");
    }

    private static Path yaml() {
        return examples().resolve("husky-braitenberg.yaml");
    }

    /** Writes {@code text} as dir/{@code name} with the Husky world as dir/world.sdf; returns the file. */
    private Path write(String name, String text) {
        try {
            Path world = dir.resolve("world.sdf");
            if (!Files.exists(world)) {
                Files.copy(examples().resolve("husky_braitenberg/world.sdf"), world);
            }
            Path f = dir.resolve(name);
            Files.writeString(f, text, StandardCharsets.UTF_8);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String errors(Path file, List<String> sets) {
        String[] msg = new String[1];
        assertThatThrownBy(() -> ExperimentFile.load(file, ExperimentOverrides.parse(sets)))
                .isInstanceOfSatisfying(ExperimentFileException.class, e -> msg[0] = e.getMessage());
        return msg[0];
    }

    /** The tree as plain values without positions: Map, List, String, Double, Boolean, null. */
    private static Object plain(JsonValue v) {
        if (v instanceof JsonObject o) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (Member member : o.members().values()) {
                m.put(member.key(), plain(member.value()));
            }
            return m;
        }
        if (v instanceof JsonArray a) {
            List<Object> l = new ArrayList<>();
            for (JsonValue item : a.items()) {
                l.add(plain(item));
            }
            return l;
        }
        if (v instanceof JsonString s) {
            return s.value();
        }
        if (v instanceof JsonNumber n) {
            return n.value();
        }
        if (v instanceof JsonBoolean b) {
            return b.value();
        }
        return null;
    }

    @Test
    void parse_yamlExample_isTheJsonExamplesTreeLessSchemaKey() throws IOException {
        @SuppressWarnings("unchecked")
        Map<String, Object> fromJson = (Map<String, Object>) plain(JsonParser.parse(Files.readString(json())));
        Object fromYaml = plain(YamlReader.parse(Files.readString(yaml())));
        assertThat(fromJson.remove("$schema")).isEqualTo("experiment.schema.json");
        assertThat(fromYaml).isEqualTo(fromJson);
    }

    @Test
    void load_yamlExample_equalsTheJsonExampleInEverythingButPositions() {
        ExperimentFile j = ExperimentFile.load(json());
        ExperimentFile y = ExperimentFile.load(yaml());
        assertThat(y.source()).isEqualTo(yaml());
        assertThat(y.name()).isEqualTo(j.name()).isEqualTo("Husky Braitenberg experiment");
        assertThat(y.description()).isEqualTo(j.description()).startsWith("The NRP's reference experiment");
        assertThat(y.parameters()).isEqualTo(j.parameters());
        assertThat(y.world().file()).isEqualTo(j.world().file());
        assertThat(y.world().visualColors()).hasSize(1);
        assertThat(y.world().visualColors().get(0).model()).isEqualTo("red_screen");
        assertThat(y.world().visualColors().get(0).rgb()).containsExactly(j.world().visualColors().get(0).rgb());
        assertThat(y.engines()).isEqualTo(j.engines());
        assertThat(y.timeoutNs()).isEqualTo(j.timeoutNs());
        assertThat(y.transferFunctions()).hasSameSizeAs(j.transferFunctions());
        for (int i = 0; i < j.transferFunctions().size(); i++) {
            ExperimentFile.TransferFunctionEntry a = y.transferFunctions().get(i);
            ExperimentFile.TransferFunctionEntry b = j.transferFunctions().get(i);
            assertThat(a.className()).isEqualTo(b.className());
            assertThat(a.name()).isEqualTo(b.name());
            assertThat(a.priority()).isEqualTo(b.priority());
            assertThat(a.active()).isEqualTo(b.active());
            assertThat(a.params()).isEqualTo(b.params());
        }
        assertThat(y.robot()).isEqualTo(j.robot());
        assertThat(y.outputs()).isEqualTo(j.outputs());
        // the brain: the same nodes, and the same network once built
        assertThat(y.brain().nodes().keySet()).containsExactlyElementsOf(j.brain().nodes().keySet());
        try (BrainSpec.Built a = y.brain().build(); BrainSpec.Built b = j.brain().build()) {
            assertThat(a.network().nodeCount()).isEqualTo(b.network().nodeCount()).isEqualTo(14);
            assertThat(a.network().synapseCount()).isEqualTo(b.network().synapseCount());
            for (int id = 0; id < a.network().nodeCount(); id++) {
                assertThat(a.network().model(id)).as("node %d", id).isEqualTo(b.network().model(id));
                if (b.network().model(id).kind() != NodeModel.Kind.NEURON) {
                    continue;
                }
                for (String p : b.network().model(id).parameterNames()) {
                    assertThat(a.network().get(id, p)).as("node %d %s", id, p).isEqualTo(b.network().get(id, p));
                }
            }
        }
    }

    @Test
    void load_yamlExampleWithScreenColorBlue_recoloursTheRedScreenLikeTheJson() {
        List<String> sets = List.of("screen_color=blue");
        ExperimentFile y = ExperimentFile.load(yaml(), ExperimentOverrides.parse(sets));
        ExperimentFile j = ExperimentFile.load(json(), ExperimentOverrides.parse(sets));
        assertThat(y.parameters()).containsExactly(Map.entry("screen_color", "blue"));
        assertThat(y.world().visualColors().get(0).rgb()).containsExactly(0.0, 0.0, 1.0)
                .containsExactly(j.world().visualColors().get(0).rgb());
    }

    @Test
    void load_yamlWithBadOverride_namesTheYamlFileAndTheSubstitution() {
        String msg = errors(yaml(), List.of("screen_color=purple"));
        // visual_colors' red_screen is on line 15 of the YAML file
        assertThat(msg).contains("husky-braitenberg.yaml:15:5: ").contains("colour \"purple\" (from ${screen_color},"
                + " set by --set screen_color=purple) is not a colour");
        assertThat(errors(yaml(), List.of("colour=blue"))).contains("husky-braitenberg.yaml:9:1: --set colour=blue:"
                + " unknown parameter \"colour\"");
    }

    @Test
    void load_yamlSchemaError_reportsItsLine() {
        Path f = write("exp.yaml", "name: t\n"
                + "world:\n"
                + "  file: world.sdf\n"
                + "brain: {builtin: braitenberg}\n"
                + "timeout_s: ten\n");
        String msg = errors(f, List.of());
        assertThat(msg).startsWith(f + ":5:").contains("timeout_s").contains("\"ten\"");
        Path g = write("exp2.yml", "name: t\n"
                + "world:\n"
                + "  file: world.sdf\n"
                + "  visual_colors:\n"
                + "    husky: [1, 0]\n"
                + "brain: {builtin: braitenberg}\n"
                + "timeout_s: 1\n");
        assertThat(errors(g, List.of())).isEqualTo(g + ":5:5: \"husky\" needs at least 3 items, got 2");
    }

    @Test
    void load_minimalYamlWithParameters_substitutesLikeJson() {
        Path f = write("exp.yml", "---\n"
                + "name: t  # the name\n"
                + "description: |\n"
                + "  Two lines\n"
                + "  of text.\n"
                + "parameters:\n"
                + "  seed: 7\n"
                + "  color: green\n"
                + "world:\n"
                + "  file: world.sdf\n"
                + "  visual_colors: {red_screen: '${color}'}\n"
                + "brain:\n"
                + "  builtin: braitenberg\n"
                + "  seed: ${seed}\n"
                + "timeout_s: 0.5\n"
                + "...\n");
        ExperimentFile e = ExperimentFile.load(f, ExperimentOverrides.parse(List.of("seed=9")));
        assertThat(e.description()).isEqualTo("Two lines\nof text.\n");
        assertThat(e.parameters()).containsExactly(Map.entry("seed", 9.0), Map.entry("color", "green"));
        assertThat(e.brain().seed()).isEqualTo(9);
        assertThat(e.world().visualColors().get(0).rgb()).containsExactly(0.0, 1.0, 0.0);
        assertThat(e.timeoutNs()).isEqualTo(500_000_000L);
    }

    @Test
    void load_yamlSyntaxErrorsAndNonMapping_nameTheFileLineAndColumn() {
        Path f = write("exp.yaml", "name: t\nworld:\n\tfile: world.sdf\n");
        assertThat(errors(f, List.of())).isEqualTo(f + ":3:1: a tab in the indentation: YAML indents with spaces"
                + " only; replace the tab with spaces");
        Path g = write("exp2.yaml", "- name: t\n");
        assertThat(errors(g, List.of())).isEqualTo(g + ":1:1: an experiment file is one mapping (name: ..., world:"
                + " ..., brain: ..., timeout_s: ...); got array");
        Path h = write("exp3.yaml", "name: &n t\n");
        assertThat(errors(h, List.of())).startsWith(h + ":1:7: anchors (&name) are not supported");
    }

    @Test
    void parse_jsonFileName_stillReadsStrictJson() {
        // the same text that is fine as YAML is a JSON error in a .json file
        String text = "name: t\n";
        assertThatThrownBy(() -> ExperimentFile.parse(text, dir.resolve("exp.json"), ExperimentOverrides.none()))
                .isInstanceOf(ExperimentFileException.class).hasMessageContaining("exp.json:1:1:");
        assertThat(ExperimentFileReader.isYaml(Path.of("a/b.YAML"))).isTrue();
        assertThat(ExperimentFileReader.isYaml(Path.of("b.yml"))).isTrue();
        assertThat(ExperimentFileReader.isYaml(Path.of("b.json"))).isFalse();
        assertThat(ExperimentFileReader.isYaml(Path.of("yaml"))).isFalse();
    }
}
