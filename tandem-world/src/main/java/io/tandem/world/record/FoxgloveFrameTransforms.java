package io.tandem.world.record;

import java.io.ByteArrayOutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/*
 * Implementation notes.
 *
 * Foxglove's well-known schema foxglove.FrameTransforms in its protobuf form (github.com/foxglove/
 * foxglove-sdk, schemas/proto/foxglove), the form Foxglove, Lichtblick and Rerun all decode
 * (Rerun turns it into Transform3D; it does not decode JSON messages):
 *
 *   message FrameTransforms { repeated FrameTransform transforms = 1; }
 *   message FrameTransform { google.protobuf.Timestamp timestamp = 1; string parent_frame_id = 2;
 *       string child_frame_id = 3; Vector3 translation = 4; Quaternion rotation = 5; }
 *   message Vector3 { double x = 1; double y = 2; double z = 3; }
 *   message Quaternion { double x = 1; double y = 2; double z = 3; double w = 4; }
 *   message Timestamp { int64 seconds = 1; int32 nanos = 2; }   (google/protobuf/timestamp.proto)
 *
 * An MCAP channel of protobuf messages carries, as its schema, a serialized
 * google.protobuf.FileDescriptorSet holding the message's file and every file it imports
 * (mcap.dev/spec/registry). The set is written here by hand from descriptor.proto's field numbers
 * (FileDescriptorProto: name 1, package 2, dependency 3, message_type 4, syntax 12;
 * DescriptorProto: name 1, field 2; FieldDescriptorProto: name 1, number 3, label 4, type 5,
 * type_name 6, json_name 10), one file per message as Foxglove lays them out.
 *
 * Messages are written in the protobuf wire format: a tag (field << 3 | wire type) then a varint
 * (type 0), 8 little-endian bytes (type 1, the doubles) or a varint length and the bytes (type 2:
 * strings and sub-messages). Every double is written, zeros included (a reader takes an explicit
 * zero as the default); the timestamp's zero fields are left out, as proto3 writers do.
 */

/**
 * Writes {@code foxglove.FrameTransforms} messages in protobuf encoding, and the channel's schema
 * ({@link #schema()}, a FileDescriptorSet). One instance per writing thread: {@link #add} appends a
 * transform to the message being built in a reused array, which grows (allocates) only when a
 * message is larger than any before.
 */
public final class FoxgloveFrameTransforms {
    /** the MCAP schema's name */
    public static final String SCHEMA_NAME = "foxglove.FrameTransforms";
    /** the MCAP schema's encoding, and its channel's message encoding */
    public static final String ENCODING = "protobuf";

    private static final VarHandle DOUBLE_LE = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int WIRE_VARINT = 0;
    private static final int WIRE_FIXED64 = 1;
    private static final int WIRE_BYTES = 2;
    // descriptor.proto's enum values
    private static final int LABEL_OPTIONAL = 1;
    private static final int LABEL_REPEATED = 3;
    private static final int TYPE_DOUBLE = 1;
    private static final int TYPE_INT64 = 3;
    private static final int TYPE_INT32 = 5;
    private static final int TYPE_STRING = 9;
    private static final int TYPE_MESSAGE = 11;

    private byte[] buf = new byte[4096];
    private int length;
    private int count;

    /** Starts a new message (no transforms). */
    public void clear() {
        length = 0;
        count = 0;
    }

    /** @return the transforms in the message so far */
    public int size() {
        return count;
    }

    /** @return the message's bytes: the first {@link #length()} of this array (reused by the next message) */
    public byte[] bytes() {
        return buf;
    }

    /** @return the message's length, bytes */
    public int length() {
        return length;
    }

    /**
     * Appends a transform of child in parent at a time.
     *
     * @param timeNs the transform's timestamp, ns (from 0: the simulated time)
     * @param parent the parent frame's id, UTF-8
     * @param child  the child frame's id, UTF-8
     * @param x      translation, m (also y, z)
     * @param qx     rotation as a unit quaternion (also qy, qz, qw)
     */
    public void add(long timeNs, byte[] parent, byte[] child, double x, double y, double z, double qx, double qy, double qz,
            double qw) {
        long seconds = Math.floorDiv(timeNs, 1_000_000_000L);
        int nanos = (int) Math.floorMod(timeNs, 1_000_000_000L);
        int stamp = (seconds != 0 ? 1 + varintSize(seconds) : 0) + (nanos != 0 ? 1 + varintSize(nanos) : 0);
        int body = 2 + stamp + 1 + varintSize(parent.length) + parent.length + 1 + varintSize(child.length) + child.length
                + 2 + 27 + 2 + 36;
        int need = length + 1 + varintSize(body) + body;
        if (need > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(need, 2 * buf.length));
        }
        int p = tag(length, 1, WIRE_BYTES);
        p = varint(p, body);
        p = tag(p, 1, WIRE_BYTES);
        p = varint(p, stamp);
        if (seconds != 0) {
            p = varint(tag(p, 1, WIRE_VARINT), seconds);
        }
        if (nanos != 0) {
            p = varint(tag(p, 2, WIRE_VARINT), nanos);
        }
        p = bytes(tag(p, 2, WIRE_BYTES), parent);
        p = bytes(tag(p, 3, WIRE_BYTES), child);
        p = varint(tag(p, 4, WIRE_BYTES), 27);
        p = fixed(p, 1, x);
        p = fixed(p, 2, y);
        p = fixed(p, 3, z);
        p = varint(tag(p, 5, WIRE_BYTES), 36);
        p = fixed(p, 1, qx);
        p = fixed(p, 2, qy);
        p = fixed(p, 3, qz);
        length = fixed(p, 4, qw);
        count++;
    }

    private int tag(int p, int field, int wire) {
        buf[p] = (byte) (field << 3 | wire);
        return p + 1;
    }

    private int varint(int p, long v) {
        while ((v & ~0x7fL) != 0) {
            buf[p++] = (byte) (v & 0x7f | 0x80);
            v >>>= 7;
        }
        buf[p++] = (byte) v;
        return p;
    }

    private int bytes(int p, byte[] b) {
        p = varint(p, b.length);
        System.arraycopy(b, 0, buf, p, b.length);
        return p + b.length;
    }

    private int fixed(int p, int field, double v) {
        p = tag(p, field, WIRE_FIXED64);
        DOUBLE_LE.set(buf, p, v);
        return p + 8;
    }

    private static int varintSize(long v) {
        int n = 1;
        while ((v & ~0x7fL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    /** @return the schema: a serialized FileDescriptorSet of foxglove.FrameTransforms and the files it imports (allocates) */
    public static byte[] schema() {
        Proto set = new Proto();
        set.message(1, file("google/protobuf/timestamp.proto", "google.protobuf", new String[0],
                message("Timestamp", field("seconds", 1, LABEL_OPTIONAL, TYPE_INT64, null),
                        field("nanos", 2, LABEL_OPTIONAL, TYPE_INT32, null))));
        set.message(1, file("foxglove/Vector3.proto", "foxglove", new String[0], message("Vector3",
                field("x", 1, LABEL_OPTIONAL, TYPE_DOUBLE, null), field("y", 2, LABEL_OPTIONAL, TYPE_DOUBLE, null),
                field("z", 3, LABEL_OPTIONAL, TYPE_DOUBLE, null))));
        set.message(1, file("foxglove/Quaternion.proto", "foxglove", new String[0], message("Quaternion",
                field("x", 1, LABEL_OPTIONAL, TYPE_DOUBLE, null), field("y", 2, LABEL_OPTIONAL, TYPE_DOUBLE, null),
                field("z", 3, LABEL_OPTIONAL, TYPE_DOUBLE, null), field("w", 4, LABEL_OPTIONAL, TYPE_DOUBLE, null))));
        set.message(1, file("foxglove/FrameTransform.proto", "foxglove",
                new String[] {"foxglove/Quaternion.proto", "foxglove/Vector3.proto", "google/protobuf/timestamp.proto"},
                message("FrameTransform",
                        field("timestamp", 1, LABEL_OPTIONAL, TYPE_MESSAGE, ".google.protobuf.Timestamp"),
                        field("parent_frame_id", 2, LABEL_OPTIONAL, TYPE_STRING, null),
                        field("child_frame_id", 3, LABEL_OPTIONAL, TYPE_STRING, null),
                        field("translation", 4, LABEL_OPTIONAL, TYPE_MESSAGE, ".foxglove.Vector3"),
                        field("rotation", 5, LABEL_OPTIONAL, TYPE_MESSAGE, ".foxglove.Quaternion"))));
        set.message(1, file("foxglove/FrameTransforms.proto", "foxglove", new String[] {"foxglove/FrameTransform.proto"},
                message("FrameTransforms", field("transforms", 1, LABEL_REPEATED, TYPE_MESSAGE, ".foxglove.FrameTransform"))));
        return set.toByteArray();
    }

    /** A FileDescriptorProto (proto3) of one message. */
    private static Proto file(String name, String pkg, String[] dependencies, Proto message) {
        Proto f = new Proto().string(1, name).string(2, pkg);
        for (String d : dependencies) {
            f.string(3, d);
        }
        return f.message(4, message).string(12, "proto3");
    }

    /** A DescriptorProto. */
    private static Proto message(String name, Proto... fields) {
        Proto m = new Proto().string(1, name);
        for (Proto f : fields) {
            m.message(2, f);
        }
        return m;
    }

    /** A FieldDescriptorProto; typeName for a message field. */
    private static Proto field(String name, int number, int label, int type, String typeName) {
        Proto f = new Proto().string(1, name).varint(3, number).varint(4, label).varint(5, type);
        if (typeName != null) {
            f.string(6, typeName);
        }
        return f.string(10, jsonName(name));
    }

    /** protoc's json_name: lowerCamelCase of a snake_case name */
    private static String jsonName(String name) {
        StringBuilder b = new StringBuilder();
        boolean up = false;
        for (char c : name.toCharArray()) {
            if (c == '_') {
                up = true;
            } else {
                b.append(up ? Character.toUpperCase(c) : c);
                up = false;
            }
        }
        return b.toString();
    }

    /** A protobuf message being written, for the schema (allocates). */
    private static final class Proto {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Proto varint(int field, long v) {
            key(field, WIRE_VARINT);
            raw(v);
            return this;
        }

        Proto string(int field, String s) {
            return bytes(field, s.getBytes(StandardCharsets.UTF_8));
        }

        Proto message(int field, Proto m) {
            return bytes(field, m.toByteArray());
        }

        private Proto bytes(int field, byte[] b) {
            key(field, WIRE_BYTES);
            raw(b.length);
            out.writeBytes(b);
            return this;
        }

        private void key(int field, int wire) {
            raw((long) field << 3 | wire);
        }

        private void raw(long v) {
            while ((v & ~0x7fL) != 0) {
                out.write((int) (v & 0x7f | 0x80));
                v >>>= 7;
            }
            out.write((int) v);
        }

        byte[] toByteArray() {
            return out.toByteArray();
        }
    }
}
