package io.tandem.world.sdf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tandem.world.GazeboWorlds;
import io.tandem.world.Geometry;
import io.tandem.world.World;
import io.tandem.world.WorldFormatException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class SdfLoaderTest {

    private static World parse(String sdf, List<String> warnings) {
        return SdfLoader.load(new ByteArrayInputStream(sdf.getBytes(StandardCharsets.UTF_8)), "t.sdf", warnings::add);
    }

    private static String world(String body) {
        return "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n<world name=\"w\">\n" + body + "\n</world>\n</sdf>\n";
    }

    @Test
    void load_everyGazeboWorld_loadsUnchanged() throws IOException {
        Path dir = GazeboWorlds.dir();
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(p -> p.toString().endsWith(".sdf")).sorted().toList();
        }
        assertThat(files).hasSizeGreaterThanOrEqualTo(12);
        for (Path f : files) {
            List<String> warnings = new ArrayList<>();
            World w = SdfLoader.load(f, warnings::add);
            assertThat(w.models()).as(f.toString()).isNotEmpty();
            assertThat(w.levelPlugin()).as(f.toString()).isTrue();
            // every warning names the file and a line
            for (String warning : warnings) {
                assertThat(warning).startsWith(f + ":").matches("(?s).*:\\d+: .*");
            }
        }
    }

    @Test
    void load_testLevels_levelsPerformersAndTiles() {
        World w = GazeboWorlds.load("test/levels.sdf");
        assertThat(w.name()).isEqualTo("levels");
        assertThat(w.levels()).extracting(World.Level::name).containsExactly("level1", "level2", "level3", "level4", "level5");
        World.Level l1 = w.levels().get(0);
        assertThat(l1.x()).isEqualTo(40);
        assertThat(l1.z()).isEqualTo(2.5);
        assertThat(l1.sizeX()).isEqualTo(30);
        assertThat(l1.buffer()).isEqualTo(5);
        assertThat(l1.refs()).containsExactly("tile_1");
        assertThat(w.performers()).extracting(World.Performer::name).containsExactly("perf_sphere", "perf_box");
        assertThat(w.performers().get(0).sizeX()).isEqualTo(2);
        World.Model tile0 = w.model("tile_0").orElseThrow();
        assertThat(tile0.isStatic()).isTrue();
        assertThat(tile0.links().get(0).collisions()).hasSize(12);
        // <sphere>1</sphere> without <radius>: SDF's default radius 1
        assertThat(w.model("sphere").orElseThrow().links().get(0).collisions().get(0).geometry())
                .isEqualTo(new Geometry.Sphere(1));
    }

    @Test
    void load_diffDriveVehicle_jointsResolvedInWorld_pluginRead() {
        List<String> warnings = new ArrayList<>();
        World w = SdfLoader.load(GazeboWorlds.dir().resolve("examples/levels.sdf"), warnings::add);
        World.Model red = w.model("vehicle_red").orElseThrow();
        assertThat(red.links()).extracting(World.Link::name).contains("chassis", "left_wheel", "right_wheel", "caster");
        World.Joint left = red.joints().stream().filter(j -> j.name().equals("left_wheel_joint")).findFirst().orElseThrow();
        assertThat(left.kind()).isEqualTo(World.JointKind.REVOLUTE);
        assertThat(left.parent()).isEqualTo("chassis");
        assertThat(left.lower()).isEqualTo(Double.NEGATIVE_INFINITY);
        // the wheel's axis is its z, turned by the wheel link's roll of -pi/2: the world y axis
        assertThat(Math.abs(left.axisY())).isCloseTo(1, within(1e-6));
        // the joint sits at the wheel link's origin (relative to the child by default)
        World.Link wheel = red.links().stream().filter(l -> l.name().equals("left_wheel")).findFirst().orElseThrow();
        assertThat(left.pose().x()).isCloseTo(wheel.pose().x(), within(1e-12));
        // the DiffDrive plugin is read (GazeboControllersTest drives it), not skipped
        assertThat(red.controllers()).hasSize(1).first().isInstanceOf(World.DiffDrive.class);
        assertThat(warnings).noneMatch(s -> s.contains("DiffDrive") && s.contains("not supported"));
    }

    @Test
    void load_relativeToAndNestedModels_resolved() {
        World w = parse(world("""
                <model name="base"><pose>1 0 0 0 0 1.5707963267948966</pose>
                  <frame name="f"><pose>0 2 0 0 0 0</pose></frame>
                  <link name="a"><pose relative_to="f">1 0 0 0 0 0</pose></link>
                  <model name="inner"><pose>0 0 3 0 0 0</pose><link name="b"/></model>
                  <joint name="j" type="revolute"><parent>a</parent><child>inner::b</child>
                    <axis><xyz expressed_in="__model__">1 0 0</xyz></axis></joint>
                </model>
                <model name="next"><pose relative_to="base">0 0 1 0 0 0</pose><link name="c"/></model>
                """), new ArrayList<>());
        World.Model base = w.model("base").orElseThrow();
        World.Link a = base.links().get(0);
        // model turned 90 degrees about z: model (1, 2, 0) is world (1 - 2, 1, 0)
        assertThat(a.pose().x()).isCloseTo(-1, within(1e-12));
        assertThat(a.pose().y()).isCloseTo(1, within(1e-12));
        assertThat(base.links().get(1).name()).isEqualTo("inner::b");
        assertThat(base.links().get(1).pose().z()).isCloseTo(3, within(1e-12));
        World.Joint j = base.joints().get(0);
        assertThat(j.child()).isEqualTo("inner::b");
        assertThat(j.axisY()).isCloseTo(1, within(1e-12));
        assertThat(w.model("next").orElseThrow().pose().z()).isCloseTo(1, within(1e-12));
        assertThat(w.model("next").orElseThrow().pose().x()).isCloseTo(1, within(1e-12));
    }

    @Test
    void load_defaults_sdfValues() {
        World w = parse(world("<model name=\"m\"><link name=\"l\"><collision name=\"c\"><geometry><box/></geometry></collision></link></model>"),
                new ArrayList<>());
        assertThat(w.gravityZ()).isEqualTo(-9.8);
        assertThat(w.stepSizeNs()).isEqualTo(1_000_000);
        World.Link l = w.models().get(0).links().get(0);
        assertThat(l.inertial().mass()).isEqualTo(1);
        assertThat(l.collisions().get(0).geometry()).isEqualTo(new Geometry.Box(1, 1, 1));
        assertThat(l.collisions().get(0).friction()).isEqualTo(1);
    }

    @Test
    void load_unsupportedElements_reportedOnceWithLineAndSkipped() {
        List<String> warnings = new ArrayList<>();
        World w = parse(world("""
                <model name="m"><link name="l">
                  <collision name="c1"><geometry><heightmap><uri>a.png</uri></heightmap></geometry></collision>
                  <collision name="c2"><geometry><heightmap><uri>b.png</uri></heightmap></geometry></collision>
                  <collision name="c3"><geometry><sphere><radius>0.5</radius></sphere></geometry></collision>
                </link></model>
                """), warnings);
        assertThat(w.models().get(0).links().get(0).collisions()).extracting(World.Collision::name).containsExactly("c3");
        // (an <include> of a Fuel URL was skipped here too; includes are read now: IncludeTest)
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).startsWith("t.sdf:5: ").contains("<heightmap>");
    }

    @Test
    void load_badInput_errorNamesFileLineAndFix() {
        assertThatThrownBy(() -> parse("<sdf version=\"1.9\"><world name=\"w\"><model name=\"m\">", new ArrayList<>()))
                .isInstanceOf(WorldFormatException.class).hasMessageStartingWith("t.sdf:1: not well-formed XML");
        assertThatThrownBy(() -> parse(world("<model name=\"m\"><pose>0 0 x 0 0 0</pose></model>"), new ArrayList<>()))
                .hasMessageStartingWith("t.sdf:4: ").hasMessageContaining("<pose> needs a number, got 'x'");
        assertThatThrownBy(() -> parse(world("<model name=\"m\"><link name=\"a\"/>\n<joint name=\"j\" type=\"screw\">"
                + "<parent>a</parent><child>a</child></joint></model>"), new ArrayList<>()))
                .hasMessageStartingWith("t.sdf:5: ").hasMessageContaining("'screw'");
        assertThatThrownBy(() -> parse(world("<model name=\"m\"><link name=\"a\"/>\n<joint name=\"j\" type=\"fixed\">"
                + "<parent>world</parent><child>b</child></joint></model>"), new ArrayList<>()))
                .hasMessageContaining("child link 'b' is not a link of this model (links: a)");
        assertThatThrownBy(() -> parse(world("<model name=\"m\"/>\n<model name=\"m\"/>"), new ArrayList<>()))
                .hasMessageStartingWith("t.sdf:5: ").hasMessageContaining("unique");
        assertThatThrownBy(() -> parse(world("<model name=\"m\"><link name=\"a\"><inertial><mass>0</mass></inertial></link></model>"),
                new ArrayList<>())).hasMessageContaining("mass must be > 0");
        assertThatThrownBy(() -> SdfLoader.load(Path.of("no/such.sdf"), w -> { }))
                .hasMessageContaining("no/such.sdf: no such file");
        assertThatThrownBy(() -> parse("<robot name=\"r\"/>", new ArrayList<>())).hasMessageContaining("expected <sdf>");
    }

    /** Numbers that read as numbers but are no physics: each refused at its line, with the fix. */
    @Test
    void load_nonFiniteOrAbsurdNumbers_errorNamesLineAndFix() {
        String sphere = "<model name=\"m\"><link name=\"a\">\n<collision name=\"c\"><geometry><sphere><radius>%s</radius></sphere>"
                + "</geometry></collision></link></model>";
        assertThatThrownBy(() -> parse(world(String.format(java.util.Locale.ROOT, sphere, "Infinity")), new ArrayList<>()))
                .isInstanceOf(WorldFormatException.class).hasMessageStartingWith("t.sdf:5: ")
                .hasMessageContaining("<radius> is Infinity; give a finite number");
        assertThatThrownBy(() -> parse(world("<model name=\"m\"><pose>0 0 -Infinity 0 0 0</pose></model>"), new ArrayList<>()))
                .hasMessageStartingWith("t.sdf:4: ").hasMessageContaining("-Infinity; give a finite number");
        for (String huge : new String[] {"1e11", "1e308"}) {
            assertThatThrownBy(() -> parse(world("<model name=\"m\"><link name=\"a\">\n<collision name=\"c\"><geometry><box><size>"
                    + huge + " 1 1</size></box></geometry></collision></link></model>"), new ArrayList<>()))
                    .hasMessageStartingWith("t.sdf:5: ").hasMessageContaining("at most 1000000.0 m")
                    .hasMessageContaining("use a <plane>");
        }
        String physics = "<physics name=\"p\" type=\"tandem\">\n<max_step_size>%s</max_step_size></physics>";
        for (String step : new String[] {"1e300", "1e-12", "0"}) {
            assertThatThrownBy(() -> parse(world(String.format(java.util.Locale.ROOT, physics, step)), new ArrayList<>()))
                    .hasMessageStartingWith("t.sdf:5: ").hasMessageContaining("max_step_size must be between 1e-9 s");
        }
        assertThatThrownBy(() -> parse(world("<physics name=\"p\" type=\"tandem\">\n<real_time_factor>-1</real_time_factor></physics>"),
                new ArrayList<>())).hasMessageStartingWith("t.sdf:5: ").hasMessageContaining("real_time_factor must be >= 0");
    }

    /** A level's reference to a model the world lacks was ignored in silence; now a warning at the level's line. */
    @Test
    void load_levelRefToMissingModel_warnsWithLine() {
        List<String> warnings = new ArrayList<>();
        World w = parse(world("<model name=\"box\"><static>true</static></model>\n"
                + "<plugin name=\"gz::sim\" filename=\"dummy\">\n<level name=\"l1\"><pose>0 0 0 0 0 0</pose>"
                + "<geometry><box><size>2 2 2</size></box></geometry><ref>box</ref><ref>bxo</ref></level></plugin>"), warnings);
        assertThat(w.levels()).hasSize(1);
        assertThat(warnings).containsExactly("t.sdf:6: level 'l1' refers to model 'bxo', which this world does not have:"
                + " that <ref> loads nothing (check the name)");
    }

    /** A moving link's inertia must be positive definite; zero and negative moments were clamped silently. */
    @Test
    void load_degenerateInertiaOfMovingLink_refusedStaticAccepted() {
        String link = "<link name=\"a\"><inertial><mass>1</mass>\n<inertia><ixx>%s</ixx><iyy>1</iyy><izz>1</izz>"
                + "<ixy>%s</ixy></inertia></inertial></link>";
        for (String[] bad : new String[][] {{"0", "0"}, {"-1", "0"}, {"1", "2"}}) {
            assertThatThrownBy(() -> parse(world("<model name=\"m\">" + String.format(java.util.Locale.ROOT, link, bad[0], bad[1]) + "</model>"),
                    new ArrayList<>()))
                    .hasMessageStartingWith("t.sdf:5: ").hasMessageContaining("link 'a': the inertia tensor is not positive definite")
                    .hasMessageContaining("or make the model static");
        }
        World w = parse(world("<model name=\"m\"><static>true</static>" + String.format(java.util.Locale.ROOT, link, "0", "0") + "</model>"),
                new ArrayList<>());
        assertThat(w.models()).hasSize(1);
        World ok = parse(world("<model name=\"m\">" + String.format(java.util.Locale.ROOT, link, "2", "0.5") + "</model>"), new ArrayList<>());
        assertThat(ok.models().get(0).links().get(0).inertial().ixy()).isEqualTo(0.5);
    }
}
