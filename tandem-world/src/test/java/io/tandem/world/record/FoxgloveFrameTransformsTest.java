package io.tandem.world.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * foxglove.FrameTransforms in protobuf: messages read back by a small wire-format reader, the schema
 * read as a FileDescriptorSet field by field against Foxglove's .proto files, and both decoded by
 * protobufjs (what Foxglove and Lichtblick decode with) from the schema alone.
 */
class FoxgloveFrameTransformsTest {

    /** A protobuf message's fields in order: number, and the value (Long for varints, raw bits for fixed64, byte[]). */
    record Field(int number, Object value) {
    }

    static List<Field> parse(byte[] b, int off, int len) {
        ByteBuffer in = ByteBuffer.wrap(b, off, len).order(ByteOrder.LITTLE_ENDIAN);
        List<Field> fields = new ArrayList<>();
        while (in.hasRemaining()) {
            long key = varint(in);
            int number = (int) (key >>> 3);
            switch ((int) (key & 7)) {
                case 0 -> fields.add(new Field(number, varint(in)));
                case 1 -> fields.add(new Field(number, in.getLong()));
                case 2 -> {
                    byte[] v = new byte[(int) varint(in)];
                    in.get(v);
                    fields.add(new Field(number, v));
                }
                default -> throw new AssertionError("wire type " + (key & 7));
            }
        }
        return fields;
    }

    private static long varint(ByteBuffer in) {
        long v = 0;
        for (int shift = 0;; shift += 7) {
            byte x = in.get();
            v |= (long) (x & 0x7f) << shift;
            if (x >= 0) {
                return v;
            }
        }
    }

    private static List<Field> sub(Field f) {
        byte[] b = (byte[]) f.value();
        return parse(b, 0, b.length);
    }

    private static String str(Field f) {
        return new String((byte[]) f.value(), StandardCharsets.UTF_8);
    }

    private static double dbl(Field f) {
        return Double.longBitsToDouble((Long) f.value());
    }

    @Test
    void add_twoTransforms_readBackField() {
        FoxgloveFrameTransforms tf = new FoxgloveFrameTransforms();
        tf.add(1_500_000_000L, "world".getBytes(StandardCharsets.UTF_8), "cart".getBytes(StandardCharsets.UTF_8), 1.5, -2.25, 0.0,
                0.0, 0.0, Math.sqrt(0.5), Math.sqrt(0.5));
        tf.add(2_000_000L, "world".getBytes(StandardCharsets.UTF_8), "cart::wheel".getBytes(StandardCharsets.UTF_8), 1e-300, 7, -0.0,
                0.5, -0.5, 0.5, -0.5);
        assertThat(tf.size()).isEqualTo(2);
        List<Field> message = parse(tf.bytes(), 0, tf.length());
        assertThat(message).extracting(Field::number).containsExactly(1, 1);

        List<Field> first = sub(message.get(0));
        assertThat(first).extracting(Field::number).containsExactly(1, 2, 3, 4, 5);
        assertThat(sub(first.get(0))).containsExactly(new Field(1, 1L), new Field(2, 500_000_000L));
        assertThat(str(first.get(1))).isEqualTo("world");
        assertThat(str(first.get(2))).isEqualTo("cart");
        assertThat(sub(first.get(3)).stream().map(FoxgloveFrameTransformsTest::dbl)).containsExactly(1.5, -2.25, 0.0);
        assertThat(sub(first.get(4)).stream().map(FoxgloveFrameTransformsTest::dbl))
                .containsExactly(0.0, 0.0, Math.sqrt(0.5), Math.sqrt(0.5));
        assertThat(sub(first.get(3))).extracting(Field::number).containsExactly(1, 2, 3);
        assertThat(sub(first.get(4))).extracting(Field::number).containsExactly(1, 2, 3, 4);

        List<Field> second = sub(message.get(1));
        assertThat(sub(second.get(0))).as("0 s: seconds left out").containsExactly(new Field(2, 2_000_000L));
        assertThat(str(second.get(2))).isEqualTo("cart::wheel");
        assertThat(sub(second.get(3)).stream().map(FoxgloveFrameTransformsTest::dbl)).containsExactly(1e-300, 7.0, -0.0);

        tf.clear();
        assertThat(tf.size()).isZero();
        assertThat(tf.length()).isZero();
    }

    /**
     * A recorded run's /tf holds, bitwise, every pose row its JSON lines record writes as text (a
     * robot's model and links), each in the message of its iteration: what lets an MCAP record leave
     * /tandem/poses out by default.
     */
    @Test
    void poseRecorder_tfOfARun_bitwiseTheJsonLinesPoseRows(@TempDir Path dir) throws Exception {
        io.tandem.world.World w = io.tandem.world.sdf.SdfLoader.load(Path.of("../examples/worlds/diff_drive.sdf"), x -> { });
        Path mcap = dir.resolve("run.mcap");
        Path jsonl = dir.resolve("run.jsonl");
        try (io.tandem.world.WorldRunner r = new io.tandem.world.WorldRunner(w, false);
             io.tandem.world.PoseRecorder a = io.tandem.world.PoseRecorder.open(mcap, io.tandem.world.PoseRecorder.Format.MCAP);
             io.tandem.world.PoseRecorder b = io.tandem.world.PoseRecorder.open(jsonl, io.tandem.world.PoseRecorder.Format.JSONL)) {
            a.jsonEvery(0);
            r.addListener(a);
            r.addListener(b);
            for (int i = 0; i < 300; i++) {
                r.step();
            }
        }
        java.util.regex.Pattern row = java.util.regex.Pattern.compile("\\{\"iteration\":(\\d+),\"sim_time_s\":[^,]+,\"model\":\"([^\"]+)\","
                + "\"x\":([^,]+),\"y\":([^,]+),\"z\":([^,]+),\"qx\":([^,]+),\"qy\":([^,]+),\"qz\":([^,]+),\"qw\":([^}]+)}");
        Map<String, List<Double>> expected = new java.util.LinkedHashMap<>();
        for (String line : Files.readAllLines(jsonl)) {
            java.util.regex.Matcher m = row.matcher(line);
            if (m.matches()) {
                List<Double> v = new ArrayList<>();
                for (int g = 3; g <= 9; g++) {
                    v.add(Double.parseDouble(m.group(g)));
                }
                expected.put(m.group(1) + " " + m.group(2), v);
            }
        }
        McapReader.Recording rec = McapReader.read(mcap);
        assertThat(rec.channels().values()).extracting(McapReader.Channel::topic).doesNotContain("/tandem/poses");
        Map<String, List<Double>> recorded = new java.util.LinkedHashMap<>();
        for (McapReader.Message m : rec.topic("/tf")) {
            long iteration = m.logTimeNs() / w.stepSizeNs();
            for (Field transform : parse(m.data(), 0, m.data().length)) {
                List<Field> t = sub(transform);
                List<Double> v = new ArrayList<>();
                sub(t.get(3)).forEach(f -> v.add(dbl(f)));
                sub(t.get(4)).forEach(f -> v.add(dbl(f)));
                recorded.put(iteration + " " + str(t.get(2)), v);
            }
        }
        assertThat(expected).hasSizeGreaterThan(300 * 3).containsKey("300 cart::left_wheel");
        assertThat(recorded).isEqualTo(expected);
    }

    @Test
    void add_manyTransforms_growsAndKeepsEarlierOnes() {
        FoxgloveFrameTransforms tf = new FoxgloveFrameTransforms();
        byte[] parent = "world".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 500; i++) {
            tf.add(i, parent, ("body/" + i).getBytes(StandardCharsets.UTF_8), i, 0, 0, 0, 0, 0, 1);
        }
        List<Field> message = parse(tf.bytes(), 0, tf.length());
        assertThat(message).hasSize(500);
        for (int i = 0; i < 500; i += 99) {
            List<Field> t = sub(message.get(i));
            assertThat(str(t.get(2))).isEqualTo("body/" + i);
            assertThat(dbl(sub(t.get(3)).get(0))).isEqualTo(i);
        }
    }

    @Test
    void schema_fileDescriptorSet_declaresFoxglovesFieldsAndImports() {
        byte[] set = FoxgloveFrameTransforms.schema();
        List<String> files = new ArrayList<>();
        Map<String, List<String>> fields = new java.util.LinkedHashMap<>();
        for (Field file : parse(set, 0, set.length)) {
            assertThat(file.number()).isEqualTo(1);
            List<Field> f = sub(file);
            String name = str(f.get(0));
            List<String> deps = f.stream().filter(x -> x.number() == 3).map(FoxgloveFrameTransformsTest::str).toList();
            files.add(name + " " + str(f.get(1)) + " " + deps);
            assertThat(str(f.get(f.size() - 1))).as("syntax").isEqualTo("proto3");
            List<Field> message = sub(f.stream().filter(x -> x.number() == 4).findFirst().orElseThrow());
            List<String> described = new ArrayList<>();
            for (Field field : message.subList(1, message.size())) {
                List<Field> d = sub(field);
                // name number label type [type_name] json_name
                StringBuilder s = new StringBuilder(str(d.get(0)));
                for (Field x : d.subList(1, d.size())) {
                    s.append(' ').append(x.value() instanceof byte[] ? str(x) : x.value());
                }
                described.add(s.toString());
            }
            fields.put(str(message.get(0)), described);
        }
        // every file a message imports comes before it (a reader may load them in order)
        assertThat(files).containsExactly("google/protobuf/timestamp.proto google.protobuf []", "foxglove/Vector3.proto foxglove []",
                "foxglove/Quaternion.proto foxglove []",
                "foxglove/FrameTransform.proto foxglove [foxglove/Quaternion.proto, foxglove/Vector3.proto, google/protobuf/timestamp.proto]",
                "foxglove/FrameTransforms.proto foxglove [foxglove/FrameTransform.proto]");
        // label 1 optional, 3 repeated; type 1 double, 3 int64, 5 int32, 9 string, 11 message
        assertThat(fields.get("Timestamp")).containsExactly("seconds 1 1 3 seconds", "nanos 2 1 5 nanos");
        assertThat(fields.get("Vector3")).containsExactly("x 1 1 1 x", "y 2 1 1 y", "z 3 1 1 z");
        assertThat(fields.get("Quaternion")).containsExactly("x 1 1 1 x", "y 2 1 1 y", "z 3 1 1 z", "w 4 1 1 w");
        assertThat(fields.get("FrameTransform")).containsExactly("timestamp 1 1 11 .google.protobuf.Timestamp timestamp",
                "parent_frame_id 2 1 9 parentFrameId", "child_frame_id 3 1 9 childFrameId",
                "translation 4 1 11 .foxglove.Vector3 translation", "rotation 5 1 11 .foxglove.Quaternion rotation");
        assertThat(fields.get("FrameTransforms")).containsExactly("transforms 1 3 11 .foxglove.FrameTransform transforms");
    }

    /**
     * protobufjs 7.4.0 (Foxglove's and Lichtblick's protobuf library) builds the types from the
     * file's schema alone and decodes each message to the values written. Needs node, @mcap/core and
     * protobufjs in tandem-world/target/mcapjs (.ci/run installs them); skipped with the reason otherwise.
     */
    @Test
    void officialDecoder_protobufjsFromTheSchema_readsTheTransforms(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (McapWriter w = new McapWriter(out, "", "test", 1 << 16)) {
            int s = w.schema(FoxgloveFrameTransforms.SCHEMA_NAME, FoxgloveFrameTransforms.ENCODING, FoxgloveFrameTransforms.schema());
            int c = w.channel("/tf", s, FoxgloveFrameTransforms.ENCODING, Map.of());
            FoxgloveFrameTransforms tf = new FoxgloveFrameTransforms();
            byte[] world = "world".getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 2; i++) {
                tf.clear();
                tf.add(1_000_000_000L * i + 250, world, "ball".getBytes(StandardCharsets.UTF_8), 0.1 * i, -3, 2.5, 0, 0, 0, 1);
                tf.add(1_000_000_000L * i + 250, world, "arm::link_1".getBytes(StandardCharsets.UTF_8), 1, 2, 3, 0.5, 0.5, 0.5, 0.5);
                w.message(c, i, 1_000_000_000L * i, 1_000_000_000L * i, tf.bytes(), 0, tf.length());
            }
        }
        Path file = dir.resolve("tf.mcap");
        Files.write(file, out.toByteArray());
        String output = NodeScript.run("tf-check.cjs", dir, List.of("@mcap/core", "protobufjs"), file.toString());
        String ball = "{\"timestamp\":{\"seconds\":%d,\"nanos\":250},\"parent_frame_id\":\"world\",\"child_frame_id\":\"ball\","
                + "\"translation\":{\"x\":%s,\"y\":-3,\"z\":2.5},\"rotation\":{\"x\":0,\"y\":0,\"z\":0,\"w\":1}}";
        String arm = "{\"timestamp\":{\"seconds\":%d,\"nanos\":250},\"parent_frame_id\":\"world\",\"child_frame_id\":\"arm::link_1\","
                + "\"translation\":{\"x\":1,\"y\":2,\"z\":3},\"rotation\":{\"x\":0.5,\"y\":0.5,\"z\":0.5,\"w\":0.5}}";
        assertThat(output).isEqualTo("{\"schemaName\":\"foxglove.FrameTransforms\",\"schemaEncoding\":\"protobuf\","
                + "\"messageEncoding\":\"protobuf\",\"messages\":[{\"transforms\":[" + String.format(java.util.Locale.ROOT, ball, 0, "0")
                + "," + String.format(java.util.Locale.ROOT, arm, 0) + "]},{\"transforms\":["
                + String.format(java.util.Locale.ROOT, ball, 1, "0.1") + "," + String.format(java.util.Locale.ROOT, arm, 1) + "]}]}");
    }
}
