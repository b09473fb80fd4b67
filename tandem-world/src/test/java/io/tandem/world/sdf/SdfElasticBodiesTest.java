package io.tandem.world.sdf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tandem.world.World;
import io.tandem.world.WorldFormatException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tandem's SDF extension elements {@code <tandem:cable>} and {@code <tandem:deformable>}: read, defaulted, refused at their line. */
class SdfElasticBodiesTest {
    /** two models: a one-link ball and a two-link arm; then the body of each test from line 6 */
    private static final String MODELS = "<model name=\"ball\"><link name=\"b\"/></model>\n"
            + "<model name=\"arm\"><link name=\"base\"/><link name=\"hand\"/></model>\n";
    /** a valid cable, lines 6 to 13 */
    private static final String CABLE = """
            <tandem:cable name="rope">
              <from>0 0 1</from>
              <to>2 0 1</to>
              <segments>40</segments>
              <diameter>0.02</diameter>
              <material><youngs_modulus>1e7</youngs_modulus><poisson_ratio>0.45</poisson_ratio><density>1200</density></material>
              <attach end="start" model="arm" link="hand"/>
            </tandem:cable>""";
    /** a valid deformable body, lines 6 to 15 (14 to 23 after the cable) */
    private static final String DEFORMABLE = """
            <tandem:deformable name="beam">
              <pose>0.5 0 0.4 0 0 0</pose>
              <box><size>0.3 0.03 0.03</size><cells>20 2 2</cells></box>
              <material><youngs_modulus>1e6</youngs_modulus><poisson_ratio>0.3</poisson_ratio><density>1000</density></material>
              <rayleigh alpha="0.5" beta="0.001"/>
              <blocks>4</blocks>
              <node_radius>0.002</node_radius>
              <weld model="arm" link="hand"><min>0.34 -1 -1</min><max>0.36 1 1</max></weld>
              <weld><min>0.64 -1 -1</min><max>0.66 1 1</max></weld>
            </tandem:deformable>""";

    private static World parse(String body, List<String> warnings) {
        return SdfLoader.load(new ByteArrayInputStream(world(body).getBytes(StandardCharsets.UTF_8)), "t.sdf", warnings::add);
    }

    private static String world(String body) {
        return "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\" xmlns:tandem=\"https://tandem.io/sdf\">\n<world name=\"w\">\n"
                + MODELS + body + "\n</world>\n</sdf>\n";
    }

    /** Loading {@code body} fails with one line starting {@code t.sdf:LINE: } and holding every word. */
    private static void assertRefused(String body, int line, String... words) {
        assertThatThrownBy(() -> parse(body, new ArrayList<>())).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith("t.sdf:" + line + ": ").hasMessageNotContaining("\n")
                .satisfies(e -> assertThat(e.getMessage()).contains(words));
    }

    @Test
    void load_cableAndDeformable_everyValueRead() {
        List<String> warnings = new ArrayList<>();
        World w = parse(CABLE.replace("<attach end=\"start\" model=\"arm\" link=\"hand\"/>",
                "<segments_per_subsystem>8</segments_per_subsystem><attach end=\"start\" model=\"arm\" link=\"hand\"/>"
                        + "<attach end=\"end\"/>") + "\n" + DEFORMABLE, warnings);
        assertThat(warnings).isEmpty();
        assertThat(w.cables()).hasSize(1);
        World.Cable c = w.cables().get(0);
        assertThat(c.name()).isEqualTo("rope");
        assertThat(new double[] {c.fromX(), c.fromY(), c.fromZ(), c.toX(), c.toY(), c.toZ()}).containsExactly(0, 0, 1, 2, 0, 1);
        assertThat(c.segments()).isEqualTo(40);
        assertThat(c.diameter()).isEqualTo(0.02);
        assertThat(c.material()).isEqualTo(new World.Material(1e7, 0.45, 1200));
        assertThat(c.segmentsPerSubsystem()).isEqualTo(8);
        assertThat(c.start()).isEqualTo(new World.Anchor("arm", "hand"));
        assertThat(c.end()).isEqualTo(World.Anchor.WORLD);
        assertThat(c.line()).isEqualTo(6);
        World.Deformable d = w.deformables().get(0);
        assertThat(d.name()).isEqualTo("beam");
        assertThat(d.pose().x()).isEqualTo(0.5);
        assertThat(d.pose().z()).isEqualTo(0.4);
        assertThat(new double[] {d.sizeX(), d.sizeY(), d.sizeZ()}).containsExactly(0.3, 0.03, 0.03);
        assertThat(new int[] {d.cellsX(), d.cellsY(), d.cellsZ()}).containsExactly(20, 2, 2);
        assertThat(d.meshFile()).isNull();
        assertThat(d.material()).isEqualTo(new World.Material(1e6, 0.3, 1000));
        assertThat(d.rayleighAlpha()).isEqualTo(0.5);
        assertThat(d.rayleighBeta()).isEqualTo(0.001);
        assertThat(d.blocks()).isEqualTo(4);
        assertThat(d.nodeRadius()).isEqualTo(0.002);
        assertThat(d.welds()).containsExactly(new World.NodeWeld(new World.Anchor("arm", "hand"), 0.34, -1, -1, 0.36, 1, 1),
                new World.NodeWeld(World.Anchor.WORLD, 0.64, -1, -1, 0.66, 1, 1));
        assertThat(d.line()).isEqualTo(14);
    }

    @Test
    void load_optionalChildrenLeftOut_defaults() {
        World w = parse(CABLE.replace("<attach end=\"start\" model=\"arm\" link=\"hand\"/>", "")
                + "\n" + DEFORMABLE.replaceAll("(?m)^\\s*<(pose|rayleigh|blocks|node_radius|weld).*$", ""), new ArrayList<>());
        World.Cable c = w.cables().get(0);
        assertThat(c.segmentsPerSubsystem()).isEqualTo(10);
        assertThat(c.start()).isNull();
        assertThat(c.end()).isNull();
        World.Deformable d = w.deformables().get(0);
        assertThat(d.pose()).isEqualTo(io.tandem.world.Pose.IDENTITY);
        assertThat(d.rayleighAlpha()).isZero();
        assertThat(d.rayleighBeta()).isZero();
        assertThat(d.blocks()).isEqualTo(1);
        assertThat(d.nodeRadius()).isEqualTo(0.001);
        assertThat(d.welds()).isEmpty();
    }

    @Test
    void load_anchorOfAOneLinkModelWithoutLink_thatLink() {
        World w = parse(CABLE.replace("model=\"arm\" link=\"hand\"", "model=\"ball\""), new ArrayList<>());
        assertThat(w.cables().get(0).start()).isEqualTo(new World.Anchor("ball", "b"));
    }

    @Test
    void load_unknownChild_warnedOnceAndIgnored() {
        List<String> warnings = new ArrayList<>();
        World w = parse(CABLE.replace("<segments>", "<colour>red</colour><segments>"), warnings);
        assertThat(w.cables()).hasSize(1);
        assertThat(warnings).singleElement().asString().startsWith("t.sdf:9: ").contains("<colour>", "not read");
    }

    @Test
    void load_cableBadValues_refusedAtTheirLineWithTheFix() {
        assertRefused(CABLE.replace("<segments>40", "<segments>0"), 9, "cable 'rope'", "a cable with zero segments", "at least 1");
        assertRefused(CABLE.replace("<segments>40", "<segments>2.5"), 9, "<segments> needs a whole number");
        assertRefused(CABLE.replace("<from>0 0 1", "<from>0 zero 1"), 7, "<from> needs a number, got 'zero'");
        assertRefused(CABLE.replace("<to>2 0 1", "<to>2 0"), 8, "<to> needs 3 numbers");
        assertRefused(CABLE.replace("<to>2 0 1", "<to>0 0 1"), 6, "the same point");
        assertRefused(CABLE.replace("<diameter>0.02", "<diameter>0"), 10, "<diameter> must be > 0 m, got 0");
        assertRefused(CABLE.replace("<diameter>0.02", "<diameter>-0.02"), 10, "<diameter> must be > 0 m");
        assertRefused(CABLE.replace("<diameter>0.02</diameter>", ""), 6, "cable 'rope' needs <diameter>");
        assertRefused(CABLE.replace("<segments>40</segments>", ""), 6, "cable 'rope' needs <segments>");
        assertRefused(CABLE.replace("<from>0 0 1</from>", ""), 6, "cable 'rope' needs <from>");
        assertRefused(CABLE.replace("<tandem:cable name=\"rope\">", "<tandem:cable>"), 6, "needs a name=");
        assertRefused(CABLE.replace("<segments>40</segments>",
                "<segments>40</segments><segments_per_subsystem>0</segments_per_subsystem>"), 9, "<segments_per_subsystem>",
                "at least 1");
        assertRefused(CABLE.replace("end=\"start\"", "end=\"middle\""), 12, "end=\"middle\"", "end=\"start\"", "end=\"end\"");
        assertRefused(CABLE.replace("end=\"start\" ", ""), 12, "<attach> has end=\"\"");
        assertRefused(CABLE.replace("<attach end=\"start\" model=\"arm\" link=\"hand\"/>",
                "<attach end=\"start\"/><attach end=\"start\"/>"), 12, "a second <attach end=\"start\">");
    }

    @Test
    void load_badMaterial_refusedAtItsLineWithTheFix() {
        assertRefused(CABLE.replace("<youngs_modulus>1e7", "<youngs_modulus>0"), 11, "Young's modulus E must be > 0 Pa",
                "rubber ~1e6");
        assertRefused(CABLE.replace("<youngs_modulus>1e7", "<youngs_modulus>stiff"), 11, "<youngs_modulus> needs a number");
        assertRefused(CABLE.replace("<poisson_ratio>0.45", "<poisson_ratio>0.5"), 11, "Poisson's ratio nu must be inside"
                + " (-1, 0.5), got 0.5", "0.45 to 0.49");
        assertRefused(CABLE.replace("<poisson_ratio>0.45", "<poisson_ratio>-1"), 11, "inside (-1, 0.5)");
        assertRefused(CABLE.replace("<density>1200", "<density>-3"), 11, "<density> must be > 0 kg/m^3");
        assertRefused(CABLE.replace("<density>1200</density>", ""), 11, "needs <density>");
        assertRefused(CABLE.replaceAll("<material>.*</material>", ""), 6, "cable 'rope' needs <material>");
        assertRefused(DEFORMABLE.replace("<youngs_modulus>1e6", "<youngs_modulus>-1e6"), 9, "deformable 'beam'",
                "Young's modulus E must be > 0 Pa");
    }

    @Test
    void load_deformableBadValues_refusedAtTheirLineWithTheFix() {
        assertRefused(DEFORMABLE.replace("<box>", "<mesh><uri>beam.msh</uri></mesh><box>"), 6, "both <box> and <mesh>");
        assertRefused(DEFORMABLE.replaceAll("<box>.*</box>", ""), 6, "needs its shape", "<box>", "<mesh>");
        assertRefused(DEFORMABLE.replace("<size>0.3 0.03 0.03", "<size>0.3 0 0.03"), 8, "box sizes must be > 0 m");
        assertRefused(DEFORMABLE.replace("<cells>20 2 2</cells>", ""), 8, "needs <cells>");
        assertRefused(DEFORMABLE.replace("<cells>20 2 2", "<cells>20 0 2"), 8, "<cells> needs three whole numbers");
        assertRefused(DEFORMABLE.replace("<cells>20 2 2", "<cells>1000 1000 1"), 8, "more than 100000 cells");
        assertRefused(DEFORMABLE.replace("<pose>0.5 0 0.4 0 0 0", "<pose>0.5 0 0.4"), 7, "<pose> needs 6 numbers");
        assertRefused(DEFORMABLE.replace("<pose>", "<pose relative_to=\"arm\">"), 7, "relative_to=\"arm\" is not supported");
        assertRefused(DEFORMABLE.replace("alpha=\"0.5\"", "alpha=\"-1\""), 10, "<rayleigh alpha=\"-1\">", ">= 0");
        assertRefused(DEFORMABLE.replace("beta=\"0.001\"", "beta=\"soft\""), 10, "<rayleigh beta=\"soft\">");
        assertRefused(DEFORMABLE.replace("<blocks>4", "<blocks>0"), 11, "<blocks> must be at least 1");
        assertRefused(DEFORMABLE.replace("<node_radius>0.002", "<node_radius>0"), 12, "<node_radius> must be > 0 m");
        assertRefused(DEFORMABLE.replace("<max>0.36 1 1", "<max>0.33 1 1"), 13, "<min> '0.34 -1 -1' is above its <max>");
        assertRefused(DEFORMABLE.replace("<max>0.36 1 1</max>", ""), 13, "needs <max>");
    }

    @Test
    void load_anchorNamingWhatTheWorldLacks_refusedAtItsLine() {
        assertRefused(CABLE.replace("model=\"arm\"", "model=\"crane\""), 12, "names model 'crane', which this world does not"
                + " have (models: ball, arm)", "leave model out");
        assertRefused(CABLE.replace("link=\"hand\"", "link=\"claw\""), 12, "names link 'claw', which model 'arm' does not"
                + " have (links: base, hand)");
        assertRefused(CABLE.replace(" link=\"hand\"", ""), 12, "model 'arm' but no link", "link=\"LINK\"");
        assertRefused(CABLE.replace("model=\"arm\" ", ""), 12, "names link 'hand' but no model");
        assertRefused(DEFORMABLE.replace("<weld model=\"arm\"", "<weld model=\"crane\""), 13, "deformable 'beam'",
                "names model 'crane'");
        assertRefused(DEFORMABLE.replace("link=\"hand\"", "link=\"claw\""), 13, "names link 'claw'");
    }

    @Test
    void load_anchorOnAModelOfALevel_refusedAsLevelsUnloadIt() {
        String plugin = "\n<plugin name=\"gz::sim\" filename=\"dummy\"><level name=\"shop\"><geometry><box><size>1 1 1</size>"
                + "</box></geometry><ref>arm</ref></level></plugin>";
        assertRefused(CABLE + plugin, 12, "model 'arm', which is in level 'shop'", "always loaded");
    }

    @Test
    void load_duplicateName_refusedAtTheSecond() {
        assertRefused(CABLE + "\n" + DEFORMABLE.replace("\"beam\"", "\"rope\""), 14, "a second cable or deformable body named"
                + " 'rope' (the first is at line 6)");
        assertRefused(CABLE + "\n" + CABLE, 14, "a second cable or deformable body named 'rope'");
    }

    @Test
    void load_meshUri_relativeToTheWorldFile(@TempDir Path dir) throws IOException {
        Path sub = Files.createDirectories(dir.resolve("worlds/meshes"));
        Files.writeString(sub.resolve("cube.node"), "8 3 0 0\n");
        Files.writeString(sub.resolve("cube.ele"), "6 4 0\n");
        Files.writeString(sub.resolve("plain.node"), "8 3 0 0\n");
        Files.writeString(sub.resolve("bunny.stl"), "solid\n");
        String mesh = DEFORMABLE.replaceAll("<box>.*</box>", "<mesh><uri>%s</uri></mesh>");
        Path file = dir.resolve("worlds/w.sdf");
        Files.writeString(file, world(String.format(java.util.Locale.ROOT, mesh, "meshes/cube.node")));
        World w = SdfLoader.load(file, x -> { });
        assertThat(w.deformables().get(0).meshFile()).isEqualTo(sub.resolve("cube.node").toAbsolutePath());
        String[][] bad = {{"meshes/missing.msh", "mesh file " + sub.resolve("missing.msh").toAbsolutePath() + " does not exist"},
                {"meshes/plain.node", "needs its tetrahedra in"}, {"meshes/bunny.stl", "no tetrahedral mesh", "gmsh -3"},
                {"model://beam/beam.msh", "is not a file path"}};
        for (String[] b : bad) {
            Files.writeString(file, world(String.format(java.util.Locale.ROOT, mesh, b[0])));
            assertThatThrownBy(() -> SdfLoader.load(file, x -> { })).as(b[0]).isInstanceOf(WorldFormatException.class)
                    .hasMessageStartingWith(file + ":8: deformable 'beam': ")
                    .satisfies(e -> assertThat(e.getMessage()).contains(java.util.Arrays.copyOfRange(b, 1, b.length)));
        }
    }

    @Test
    void load_withoutNamespaceDeclaration_readsTheSame() {
        String plain = world(CABLE).replace(" xmlns:tandem=\"https://tandem.io/sdf\"", "");
        World w = SdfLoader.load(new ByteArrayInputStream(plain.getBytes(StandardCharsets.UTF_8)), "t.sdf", x -> { });
        assertThat(w.cables()).singleElement().extracting(World.Cable::diameter).isEqualTo(0.02);
        assertThat(w.cables().get(0).material().youngsModulus()).isCloseTo(1e7, within(0.0));
    }
}
