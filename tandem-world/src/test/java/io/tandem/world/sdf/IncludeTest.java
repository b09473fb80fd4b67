package io.tandem.world.sdf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.world.World;
import io.tandem.world.WorldFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SDF {@code <include>}: model:// through the model path (a model folder with model.config), a
 * relative path, the include's name, pose and static overriding the model's, nested includes; and
 * errors naming the file (the included one where the mistake is) and the line.
 */
class IncludeTest {
    @TempDir
    Path tmp;

    private static final String BOX = """
            <?xml version="1.0"?>
            <sdf version="1.9">
              <model name="box_robot">
                <pose>0 0 5 0 0 0</pose>
                <link name="body">
                  <collision name="c"><geometry><box><size>1 1 1</size></box></geometry></collision>
                </link>
              </model>
            </sdf>
            """;

    private Path models() throws IOException {
        Path box = Files.createDirectories(tmp.resolve("models/box_robot"));
        Files.writeString(box.resolve("model.config"), """
                <?xml version="1.0"?>
                <model><name>box_robot</name><sdf version="1.6">old.sdf</sdf><sdf version="1.9">model.sdf</sdf></model>
                """);
        Files.writeString(box.resolve("model.sdf"), BOX);
        Path arm = Files.createDirectories(tmp.resolve("models/cart"));
        Files.writeString(arm.resolve("model.sdf"), """
                <sdf version="1.9">
                  <model name="cart">
                    <link name="chassis"/>
                    <include><uri>model://box_robot</uri><name>load</name><pose>0 0 1 0 0 0</pose></include>
                  </model>
                </sdf>
                """);
        return tmp.resolve("models");
    }

    private World load(String worldBody, List<Path> modelPath) throws IOException {
        Path w = tmp.resolve("world.sdf");
        Files.writeString(w, "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n<world name=\"w\">\n" + worldBody
                + "\n</world>\n</sdf>\n");
        return SdfLoader.load(w, warning -> { }, modelPath);
    }

    @Test
    void include_modelUriRelativePathAndOverrides_loadTheModelAsNamedAndPlaced() throws IOException {
        Path models = models();
        World w = load("""
                <include><uri>model://box_robot</uri><name>a</name><pose>1 0 0.5 0 0 0</pose></include>
                <include><uri>model://box_robot/</uri><name>b</name><static>true</static></include>
                <include><uri>models/box_robot</uri><name>c</name></include>
                <include><uri>model://cart</uri></include>
                """, List.of(tmp.resolve("elsewhere"), models));
        assertThat(w.models()).extracting(World.Model::name).containsExactly("a", "b", "c", "cart");
        World.Model a = w.models().get(0);
        assertThat(new double[] {a.pose().x(), a.pose().z()}).containsExactly(1, 0.5);
        assertThat(a.isStatic()).isFalse();
        World.Model b = w.models().get(1);
        assertThat(b.pose().z()).isEqualTo(5);
        assertThat(b.isStatic()).isTrue();
        assertThat(w.models().get(2).links()).extracting(World.Link::name).containsExactly("body");
        // nested: the cart's include is a nested model named by the include, placed in the cart
        World.Model cart = w.models().get(3);
        assertThat(cart.links()).extracting(World.Link::name).containsExactly("chassis", "load::body");
        assertThat(cart.links().get(1).pose().z()).isEqualTo(1);
    }

    @Test
    void include_missingModelOrFuelUrl_refusedNamingTheUriAndTheFix() throws IOException {
        Path models = models();
        assertThatThrownBy(() -> load("<include><uri>model://nope</uri></include>", List.of(models)))
                .isInstanceOf(WorldFormatException.class)
                .hasMessage(tmp.resolve("world.sdf") + ":4: cannot find model://nope: no folder 'nope' in [" + models
                        + "]; set GZ_SIM_RESOURCE_PATH to the folder that holds it");
        assertThatThrownBy(() -> load("<include>\n<uri>https://fuel.gazebosim.org/1.0/OpenRobotics/models/Sun</uri>"
                + "</include>", List.of(models))).hasMessageContaining("world.sdf:5: https://fuel.gazebosim.org")
                .hasMessageContaining("gz fuel download");
        assertThatThrownBy(() -> load("<include><uri>no/such/dir</uri></include>", List.of()))
                .hasMessageContaining("cannot find 'no/such/dir'");
        // a device would be read for ever
        assertThatThrownBy(() -> load("<include><uri>/dev/zero</uri></include>", List.of()))
                .hasMessageContaining("'/dev/zero' names /dev/zero, which is not a regular file");
        assertThatThrownBy(() -> load("<include><uri>model:///etc</uri></include>", List.of(models)))
                .hasMessageContaining("names no model");
    }

    @Test
    void include_mistakeInTheIncludedFile_namedAtThatFilesLine() throws IOException {
        Path models = models();
        Path bad = Files.createDirectories(models.resolve("bad"));
        Files.writeString(bad.resolve("model.sdf"), "<sdf version=\"1.9\">\n<model name=\"bad\">\n<link name=\"l\">\n"
                + "<collision name=\"c\"><geometry><sphere><radius>-1</radius></sphere></geometry></collision>\n"
                + "</link>\n</model>\n</sdf>\n");
        assertThatThrownBy(() -> load("<include><uri>model://bad</uri></include>", List.of(models)))
                .hasMessageStartingWith(bad.resolve("model.sdf") + ":4: ");
    }

    @Test
    void include_ofItself_refusedAsACycle() throws IOException {
        Path self = Files.createDirectories(tmp.resolve("models/self"));
        Files.writeString(self.resolve("model.sdf"), "<sdf version=\"1.9\"><model name=\"self\">"
                + "<include><uri>model://self</uri></include></model></sdf>");
        assertThatThrownBy(() -> load("<include><uri>model://self</uri></include>", List.of(tmp.resolve("models"))))
                .hasMessageContaining("includes nested 16 deep: does a model include itself?");
    }

    @Test
    void modelPath_environment_gzThenIgnitionThenSdfPath() {
        assertThat(IncludeResolver.modelPath(Map.of("GZ_SIM_RESOURCE_PATH", "/a:/b", "SDF_PATH", "/c",
                "IGN_GAZEBO_RESOURCE_PATH", ":/i:"))).containsExactly(Path.of("/a"), Path.of("/b"), Path.of("/i"),
                Path.of("/c"));
        assertThat(IncludeResolver.modelPath(Map.of())).isEmpty();
    }

    @Test
    void include_warningsForUnsupportedPlacementFrame_named() throws IOException {
        Path models = models();
        Path w = tmp.resolve("world.sdf");
        Files.writeString(w, "<sdf version=\"1.9\">\n<world name=\"w\">\n<include><uri>model://box_robot</uri>\n"
                + "<placement_frame>body</placement_frame></include>\n</world>\n</sdf>\n");
        List<String> warnings = new ArrayList<>();
        SdfLoader.load(w, warnings::add, List.of(models));
        assertThat(warnings).contains(w + ":4: <placement_frame> is not supported: the include's <pose> places the"
                + " model frame");
    }
}
