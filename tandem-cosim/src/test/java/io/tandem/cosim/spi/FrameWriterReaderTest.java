package io.tandem.cosim.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link FrameWriter} and {@link FrameReader}: the byte layout, round trips, bounds and errors, reuse without
 * allocation.
 */
@SuppressForbidden // per-thread allocation counters live in com.sun.management
class FrameWriterReaderTest {
    /** reports every error with what the reader tells about it */
    private static final FrameErrors ERRORS = new FrameErrors() {
        @Override
        public RuntimeException truncated(FrameReader frame, String field, int needed) {
            return new IllegalStateException("truncated type " + frame.type() + ": " + field + " needs " + needed
                    + " at " + frame.position() + ", " + frame.remaining() + " left of " + frame.length());
        }

        @Override
        public RuntimeException trailingBytes(FrameReader frame) {
            return new IllegalStateException(frame.remaining() + " bytes after type " + frame.type());
        }

        @Override
        public RuntimeException invalid(FrameReader frame, String field, long value) {
            return new IllegalStateException("invalid " + field + " " + value + " at " + frame.position());
        }
    };

    private final FrameReader reader = new FrameReader(ERRORS);

    private static FrameWriter everyType(FrameWriter w) {
        return w.putByte(0x81).putBoolean(true).putShort(0x0102).putInt(0x01020304).putLong(0x0102030405060708L)
                .putDouble(1.0).putBytes(null).putBytes(new byte[] {9}).putString("ä").putStrings(List.of("a", ""))
                .putInts(new int[] {-1, 2}).putDoubles(new double[] {-0.0}).putRaw(new byte[] {5, 6, 7}, 1, 2);
    }

    @Test
    void put_everyType_littleEndianLayout() {
        byte[] frame = everyType(new FrameWriter("test", 1)).toByteArray();
        assertThat(HexFormat.of().formatHex(frame)).isEqualTo("81" + "01" + "0201" + "04030201" + "0807060504030201"
                + "000000000000f03f" + "ffffffff" + "01000000" + "09" + "02000000" + "c3a4" + "02000000" + "01000000"
                + "61" + "00000000" + "ffffffff" + "02000000" + "0000000000000080" + "0607");
    }

    @Test
    void roundTrip_everyType_sameValuesBitwise() {
        double nan = Double.longBitsToDouble(0x7ff0_0000_0000_0123L);
        FrameWriter w = everyType(new FrameWriter("test", 8)).putDouble(nan).putLong(Long.MIN_VALUE);
        FrameReader r = reader.wrap(w.array(), 0, w.position(), 0, 3);
        assertThat(r.getByte()).isEqualTo((byte) 0x81);
        assertThat(r.getBoolean("flag")).isTrue();
        assertThat(r.getByte("short low") | r.getByte("short high") << 8).isEqualTo(0x0102);
        assertThat(r.getInt("int")).isEqualTo(0x01020304);
        assertThat(r.getLong()).isEqualTo(0x0102030405060708L);
        assertThat(r.getDouble("one")).isEqualTo(1.0);
        assertThat(r.getBytes("null")).isNull();
        assertThat(r.getBytes("nine")).containsExactly(9);
        assertThat(r.getString("umlaut")).isEqualTo("ä");
        assertThat(r.getCount("strings", 4)).isEqualTo(2);
        assertThat(r.getString()).isEqualTo("a");
        assertThat(r.getString("empty")).isEmpty();
        int[] ints = new int[2];
        r.getInts(ints);
        assertThat(ints).containsExactly(-1, 2);
        double[] doubles = new double[1];
        r.getDoubles(doubles);
        assertThat(Double.doubleToRawLongBits(doubles[0])).isEqualTo(Double.doubleToRawLongBits(-0.0));
        byte[] raw = new byte[4];
        r.getRaw(raw, 1, 2);
        assertThat(raw).containsExactly(0, 6, 7, 0);
        assertThat(Double.doubleToRawLongBits(r.getDouble())).isEqualTo(0x7ff0_0000_0000_0123L);
        assertThat(r.getLong("min")).isEqualTo(Long.MIN_VALUE);
        assertThat(r.atEnd()).isTrue();
        assertThat(r.remaining()).isZero();
        assertThat(r.position()).isEqualTo(w.position()).isEqualTo(r.length());
        assertThat(r.type()).isEqualTo(3);
        r.expectEnd();
    }

    @Test
    void writer_growsFromOneByte_resetKeepsTheArray_setOverwrites() {
        FrameWriter w = new FrameWriter("test", 1);
        for (int i = 0; i < 1000; i++) {
            w.putInt(i);
        }
        assertThat(w.position()).isEqualTo(4000);
        assertThat(FrameReader.intAt(w.array(), 4 * 999)).isEqualTo(999);
        byte[] array = w.array();
        w.reset().putLong(1).putInt(2);
        assertThat(w.array()).isSameAs(array);
        assertThat(w.position()).isEqualTo(12);
        w.setLong(0, -7).setInt(8, 0x7f);
        assertThat(FrameReader.longAt(w.array(), 0)).isEqualTo(-7);
        assertThat(w.toByteArray()).hasSize(12).endsWith(0x7f, 0, 0, 0);
        assertThatThrownBy(() -> w.setLong(5, 1)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("test frame: cannot overwrite 8 bytes at index 5, 12 bytes written");
        assertThatThrownBy(() -> w.setInt(-1, 1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void writer_invalidArguments_rejected() {
        assertThatThrownBy(() -> new FrameWriter(" ", 8)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("name of its protocol");
        assertThatThrownBy(() -> new FrameWriter("test", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("test frame writer: initial capacity must be 1 to");
        assertThatThrownBy(() -> new FrameReader(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void reader_frameAtAnOffset_positionsCountFromItsFirstByte() {
        byte[] array = new byte[32];
        Arrays.fill(array, (byte) 0x55);
        FrameWriter w = new FrameWriter("test", 8).putInt(0).putInt(42);
        System.arraycopy(w.array(), 0, array, 10, 8);
        FrameReader r = reader.wrap(array, 10, 8, 4, 1);
        assertThat(r.position()).isEqualTo(4);
        assertThat(r.getInt("answer")).isEqualTo(42);
        assertThat(r.array()).isSameAs(array);
        // the neighbour's bytes are not the frame's
        assertThatThrownBy(() -> r.getByte("next")).hasMessage("truncated type 1: next needs 1 at 8, 0 left of 8");
        assertThatThrownBy(() -> reader.wrap(array, 30, 8, 0, 1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> reader.wrap(array, 0, 8, 9, 1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void reader_everyTruncation_throwsTheCodecsErrorNamingTheField() {
        byte[] frame = new FrameWriter("test", 8).putInt(7).putString("topic").toByteArray();
        for (int cut = 0; cut < frame.length; cut++) {
            FrameReader r = reader.wrap(frame, 0, cut, 0, 2);
            assertThatThrownBy(() -> {
                r.getInt("id");
                r.getString("topic");
            }).isInstanceOf(IllegalStateException.class).hasMessageStartingWith("truncated type 2: ");
        }
        assertThatThrownBy(() -> reader.wrap(frame, 0, 6, 4, 2).getString("topic"))
                .hasMessage("truncated type 2: topic length needs 4 at 4, 2 left of 6");
        assertThatThrownBy(() -> reader.wrap(frame, 0, 10, 4, 2).getString("topic"))
                .hasMessage("truncated type 2: topic needs 5 at 8, 2 left of 10");
        assertThatThrownBy(() -> reader.wrap(frame, 0, 10, 4, 2).getString())
                .hasMessage("truncated type 2: null needs 5 at 8, 2 left of 10");
        assertThatThrownBy(() -> reader.wrap(frame, 0, 3, 0, 2).getRaw(new byte[4], 0, 4))
                .hasMessage("truncated type 2: null needs 4 at 0, 3 left of 3");
    }

    @Test
    void reader_bytesAfterTheLastField_orInvalidValues_throwTheCodecsError() {
        byte[] frame = new FrameWriter("test", 8).putInt(1).putByte(2).putInt(-3).putInt(1000).toByteArray();
        FrameReader r = reader.wrap(frame, 0, frame.length, 0, 4);
        r.getInt("one");
        assertThatThrownBy(r::expectEnd).hasMessage("9 bytes after type 4");
        assertThatThrownBy(() -> r.getBoolean("flag")).hasMessage("invalid flag 2 at 5");
        assertThatThrownBy(() -> r.getCount("labels", 12)).hasMessage("invalid labels -3 at 9");
        assertThatThrownBy(() -> r.getCount("names", 4))
                .hasMessage("truncated type 4: 1000 x names needs 4000 at 13, 0 left of 13");
        assertThat(r.invalid("code", 9)).hasMessage("invalid code 9 at 13");
    }

    @Test
    void bytesEqual_comparesLengthPrefixedBytes_consumingThem() {
        byte[] frame = new FrameWriter("test", 8).putBytes(new byte[] {1, 2}).putBytes(new byte[] {1, 2}).putInt(5)
                .toByteArray();
        FrameReader r = reader.wrap(frame, 0, frame.length, 0, 0);
        assertThat(r.bytesEqual(new byte[] {1, 2})).isTrue();
        assertThat(r.bytesEqual(new byte[] {1, 3})).isFalse();
        assertThat(r.getInt()).isEqualTo(5);
    }

    @Test
    void copyBuffer_growsOnlyWhenNeeded_andIsReused() {
        byte[] a = reader.copyBuffer(10);
        assertThat(a.length).isGreaterThanOrEqualTo(10);
        assertThat(reader.copyBuffer(a.length)).isSameAs(a);
        assertThat(reader.copyBuffer(a.length + 1).length).isGreaterThan(a.length);
    }

    @Test
    void writeThenRead_reusedWriterAndReader_allocateNothing() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        FrameWriter w = new FrameWriter("test", 256);
        double[] values = new double[8];
        long sum = 0;
        for (int i = 0; i < 20_000; i++) { // warm-up
            sum += roundTrip(w, values, i);
        }
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 100_000; i++) {
            sum += roundTrip(w, values, i);
        }
        long allocated = mx.getCurrentThreadAllocatedBytes() - before;
        assertThat(sum).isNotZero();
        assertThat(allocated).as("bytes allocated by 100k frames written and read").isLessThan(1_000);
    }

    private long roundTrip(FrameWriter w, double[] values, long i) {
        w.reset().putByte(1).putInt((int) i).putLong(i).putDouble(i * 0.5).putDoubles(values).setLong(5, i + 1);
        FrameReader r = reader.wrap(w.array(), 0, w.position(), 1, 0);
        long v = r.getInt("i") + r.getLong("i + 1") + (long) r.getDouble("half");
        r.getDoubles(values);
        r.expectEnd();
        return v;
    }
}
