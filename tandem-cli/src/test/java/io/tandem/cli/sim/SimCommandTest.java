package io.tandem.cli.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cli.TandemCli;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimCommandTest {
    private static final Path DROP = Path.of("../examples/worlds/drop.sdf");
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @TempDir
    Path tmp;

    private int run(String... args) {
        return TandemCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void sim_dropWorldWithLevels_recordsLevelEventsAndRestingBall() throws IOException {
        Path csv = tmp.resolve("drop.csv");
        assertThat(run("sim", DROP.toString(), "--levels", "--iterations", "3000", "--record", csv.toString())).isZero();
        assertThat(err.toString()).contains("Loaded level [sky] at iteration 0", "Unloaded level [sky] at iteration",
                "Loaded level [ground] at iteration");
        assertThat(out.toString()).contains("world drop: 3000 iterations", "real-time factor");
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        assertThat(lines.get(0)).isEqualTo("iteration,sim_time_s,model,x,y,z,qx,qy,qz,qw,event");
        assertThat(lines).filteredOn(l -> l.endsWith("at iteration 0")).containsExactly("0,0.0,,,,,,,,,Loaded level [sky] at iteration 0");
        // the ball came to rest on the pad the ground level loaded (its top at z = 0, radius 0.1)
        String last = lines.stream().filter(l -> l.startsWith("3000,") && l.contains(",ball,")).findFirst().orElseThrow();
        assertThat(Double.parseDouble(last.split(",")[5])).isBetween(0.098, 0.101);
        // without levels the pad is there from the start and nothing loads or unloads
        err.getBuffer().setLength(0);
        assertThat(run("sim", DROP.toString(), "--iterations", "10")).isZero();
        assertThat(err.toString()).doesNotContain("level [");
    }

    /** A URDF robot runs on its own, as 'gz sim robot.urdf' runs it; a broken one is one line with its file:line. */
    @Test
    void sim_urdfRobot_runsOnItsOwnOrFailsInOneLine() throws IOException {
        assertThat(run("sim", "../examples/robots/pendulum/pendulum.urdf", "--iterations", "200", "--rtf", "0")).isZero();
        assertThat(out.toString()).contains("world pendulum: 200 iterations");
        Path broken = tmp.resolve("broken.urdf");
        Files.writeString(broken, "<robot name='r'>\n<link name='a'/>\n<joint name='j' type='revolute'>"
                + "<parent link='a'/><child link='b'/></joint>\n<link name='b'/>\n</robot>\n");
        err.getBuffer().setLength(0);
        assertThat(run("sim", broken.toString())).isEqualTo(2);
        assertThat(err.toString().trim()).isEqualTo("tandem sim: " + broken + ":3: joint 'j' is of type revolute but gives"
                + " no <limit>: add <limit lower=\"...\" upper=\"...\" effort=\"...\" velocity=\"...\"/> (or make it"
                + " continuous)");
    }

    /**
     * --record FILE.mcap: the JSON lines' objects as messages (poses, events), each at its
     * simulated time, plus one /tf message of Foxglove frame transforms per iteration; an
     * indexed, complete file.
     */
    @Test
    void sim_mcapRecord_theJsonLinesAsMessagesPlusFrames() throws IOException {
        Path jsonl = tmp.resolve("a.jsonl");
        Path mcap = tmp.resolve("a.mcap");
        assertThat(run("sim", DROP.toString(), "--levels", "--iterations", "600", "--record", jsonl.toString())).isZero();
        assertThat(run("sim", DROP.toString(), "--levels", "--iterations", "600", "--record", mcap.toString(), "--record-hz",
                "0", "--record-json-poses")).isZero();
        io.tandem.world.record.McapReader.Recording r = io.tandem.world.record.McapReader.read(mcap);
        assertThat(r.complete()).isTrue();
        assertThat(r.chunks()).isPositive();
        java.util.List<String> lines = Files.readAllLines(jsonl);
        java.util.List<String> poses = new java.util.ArrayList<>();
        java.util.List<String> events = new java.util.ArrayList<>();
        for (String l : lines) {
            (l.contains("\"event\":") ? events : poses).add(l);
        }
        java.util.List<String> recorded = new java.util.ArrayList<>();
        for (io.tandem.world.record.McapReader.Message m : r.topic("/tandem/poses")) {
            recorded.add(new String(m.data(), java.nio.charset.StandardCharsets.UTF_8));
        }
        assertThat(recorded).isEqualTo(poses);
        java.util.List<String> recordedEvents = new java.util.ArrayList<>();
        for (io.tandem.world.record.McapReader.Message m : r.topic("/tandem/events")) {
            recordedEvents.add(new String(m.data(), java.nio.charset.StandardCharsets.UTF_8));
        }
        assertThat(recordedEvents).isEqualTo(events).isNotEmpty();
        // one frame message per iteration (0 to 600), at its simulated time
        java.util.List<io.tandem.world.record.McapReader.Message> tf = r.topic("/tf");
        assertThat(tf).hasSize(601);
        assertThat(tf.get(600).logTimeNs()).isEqualTo(600 * 1_000_000L);
        // in Foxglove's schema, protobuf-encoded: iteration 1's first transform (field 1) starts with its timestamp
        // (field 1: nanos, field 2, 1000000) and parent frame (field 2, "world"); FoxgloveFrameTransformsTest reads it all
        assertThat(r.channels().values()).anySatisfy(c -> assertThat(c).extracting(io.tandem.world.record.McapReader.Channel::topic,
                io.tandem.world.record.McapReader.Channel::schemaName, io.tandem.world.record.McapReader.Channel::schemaEncoding,
                io.tandem.world.record.McapReader.Channel::messageEncoding)
                .containsExactly("/tf", "foxglove.FrameTransforms", "protobuf", "protobuf"));
        byte[] first = tf.get(1).data();
        int body = 2; // after field 1's tag and its length (a varint)
        while ((first[body - 1] & 0x80) != 0) {
            body++;
        }
        assertThat(first[0]).isEqualTo((byte) 0x0a);
        assertThat(java.util.Arrays.copyOfRange(first, body, body + 14)).containsExactly(0x0a, 0x04, 0x10, 0xc0, 0x84, 0x3d, 0x12, 0x05, 'w', 'o', 'r',
                'l', 'd', 0x1a);
        // by default the JSON channels hold 60 iterations a simulated second (the first at or after each
        // 1/60 s), the frames every iteration
        Path light = tmp.resolve("b.mcap");
        assertThat(run("sim", DROP.toString(), "--levels", "--iterations", "600", "--record", light.toString())).isZero();
        io.tandem.world.record.McapReader.Recording b = io.tandem.world.record.McapReader.read(light);
        java.util.List<Long> tfTimes = b.topic("/tf").stream().map(io.tandem.world.record.McapReader.Message::logTimeNs).toList();
        assertThat(tfTimes).hasSize(36).startsWith(0L, 17_000_000L, 34_000_000L);
        assertThat(b.topic("/tandem/frames")).hasSize(601);
        assertThat(b.topic("/tandem/events").size()).isEqualTo(events.size());
        // without --record-json-poses no /tandem/poses: /tf holds the same doubles (bitwise the JSON lines' values)
        assertThat(b.channels().values()).extracting(io.tandem.world.record.McapReader.Channel::topic)
                .doesNotContain("/tandem/poses").contains("/tf", "/tandem/joints", "/tandem/frames");
        assertThat(r.topic("/tf")).hasSize(601);
        // --record-json-poses is for MCAP only
        assertThat(run("sim", DROP.toString(), "--iterations", "10", "--record", tmp.resolve("c.jsonl").toString(),
                "--record-json-poses")).isEqualTo(2);
        assertThat(err.toString()).contains("--record-json-poses needs an MCAP record");
    }

    @Test
    void sim_jsonlRecord_sameRunSameBytes() throws IOException {
        Path a = tmp.resolve("a.jsonl");
        Path b = tmp.resolve("b.jsonl");
        assertThat(run("sim", DROP.toString(), "--levels", "--iterations", "2500", "--record", a.toString())).isZero();
        assertThat(run("sim", DROP.toString(), "--levels", "--iterations", "2500", "--record", b.toString())).isZero();
        assertThat(Files.readAllBytes(a)).isEqualTo(Files.readAllBytes(b));
        assertThat(Files.readString(a)).contains("{\"iteration\":0,\"sim_time_s\":0.0,\"event\":\"Loaded level [sky] at iteration 0\"}");
    }

    /** A mesh that cannot be found, or a collision mesh without volume: one line naming the file, exit 2, nothing recorded. */
    @Test
    void sim_missingOrFlatMesh_oneLineExit2NoRecord() throws IOException {
        Path record = tmp.resolve("never.csv");
        String world = "<sdf version=\"1.9\"><world name=\"w\">\n<model name=\"m\"><pose>0 0 1 0 0 0</pose><link name=\"l\">\n"
                + "<collision name=\"c\"><geometry><mesh><uri>MESH</uri></mesh></geometry></collision></link></model></world></sdf>";
        Path missing = tmp.resolve("missing-mesh.sdf");
        Files.writeString(missing, world.replace("MESH", "meshes/none.stl"));
        assertThat(run("sim", missing.toString(), "--iterations", "5", "--record", record.toString())).isEqualTo(2);
        assertThat(err.toString().trim()).startsWith("tandem sim: " + missing + ":3: cannot find mesh 'meshes/none.stl': searched ["
                + tmp.resolve("meshes/none.stl")).doesNotContain("\tat ");
        // one triangle: no volume to collide with
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(134).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.position(80);
        b.putInt(1).putFloat(0).putFloat(0).putFloat(1);
        b.putFloat(0).putFloat(0).putFloat(0).putFloat(1).putFloat(0).putFloat(0).putFloat(0).putFloat(1).putFloat(0);
        Files.write(tmp.resolve("flat.stl"), b.array());
        Path flat = tmp.resolve("flat-mesh.sdf");
        Files.writeString(flat, world.replace("MESH", "flat.stl"));
        err.getBuffer().setLength(0);
        assertThat(run("sim", flat.toString(), "--iterations", "5", "--record", record.toString())).isEqualTo(2);
        assertThat(err.toString().trim()).contains(flat + ":2: link 'l' of model 'm': collision 'c'").contains("no volume")
                .doesNotContain("\tat ");
        assertThat(err.toString().trim().lines()).hasSize(1);
        assertThat(record).doesNotExist();
    }

    @Test
    void sim_badInput_clearErrorNonZeroExitNoRecord() throws IOException {
        Path record = tmp.resolve("never.csv");
        assertThat(run("sim", tmp.resolve("missing.sdf").toString(), "--record", record.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("missing.sdf: no such file");
        Path broken = tmp.resolve("broken.sdf");
        Files.writeString(broken, "<sdf version=\"1.9\"><world name=\"w\">\n<model name=\"m\"><pose>1 2</pose></model></world></sdf>");
        assertThat(run("sim", broken.toString(), "--record", record.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("broken.sdf:2: <pose> needs 6 numbers");
        assertThat(run("sim", DROP.toString(), "--record", tmp.resolve("x.txt").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("must end in .csv, .jsonl or .mcap");
        assertThat(run("sim", DROP.toString(), "--iterations", "0")).isEqualTo(2);
        assertThat(run("sim", DROP.toString(), "--rtf", "-1")).isEqualTo(2);
        assertThat(record).doesNotExist();
        try (var files = Files.list(tmp)) {
            assertThat(files.filter(p -> p.getFileName().toString().startsWith("."))).isEmpty();
        }
    }

    /**
     * SIGTERM (or Ctrl-C) on a standalone run with --record left a growing hidden temporary file
     * and no summary; now the run stops, says where, keeps the earlier record and leaves nothing.
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 60, unit = java.util.concurrent.TimeUnit.SECONDS)
    void sim_sigtermDuringRecordedRun_stopsCleanlyKeepsTheEarlierRecord() throws Exception {
        Path record = tmp.resolve("poses.csv");
        Files.writeString(record, "an earlier complete record\n");
        try (io.tandem.cli.tools.TestChild sim = io.tandem.cli.tools.TestChild.tandem("sim", "sim", DROP.toString(),
                "--iterations", "10000000", "--rtf", "1", "--record", record.toString())) {
            sim.awaitLine(l -> l.startsWith("iteration "), 30_000);
            try (java.util.stream.Stream<Path> files = Files.list(tmp)) {
                assertThat(files.filter(p -> p.getFileName().toString().startsWith(".poses.csv."))).hasSize(1);
            }
            sim.process.toHandle().destroy(); // SIGTERM, as Ctrl-C (Process.destroy would close its output)
            assertThat(sim.awaitExit(20_000)).as("output:%n%s", sim.output()).isEqualTo(143);
            assertThat(sim.output()).contains("(interrupted)", "tandem sim: interrupted at iteration ",
                    "no record written (" + record + " is as it was)");
        }
        assertThat(Files.readString(record)).isEqualTo("an earlier complete record\n");
        try (java.util.stream.Stream<Path> files = Files.list(tmp)) {
            assertThat(files.filter(p -> p.getFileName().toString().startsWith("."))).isEmpty();
        }
    }

    @Test
    void heapShortfall_worldAgainstHeap_namesSizeNeedAndXmx() {
        Path w = Path.of("big.sdf");
        assertThat(io.tandem.world.sdf.SdfLoader.heapShortfall(w, 28_000_000L, 2L << 30)).isNull();
        assertThat(io.tandem.world.sdf.SdfLoader.heapShortfall(w, 28_000_000L, 512L << 20))
                .isEqualTo("big.sdf is 28 MB of SDF: loading and stepping it takes about 896 MB of heap, and this JVM may use"
                        + " 537 MB: give it more (JAVA_OPTS=-Xmx2g ./tandem ...) or split the world");
        assertThat(io.tandem.world.sdf.SdfLoader.heapShortfall(w, 280_000_000L, 6L << 30)).contains("280 MB of SDF", "about 9.0 GB", "use 6.4 GB",
                "-Xmx11g");
    }

    /** A world too large for the heap ran into an OutOfMemoryError stack trace; now one line before loading, with the -Xmx. */
    @Test
    @org.junit.jupiter.api.Timeout(value = 60, unit = java.util.concurrent.TimeUnit.SECONDS)
    void sim_worldTooLargeForTheHeap_oneLineNamingTheXmx() throws Exception {
        StringBuilder sdf = new StringBuilder("<?xml version=\"1.0\"?>\n<sdf version=\"1.9\"><world name=\"big\">\n");
        for (int i = 0; i < 20_000; i++) {
            sdf.append("<model name=\"b").append(i).append("\"><pose>").append(i % 100).append(" ").append(i / 100)
                    .append(" 1 0 0 0</pose><link name=\"l\"><inertial><mass>1</mass></inertial><collision name=\"c\">")
                    .append("<geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link></model>\n");
        }
        Path world = Files.writeString(tmp.resolve("big.sdf"), sdf.append("</world></sdf>\n"));
        try (io.tandem.cli.tools.TestChild sim = io.tandem.cli.tools.TestChild.tandemWithJvm(List.of("-Xmx64m"), "sim", "sim",
                world.toString(), "--iterations", "1")) {
            assertThat(sim.awaitExit(50_000)).as("output:%n%s", sim.output()).isEqualTo(1);
            assertThat(sim.output()).contains("loading and stepping it takes about", "JAVA_OPTS=-Xmx")
                    .doesNotContain("OutOfMemoryError").doesNotContain("\tat ");
        }
    }

    /** A world with a cable runs standalone; distributed, it is refused in one line before anything starts (exit 2). */
    @Test
    void sim_worldWithCable_runsStandaloneRefusedDistributed() throws IOException {
        Path world = Files.writeString(tmp.resolve("rope.sdf"), "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\""
                + " xmlns:tandem=\"https://tandem.io/sdf\"><world name=\"rope\">\n<model name=\"ground\"><static>true</static>"
                + "<link name=\"l\"><collision name=\"c\"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision>"
                + "</link></model>\n<tandem:cable name=\"rope\"><from>0 0 1</from><to>1 0 1</to><segments>10</segments>"
                + "<diameter>0.02</diameter><material><youngs_modulus>1e7</youngs_modulus><poisson_ratio>0.45</poisson_ratio>"
                + "<density>1200</density></material><attach end=\"start\"/></tandem:cable>\n</world></sdf>\n");
        assertThat(run("sim", world.toString(), "--iterations", "50")).isZero();
        assertThat(out.toString()).contains("world rope: 50 iterations");
        err.getBuffer().setLength(0);
        assertThat(run("sim", world.toString(), "--network-role", "primary", "--network-secondaries", "1")).isEqualTo(2);
        assertThat(err.toString().trim()).isEqualTo("tandem sim: " + world + ":4: world 'rope' has cable 'rope': cables and"
                + " deformable bodies do not run distributed yet; run the world standalone (without --network-role)");
        err.getBuffer().setLength(0);
        assertThat(run("sim", world.toString(), "--network-role", "secondary")).isEqualTo(2);
        assertThat(err.toString()).contains("do not run distributed yet");
    }

    @Test
    void sim_badNetworkFlags_usageErrorNamingTheFix() {
        assertThat(run("sim", DROP.toString(), "--network-role", "readonly")).isEqualTo(2);
        assertThat(err.toString()).contains("--network-role must be primary or secondary", "got 'readonly'");
        assertThat(run("sim", DROP.toString(), "--network-secondaries", "2")).isEqualTo(2);
        assertThat(err.toString()).contains("can only be used with --network-role");
        assertThat(run("sim", DROP.toString(), "--network-role", "Secondary", "--network-secondaries", "2")).isEqualTo(2);
        assertThat(err.toString()).contains("can only be used with --network-role primary");
        assertThat(run("sim", DROP.toString(), "--network-role", "SIMULATION_PRIMARY")).isEqualTo(2);
        assertThat(err.toString()).contains("needs --network-secondaries N");
        assertThat(run("sim", DROP.toString(), "--network-role", "primary", "--network-secondaries", "1",
                "--local-secondaries", "2")).isEqualTo(2);
        assertThat(run("sim", DROP.toString(), "--network-role", "secondary", "--record", "x.csv")).isEqualTo(2);
        assertThat(err.toString()).contains("--record is the primary's");
        assertThat(run("sim", DROP.toString(), "--network-role", "primary", "--local-secondaries", "1", "--partition", "a b"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--partition must be letters");
        assertThat(run("sim", DROP.toString(), "--network-role", "primary", "--local-secondaries", "1", "--scene-hz", "-1"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--scene-hz must be a finite number >= 0");
        assertThat(run("sim", DROP.toString(), "--network-role", "secondary", "--scene-hz", "30")).isEqualTo(2);
        assertThat(err.toString()).contains("--scene-hz is the primary's");
    }

    @Test
    void sceneEvery_rateInSimulatedTime_nearestWholeNumberOfStepsAtLeastOne() {
        assertThat(SimCommand.sceneEvery(60, 1_000_000)).isEqualTo(17);
        assertThat(SimCommand.sceneEvery(60, 2_000_000)).isEqualTo(8);
        assertThat(SimCommand.sceneEvery(5000, 1_000_000)).isEqualTo(1);
        assertThat(SimCommand.sceneEvery(0, 1_000_000)).isZero();
    }

    @Test
    void sim_secondaryWithoutRegistry_failsAfterStartTimeoutNamingTheUri() {
        assertThat(run("sim", DROP.toString(), "--network-role", "secondary", "--registry", "tandem://127.0.0.1:1",
                "--start-timeout-s", "1")).isEqualTo(1);
        assertThat(err.toString()).contains("found no registry at tandem://127.0.0.1:1", "start the primary");
    }
}
