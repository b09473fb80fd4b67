package io.tandem.world.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.world.GazeboWorlds;
import io.tandem.world.Pose;
import io.tandem.world.PoseRecorder;
import io.tandem.world.World;
import io.tandem.world.WorldRunner;
import io.tandem.world.record.McapReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ViewFeedTest {
    /** collects what a feed sends */
    private static final class Collected implements ViewFeed.Sink {
        final List<String> scenes = new ArrayList<>();
        final List<String> states = new ArrayList<>();
        final List<ByteBuffer> frames = new ArrayList<>();

        @Override
        public void scene(String json) {
            scenes.add(json);
        }

        @Override
        public void state(String json) {
            states.add(json);
        }

        @Override
        public void frame(ByteBuffer frame) {
            frames.add(frame);
        }
    }

    @Test
    void poseFrame_writtenThenRead_littleEndianTpf1WithEveryRecord() {
        byte[] a = new byte[PoseFrame.bytes(2)];
        PoseFrame.writeHeader(a, 0, 42, 1_234_567_890_123L, 2);
        PoseFrame.writeRecord(a, PoseFrame.HEADER_BYTES, 7, 1.5, -2, 3, 1, 0, 0, 0);
        PoseFrame.writeRecord(a, PoseFrame.HEADER_BYTES + PoseFrame.RECORD_BYTES, 9, 0, 0, 0.25, 0, 0, 0, 1);
        ByteBuffer b = ByteBuffer.wrap(a).order(ByteOrder.BIG_ENDIAN); // the readers read little-endian whatever the order
        assertThat(b.limit()).isEqualTo(24 + 64);
        assertThat(b.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(0)).isEqualTo(0x31465054);
        assertThat(new String(a, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("TPF1");
        assertThat(PoseFrame.count(b)).isEqualTo(2);
        assertThat(PoseFrame.iteration(b)).isEqualTo(42);
        assertThat(PoseFrame.simTimeNs(b)).isEqualTo(1_234_567_890_123L);
        assertThat(PoseFrame.id(b, 1)).isEqualTo(9);
        // x, y, z, qx, qy, qz, qw
        assertThat(new float[] {PoseFrame.value(b, 0, 0), PoseFrame.value(b, 0, 1), PoseFrame.value(b, 0, 6)})
                .containsExactly(1.5f, -2f, 1f);
        assertThat(PoseFrame.value(b, 1, 5)).isEqualTo(1f);
        assertThat(PoseFrame.value(b, 1, 6)).isEqualTo(0f);
    }

    @Test
    void poseFrame_writtenAtAnOffset_readFromThereInSinglePrecision() {
        byte[] a = new byte[5 + PoseFrame.bytes(2) + 3];
        PoseFrame.writeHeader(a, 5, 42, -7, 2);
        PoseFrame.writeRecord(a, 5 + PoseFrame.HEADER_BYTES, 7, 1.5, -2, 3e-9, 0.5, -0.5, 0.5, -0.25);
        PoseFrame.writeRecord(a, 5 + PoseFrame.HEADER_BYTES + PoseFrame.RECORD_BYTES, 1 << 20, -0.0, Double.MAX_VALUE, 1e-50,
                1, 0, 0, 0);
        ByteBuffer b = ByteBuffer.wrap(a, 5, PoseFrame.bytes(2));
        assertThat(PoseFrame.count(b)).isEqualTo(2);
        assertThat(PoseFrame.iteration(b)).isEqualTo(42);
        assertThat(PoseFrame.simTimeNs(b)).isEqualTo(-7);
        assertThat(PoseFrame.id(b, 1)).isEqualTo(1 << 20);
        assertThat(PoseFrame.value(b, 0, 2)).isEqualTo((float) 3e-9);
        assertThat(PoseFrame.value(b, 0, 6)).isEqualTo(0.5f); // qw after qx, qy, qz
        assertThat(PoseFrame.value(b, 0, 5)).isEqualTo(-0.25f);
        assertThat(Float.floatToRawIntBits(PoseFrame.value(b, 1, 0))).isEqualTo(Float.floatToRawIntBits(-0f));
        assertThat(PoseFrame.value(b, 1, 1)).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(PoseFrame.value(b, 1, 2)).isEqualTo(0f);
        assertThat(new byte[] {a[0], a[4], a[a.length - 3], a[a.length - 1]}).containsOnly(0); // nothing outside the frame
    }

    @Test
    void frame_packedIntoAnArrayAtAnOffset_theSameBytesAsItsOwnBuffer() {
        World w = GazeboWorlds.example("relay.sdf");
        SceneDescription scene = new SceneDescription(w);
        try (WorldRunner r = new WorldRunner(w, true)) {
            r.step();
            byte[] block = new byte[3 + 2 * scene.frameBytes()];
            for (int i = 0; i < 30; i++) {
                r.step();
            }
            ByteBuffer own = scene.frame(r);
            int first = scene.frame(r, block, 3);
            int second = scene.frame(r, block, 3 + first);
            assertThat(first).isEqualTo(second).isEqualTo(own.remaining()).isEqualTo(scene.frameBytes());
            assertThat(java.util.Arrays.copyOfRange(block, 3, 3 + first)).isEqualTo(java.util.Arrays.copyOf(own.array(), first));
            assertThat(java.util.Arrays.copyOfRange(block, 3 + first, 3 + 2 * first))
                    .isEqualTo(java.util.Arrays.copyOf(own.array(), first));
            assertThat(PoseFrame.count(own)).isPositive();
            assertThatThrownBy(() -> scene.frame(r, block, block.length - 1)).hasMessageContaining("a frame needs");
        }
    }

    @Test
    void poseFrame_wrongMagicOrLength_refusedNamingWhat() {
        byte[] a = new byte[PoseFrame.bytes(1)];
        ByteBuffer b = ByteBuffer.wrap(a);
        assertThatThrownBy(() -> PoseFrame.count(b)).hasMessageContaining("not a TPF1 pose frame (56 bytes, magic 0x00000000)");
        PoseFrame.writeHeader(a, 0, 1, 1, 3);
        assertThatThrownBy(() -> PoseFrame.count(b)).hasMessage("TPF1 pose frame of 56 bytes says it holds 3 records (120 bytes)");
    }

    @Test
    void frame_dropWorld_movingLoadedEntitiesAtTheirLinkPoses() {
        World w = GazeboWorlds.example("drop.sdf");
        SceneDescription scene = new SceneDescription(w);
        assertThat(scene.entityCount()).isEqualTo(w.models().stream().mapToInt(m -> m.links().size()).sum());
        try (WorldRunner r = new WorldRunner(w, true)) {
            for (int i = 0; i < 25; i++) {
                r.step();
            }
            ByteBuffer f = scene.frame(r);
            int n = PoseFrame.count(f);
            assertThat(PoseFrame.iteration(f)).isEqualTo(25);
            assertThat(PoseFrame.simTimeNs(f)).isEqualTo(r.simTimeNs());
            int moving = 0;
            for (int id = 0; id < scene.entityCount(); id++) {
                if (!scene.isStatic(id) && r.loadedModels().contains(scene.model(id))) {
                    moving++;
                }
            }
            assertThat(n).isEqualTo(moving).isPositive();
            for (int i = 0; i < n; i++) {
                int id = PoseFrame.id(f, i);
                assertThat(scene.isStatic(id)).isFalse();
                Pose p = r.linkPose(scene.model(id), scene.link(id));
                assertThat(PoseFrame.value(f, i, 2)).isEqualTo((float) p.z());
                assertThat(PoseFrame.value(f, i, 6)).isEqualTo((float) p.qw());
            }
            String state = scene.stateJson(r, List.of("sky"), Map.of("ball", "secondary-a"));
            assertThat(state).startsWith("{\"type\":\"state\",\"iteration\":25,")
                    .contains("\"levels\":[\"sky\"]", "\"owners\":{\"ball\":\"secondary-a\"}");
            for (String m : r.loadedModels()) {
                assertThat(state).contains("\"" + m + "\"");
            }
        }
        assertThat(scene.sceneJson()).startsWith("{\"type\":\"scene\",\"version\":1,\"world\":\"drop\"")
                .contains("\"model\":\"ball\"", "\"type\":\"sphere\",\"radius\":0.1", "\"performers\":[{\"name\":\"perf_ball\"");
    }

    @Test
    void linkPoseByHandle_robot_bitwiseTheAllocatingReader() {
        java.nio.file.Path urdf = java.nio.file.Path.of("../examples/robots/pendulum/pendulum.urdf");
        World w = io.tandem.world.urdf.UrdfLoader.load(urdf, warning -> { });
        try (WorldRunner r = new WorldRunner(w, false)) {
            for (int i = 0; i < 300; i++) {
                r.step();
            }
            double[] out = new double[WorldRunner.POSE_VALUES];
            int checked = 0;
            for (int mi = 0; mi < w.models().size(); mi++) {
                World.Model m = w.models().get(mi);
                for (int l = 0; l < m.links().size(); l++) {
                    Pose p = r.linkPose(m.name(), l);
                    assertThat(r.linkPose(mi, l, out)).isEqualTo(p != null);
                    if (p != null) {
                        assertThat(out).containsExactly(p.x(), p.y(), p.z(), p.qw(), p.qx(), p.qy(), p.qz());
                        checked++;
                    }
                }
            }
            assertThat(checked).isGreaterThan(1);
        }
    }

    @Test
    void feed_manualClock_framesAtMostOncePerPeriodAndStateOnLevelChanges() {
        World w = GazeboWorlds.example("drop.sdf");
        Collected sink = new Collected();
        long[] clock = {0};
        ViewFeed feed = new ViewFeed(new SceneDescription(w), w, sink, () -> clock[0], 16_000_000L, Map::of);
        try (WorldRunner r = new WorldRunner(w, true)) {
            r.addListener(feed);
            for (int i = 0; i < 100; i++) {
                clock[0] += 5_000_000L; // 5 ms of wall time per step
                r.step();
            }
            assertThat(sink.scenes).hasSize(1);
            // the initial state (iteration 0, at the first step's 5 ms), then every 4th step (20 ms >= 16
            // ms); level changes publish at once
            List<Long> its = new ArrayList<>();
            for (ByteBuffer f : sink.frames) {
                its.add(PoseFrame.iteration(f));
            }
            assertThat(its).startsWith(0L, 5L, 9L);
            assertThat(its.size()).isBetween(25, 25 + sink.states.size());
            assertThat(sink.states.get(0)).contains("\"iteration\":0,");
            feed.flush(r);
            assertThat(PoseFrame.iteration(sink.frames.get(sink.frames.size() - 1))).isEqualTo(100);
        }
    }

    @Test
    void feed_cableAndDeformable_segmentsAndNodesSentAtTheirBodies() {
        World w = GazeboWorlds.example("cable_and_beam.sdf");
        Collected sink = new Collected();
        SceneDescription scene = new SceneDescription(w);
        ViewFeed feed = new ViewFeed(scene, w, sink, () -> 0L, 0, Map::of);
        try (WorldRunner r = new WorldRunner(w, false)) {
            r.addListener(feed);
            for (int i = 0; i < 20; i++) {
                r.step();
            }
            assertThat(sink.scenes).hasSize(1);
            assertThat(sink.scenes.get(0))
                    .contains("\"model\":\"rope\",\"link\":\"39\",\"static\":false,\"visuals\":[{\"pose\":[0.0,0.0,0.0,0.0,0.0,0.0,1.0],"
                            + "\"rgba\":[0.95,0.55,0.15,1.0],\"geometry\":{\"type\":\"capsule\",\"radius\":0.01,\"length\":0.05}")
                    .contains("\"model\":\"beam\",\"link\":\"188\",\"static\":false,\"visuals\":[]}")
                    .contains("\"surfaces\":[{\"model\":\"beam\",\"rgba\":[0.35,0.8,0.75,1.0],\"triangles\":[")
                    .doesNotContain("\"link\":\"189\"")
                    .contains("{\"name\":\"rope\",\"static\":false},{\"name\":\"beam\",\"static\":false}");
            assertThat(sink.states.get(0)).contains("\"rope\",\"beam\"]");
            // the beam's boundary: 336 triangles (2 x (20 x 2 + 20 x 2 + 2 x 2) cell faces, two each) on its 189 nodes
            String scene0 = sink.scenes.get(0);
            String tri = scene0.substring(scene0.indexOf("\"triangles\":[") + 13, scene0.indexOf(']', scene0.indexOf("\"triangles\":[")));
            assertThat(tri.split(",")).hasSize(3 * 336).allSatisfy(v -> assertThat(Integer.parseInt(v)).isBetween(0, 188));
            // the last frame: every segment (40) and every node of the 21 x 3 x 3 grid (189; no block copies), each at its body
            ByteBuffer f = sink.frames.get(sink.frames.size() - 1);
            assertThat(PoseFrame.iteration(f)).isEqualTo(20);
            io.tandem.physics.PhysicsModel pm = r.physicsModel();
            io.tandem.physics.PhysicsState st = r.physicsState();
            Map<String, Integer> bodyOfName = new java.util.HashMap<>();
            for (int b = 0; b < pm.bodyCount(); b++) {
                bodyOfName.put(pm.bodyName(b), b);
            }
            int rope = 0;
            int beam = 0;
            for (int k = 0; k < PoseFrame.count(f); k++) {
                int id = PoseFrame.id(f, k);
                String m = scene.model(id);
                if (!m.equals("rope") && !m.equals("beam")) {
                    continue;
                }
                int b = bodyOfName.get(m + "/" + scene.link(id));
                for (int d = 0; d < 3; d++) {
                    assertThat(PoseFrame.value(f, k, d)).isEqualTo((float) st.pos[3 * b + d]);
                }
                // x, y, z, qx, qy, qz, qw in the frame; w, x, y, z in the state
                assertThat(PoseFrame.value(f, k, 6)).isEqualTo((float) st.quat[4 * b]);
                assertThat(PoseFrame.value(f, k, 3)).isEqualTo((float) st.quat[4 * b + 1]);
                rope += m.equals("rope") ? 1 : 0;
                beam += m.equals("beam") ? 1 : 0;
            }
            assertThat(rope).isEqualTo(40);
            assertThat(beam).isEqualTo(189);
            // the rope falls from its clamp: its free end is below where it started
            assertThat(st.pos[3 * bodyOfName.get("rope/39") + 2]).isLessThan(1.0 - 1e-4);
        }
    }

    @Test
    void feed_recolouredModel_stateSentOnceWithItsColour() {
        World w = GazeboWorlds.example("drop.sdf");
        Collected sink = new Collected();
        ViewFeed feed = new ViewFeed(new SceneDescription(w), w, sink, () -> 0L, 0, Map::of);
        try (WorldRunner r = new WorldRunner(w, true)) {
            r.addListener(feed);
            for (int i = 0; i < 3; i++) {
                r.step();
            }
            int before = sink.states.size();
            r.setVisualColor("ball", 0, 0, 1);
            r.step();
            r.step();
            assertThat(sink.states).hasSize(before + 1);
            assertThat(sink.states.get(before)).contains("\"colors\":{\"ball\":[0.0,0.0,1.0]}");
        }
    }

    @Test
    void mcapRecord_framesEveryIterationEqualThePoseRowsToSinglePrecision(@TempDir Path dir) throws IOException {
        World w = GazeboWorlds.example("drop.sdf");
        Path file = dir.resolve("run.mcap");
        try (WorldRunner r = new WorldRunner(w, true); PoseRecorder rec = PoseRecorder.open(file, PoseRecorder.Format.MCAP).posesJson(true)) {
            r.addListener(rec);
            for (int i = 0; i < 40; i++) {
                r.step();
            }
        }
        McapReader.Recording rec = McapReader.read(file);
        assertThat(rec.topic(PoseRecorder.SCENE_TOPIC)).hasSize(1);
        assertThat(rec.topic(PoseRecorder.STATE_TOPIC)).isNotEmpty();
        List<McapReader.Message> frames = rec.topic(PoseRecorder.FRAMES_TOPIC);
        // the initial state (iteration 0) and every iteration
        assertThat(frames).hasSize(41);
        assertThat(PoseFrame.iteration(ByteBuffer.wrap(frames.get(0).data()))).isZero();
        SceneDescription scene = new SceneDescription(w);
        ByteBuffer last = ByteBuffer.wrap(frames.get(40).data());
        assertThat(PoseFrame.iteration(last)).isEqualTo(40);
        assertThat(frames.get(40).logTimeNs()).isEqualTo(PoseFrame.simTimeNs(last));
        // the ball's row of iteration 40 on /tandem/poses
        String row = rec.topic(PoseRecorder.POSES_TOPIC).stream().map(m -> new String(m.data(), StandardCharsets.UTF_8))
                .filter(s -> s.startsWith("{\"iteration\":40,") && s.contains("\"model\":\"ball\"")).findFirst().orElseThrow();
        double z = Double.parseDouble(row.replaceAll(".*\"z\":([^,]+),.*", "$1"));
        int ball = -1;
        for (int i = 0; i < PoseFrame.count(last); i++) {
            if (scene.model(PoseFrame.id(last, i)).equals("ball")) {
                ball = i;
            }
        }
        assertThat(ball).isNotNegative();
        assertThat(PoseFrame.value(last, ball, 2)).isEqualTo((float) z);
        McapReader.Channel ch = rec.channels().values().stream().filter(c -> c.topic().equals(PoseRecorder.FRAMES_TOPIC))
                .findFirst().orElseThrow();
        assertThat(ch.messageEncoding()).isEqualTo("x-tandem-pose-frame");
    }
}
