package io.tandem.world;

import io.tandem.physics.SolverSettings;
import io.tandem.world.robot.RayCastCamera;
import io.tandem.world.sdf.SdfLoader;
import io.tandem.world.urdf.UrdfLoader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Meshes in worlds: STL, OBJ and COLLADA collisions found through relative paths, model:// and
 * package:// URIs collide as convex hulls and come to rest at the height their lowest vertex
 * gives; a mesh visual is what a camera sees; a missing or empty mesh is an error naming the
 * element, the URI and where it was looked for.
 */
class MeshWorldTest {
    /** A tetrahedron off the origin: base triangle at z = 0.05 over x, y in [0.1, 0.5] x [0.1, 0.4], apex at z = 0.25. */
    private static final double[][] TETRA = {{0.1, 0.1, 0.05}, {0.5, 0.1, 0.05}, {0.1, 0.4, 0.05}, {0.1, 0.1, 0.25}};
    private static final int[][] TETRA_FACES = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};

    /** Writes a binary STL of triangles over the given vertices. */
    static Path stl(Path file, double[][] v, int[][] faces) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(84 + 50 * faces.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[80]);
        b.putInt(faces.length);
        for (int[] f : faces) {
            b.putFloat(0).putFloat(0).putFloat(0);
            for (int k : f) {
                b.putFloat((float) v[k][0]).putFloat((float) v[k][1]).putFloat((float) v[k][2]);
            }
            b.putShort((short) 0);
        }
        Files.createDirectories(file.getParent());
        Files.write(file, b.array());
        return file;
    }

    private static String cubeObj(double h) {
        StringBuilder s = new StringBuilder("o cube\n");
        for (int i = 0; i < 8; i++) {
            s.append(String.format(Locale.ROOT, "v %s %s %s%n", (i & 1) == 0 ? -h : h, (i & 2) == 0 ? -h : h, (i & 4) == 0 ? -h : h));
        }
        s.append("f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n");
        return s.toString();
    }

    /** A COLLADA cube of half side h (in the file's unit), under a node translated by (0, 0, lift). */
    private static String cubeDae(double unitMeter, double h, double lift) {
        StringBuilder pos = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            pos.append(String.format(Locale.ROOT, "%s %s %s ", (i & 1) == 0 ? -h : h, (i & 2) == 0 ? -h : h, (i & 4) == 0 ? -h : h));
        }
        return String.format(Locale.ROOT, """
                <?xml version="1.0" encoding="utf-8"?>
                <COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
                  <asset><unit meter="%s" name="unit"/><up_axis>Z_UP</up_axis></asset>
                  <library_geometries><geometry id="cube"><mesh>
                    <source id="p"><float_array id="pa" count="24">%s</float_array>
                      <technique_common><accessor source="#pa" count="8" stride="3"><param name="X" type="float"/>
                      <param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
                    <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
                    <triangles count="12"><input semantic="VERTEX" source="#v" offset="0"/>
                      <p>0 2 3 0 3 1 4 5 7 4 7 6 0 1 5 0 5 4 2 6 7 2 7 3 0 4 6 0 6 2 1 3 7 1 7 5</p></triangles>
                  </mesh></geometry></library_geometries>
                  <library_visual_scenes><visual_scene id="s"><node id="n"><translate>0 0 %s</translate>
                    <instance_geometry url="#cube"/></node></visual_scene></library_visual_scenes>
                  <scene><instance_visual_scene url="#s"/></scene>
                </COLLADA>
                """, unitMeter, pos, lift);
    }

    private static final String GROUND = """
            <model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane>
              <normal>0 0 1</normal><size>20 20</size></plane></geometry></collision></link></model>""";

    /** The link's height after 2 s of falling and settling. */
    private static double restingHeight(World w, String model) {
        try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(30), false)) {
            for (int k = 0; k < 2000; k++) {
                r.step();
            }
            return r.linkPose(model, 0).z();
        }
    }

    @Test
    void collisionMeshes_relativeStlAndModelUriDae_restAtTheHeightOfTheirLowestVertex(@TempDir Path dir) throws IOException {
        stl(dir.resolve("meshes/tetra.stl"), TETRA, TETRA_FACES);
        // a model folder found through the model path: its mesh by model:// (a 0.2 m cube in cm, lifted 5 cm in its node)
        Path models = dir.resolve("models");
        Files.createDirectories(models.resolve("crate/meshes"));
        Files.writeString(models.resolve("crate/meshes/crate.dae"), cubeDae(0.01, 10, 5));
        Files.writeString(models.resolve("crate/model.config"), "<?xml version=\"1.0\"?><model><name>crate</name>"
                + "<sdf version=\"1.9\">model.sdf</sdf></model>");
        Files.writeString(models.resolve("crate/model.sdf"), """
                <?xml version="1.0"?><sdf version="1.9"><model name="crate"><link name="body">
                  <inertial><pose>0 0 0.05 0 0 0</pose><mass>2</mass><inertia><ixx>0.013</ixx><iyy>0.013</iyy><izz>0.013</izz></inertia></inertial>
                  <collision name="c"><geometry><mesh><uri>model://crate/meshes/crate.dae</uri></mesh></geometry></collision>
                  <visual name="v"><geometry><mesh><uri>model://crate/meshes/crate.dae</uri></mesh></geometry></visual>
                </link></model></sdf>""");
        Path world = dir.resolve("w.sdf");
        Files.writeString(world, """
                <?xml version="1.0"?><sdf version="1.9"><world name="w"><physics><max_step_size>0.001</max_step_size></physics>
                GROUND
                  <model name="tetra"><pose>3 0 1 0 0 0</pose><link name="body">
                    <inertial><pose>0.2 0.175 0.2 0 0 0</pose><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial>
                    <collision name="c"><geometry><mesh><uri>meshes/tetra.stl</uri><scale>1 1 2</scale></mesh></geometry></collision>
                  </link></model>
                  <include><uri>model://crate</uri><pose>0 0 0.8 0 0 0</pose></include>
                </world></sdf>""".replace("GROUND", GROUND));
        World w = SdfLoader.load(world, x -> { }, List.of(models));
        Geometry.Mesh tetra = (Geometry.Mesh) w.models().get(1).links().get(0).collisions().get(0).geometry();
        assertThat(tetra.mesh().min(2)).isCloseTo(0.1, within(1e-6));
        assertThat(tetra.mesh().max(2)).isCloseTo(0.5, within(1e-6));
        try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(30), false)) {
            for (int k = 0; k < 2000; k++) {
                r.step();
            }
            // the tetrahedron stands on its base (mesh z 0.05 x 2 above the link origin): origin at -0.1
            assertThat(r.linkPose("tetra", 0).z()).isCloseTo(-0.1, within(0.003));
            // the crate's cube spans z in [-0.05, 0.15] in its link frame: origin at 0.05
            assertThat(r.linkPose("crate", 0).z()).isCloseTo(0.05, within(0.003));
        }
    }

    @Test
    void urdfPackageUri_objMeshOnAFreeLink_foundBesideThePackageAndRests(@TempDir Path dir) throws IOException {
        Path pkg = dir.resolve("my_robot");
        Files.createDirectories(pkg.resolve("meshes"));
        Files.createDirectories(pkg.resolve("urdf"));
        Files.writeString(pkg.resolve("meshes/block.obj"), cubeObj(0.1));
        Path urdf = pkg.resolve("urdf/block.urdf");
        Files.writeString(urdf, """
                <robot name="block">
                  <link name="body">
                    <inertial><origin xyz="0 0 0"/><mass value="1"/><inertia ixx="0.007" iyy="0.007" izz="0.007" ixy="0" ixz="0" iyz="0"/></inertial>
                    <collision><geometry><mesh filename="package://my_robot/meshes/block.obj" scale="2 1 0.5"/></geometry></collision>
                  </link>
                </robot>""");
        World robot = UrdfLoader.load(urdf, x -> { });
        Geometry.Mesh m = (Geometry.Mesh) robot.models().get(0).links().get(0).collisions().get(0).geometry();
        assertThat(m.file()).isEqualTo(pkg.resolve("meshes/block.obj"));
        assertThat(m.mesh().max(0)).isCloseTo(0.2, within(1e-12));
        assertThat(m.mesh().max(2)).isCloseTo(0.05, within(1e-12));
        // the robot above a ground: it lands on its 0.1 m tall box, centre 0.05 up
        World.Model block = robot.models().get(0);
        World.Model moved = new World.Model(block.name(), false, Pose.IDENTITY,
                List.of(new World.Link("body", Pose.translation(0, 0, 0.5), block.links().get(0).inertial(),
                        block.links().get(0).collisions(), List.of(), 0)), List.of(), 0);
        World ground = SdfLoader.load(new ByteArrayInputStream(("<sdf version=\"1.9\"><world name=\"w\">" + GROUND
                + "</world></sdf>").getBytes(StandardCharsets.UTF_8)), "g.sdf", x -> { });
        World w = new World("w", "w", 0, 0, -9.8, 1_000_000, 1, List.of(ground.models().get(0), moved), List.of(), List.of(), false);
        assertThat(restingHeight(w, "block")).isCloseTo(0.05, within(0.003));
    }

    @Test
    void missingMesh_errorNamesTheElementTheUriAndEveryPlaceSearched(@TempDir Path dir) throws IOException {
        Path world = dir.resolve("w.sdf");
        Files.writeString(world, """
                <?xml version="1.0"?><sdf version="1.9"><world name="w">
                  <model name="m"><link name="l">
                    <collision name="c"><geometry><mesh><uri>model://gone/meshes/gone.stl</uri></mesh></geometry></collision>
                  </link></model>
                </world></sdf>""");
        Path models = dir.resolve("models");
        assertThatThrownBy(() -> SdfLoader.load(world, x -> { }, List.of(models))).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith(world + ":3: cannot find mesh 'model://gone/meshes/gone.stl'")
                .hasMessageContaining(models.resolve("gone/meshes/gone.stl").toString())
                .hasMessageContaining("GZ_SIM_RESOURCE_PATH");
        Path urdf = dir.resolve("r.urdf");
        Files.writeString(urdf, """
                <robot name="r">
                  <link name="l">
                    <visual><geometry><mesh filename="meshes/none.dae"/></geometry></visual>
                  </link>
                </robot>""");
        assertThatThrownBy(() -> UrdfLoader.load(urdf, x -> { })).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith(urdf + ":3: cannot find mesh 'meshes/none.dae'")
                .hasMessageContaining(dir.resolve("meshes/none.dae").toString());
    }

    @Test
    void emptyOrFlatMesh_errorNamesTheFileAndTheFix(@TempDir Path dir) throws IOException {
        stl(dir.resolve("empty.stl"), new double[0][], new int[0][]);
        stl(dir.resolve("flat.stl"), new double[][] {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, new int[][] {{0, 1, 2}});
        String sdf = """
                <?xml version="1.0"?><sdf version="1.9"><world name="w">
                  <model name="m"><pose>0 0 1 0 0 0</pose><link name="l">
                    <collision name="c"><geometry><mesh><uri>FILE</uri></mesh></geometry></collision>
                  </link></model>
                </world></sdf>""";
        Path empty = dir.resolve("empty.sdf");
        Files.writeString(empty, sdf.replace("FILE", "empty.stl"));
        assertThatThrownBy(() -> SdfLoader.load(empty, x -> { })).isInstanceOf(WorldFormatException.class)
                .hasMessageStartingWith(empty + ":3: mesh 'empty.stl': ").hasMessageContaining("empty.stl");
        Path flat = dir.resolve("flat.sdf");
        Files.writeString(flat, sdf.replace("FILE", "flat.stl"));
        World w = SdfLoader.load(flat, x -> { });
        assertThatThrownBy(() -> new WorldRunner(w, false).close()).isInstanceOf(WorldFormatException.class)
                .hasMessageContaining("collision 'c'").hasMessageContaining("flat.stl").hasMessageContaining("no volume");
    }

    /** A camera sees a 1 m cube written as an STL mesh exactly as it sees the 1 m box (the box test's figures). */
    @Test
    void meshVisual_cubeSeenByACamera_drawnAsTheBoxOfTheSameSize(@TempDir Path dir) throws IOException {
        double[][] v = new double[8][];
        for (int i = 0; i < 8; i++) {
            v[i] = new double[] {(i & 1) == 0 ? -0.5 : 0.5, (i & 2) == 0 ? -0.5 : 0.5, (i & 4) == 0 ? -0.5 : 0.5};
        }
        int[][] faces = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4}, {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2},
            {1, 3, 7}, {1, 7, 5}};
        Path cube = stl(dir.resolve("cube.stl"), v, faces);
        byte[][] images = new byte[2][];
        String[] geometry = {"<box><size>1 1 1</size></box>", "<mesh><uri>" + cube + "</uri></mesh>"};
        for (int g = 0; g < 2; g++) {
            String sdf = """
                    <?xml version="1.0"?><sdf version="1.9"><world name="w">
                      <model name="rig"><static>true</static><pose>0 0 1 0 0 0</pose><link name="mount">
                        <sensor name="cam" type="camera"><camera><horizontal_fov>1.5707963</horizontal_fov>
                          <image><width>64</width><height>48</height></image><clip><near>0.1</near><far>20</far></clip></camera></sensor>
                      </link></model>
                      <model name="thing"><static>true</static><pose>4 0.2 1.1 0 0 0.3</pose><link name="l">
                        <visual name="v"><geometry>GEOMETRY</geometry><material><diffuse>1 0 0 1</diffuse></material></visual>
                      </link></model>
                    </world></sdf>""".replace("GEOMETRY", geometry[g]);
            World w = SdfLoader.load(new ByteArrayInputStream(sdf.getBytes(StandardCharsets.UTF_8)), "t.sdf", x -> { });
            try (WorldRunner r = new WorldRunner(w, SolverSettings.subAdmm(10), false)) {
                RayCastCamera c = RayCastCamera.of(r, "rig::mount::cam");
                images[g] = c.newImage();
                c.render(images[g]);
            }
        }
        int differing = 0;
        for (int i = 0; i < images[0].length; i++) {
            differing += Math.abs((images[0][i] & 0xff) - (images[1][i] & 0xff)) > 2 ? 1 : 0;
        }
        // the same pixels, but for rounding along the silhouette (the STL holds floats)
        assertThat(differing).as("channels that differ").isLessThan(10);
        assertThat(images[1][3 * (24 * 64 + 32)] & 0xff).as("red at the centre").isGreaterThan(50);
    }
}
