package io.tandem.world.mesh;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/*
 * STL [1], binary or ASCII, in metres (the format has no unit; Gazebo takes metres).
 *
 *  - Binary: an 80-byte header, a little-endian uint32 triangle count, then 50 bytes a triangle:
 *    a normal (3 float32, ignored), three vertices (9 float32) and a 2-byte attribute (ignored).
 *    The file is binary when its length is exactly 84 + 50 count, even if the header starts with
 *    "solid" (many exporters write that); streamed through a 200 kB buffer.
 *  - ASCII: "solid name", then "facet normal nx ny nz / outer loop / vertex x y z (3x) / endloop /
 *    endfacet", then "endsolid name"; keywords in any case, one per line. Each solid is a part; a
 *    facet with more than three vertices is fanned. A file that starts with "solid" but holds a NUL
 *    byte in its first 84 bytes is a binary file of the wrong length (a header padded with zeros,
 *    the count's high bytes).
 *  - Vertices at exactly equal coordinates are welded (STL repeats each vertex in every facet).
 *
 * [1] 3D Systems, "StereoLithography Interface Specification", 1988 (and 1989 revision).
 */
final class StlReader {
    private static final int HEADER_BYTES = 84;
    private static final int RECORD_BYTES = 50;
    private static final int RECORDS_PER_READ = 4096;
    static final String EMPTY_HINT = "re-export the mesh from the CAD tool with its facets";

    private StlReader() {
    }

    static void read(Path file, long size, MeshAssembler out) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer head = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            readFully(channel, head);
            int headLength = head.position();
            long count = headLength == HEADER_BYTES ? head.getInt(80) & 0xFFFFFFFFL : -1;
            if (count >= 0 && HEADER_BYTES + RECORD_BYTES * count == size) {
                readBinary(channel, file, count, out);
                return;
            }
            if (startsWithSolid(head, headLength) && !hasNul(head, headLength)) {
                channel.position(0);
                InputStream in = new BufferedInputStream(Channels.newInputStream(channel), 1 << 16);
                readAscii(new TextLines(in, file), file, out);
                return;
            }
            if (count < 0) {
                throw MeshErrors.at(file, 0, "the file has " + size + " bytes, fewer than the 84-byte header of a"
                        + " binary STL, and is no ASCII STL (which starts with 'solid'); re-export the mesh");
            }
            long expected = HEADER_BYTES + RECORD_BYTES * count;
            throw MeshErrors.at(file, 0, String.format(Locale.ROOT,
                    "%s binary STL: its header says %d triangles, which take 84 + 50 x %d = %d bytes, but the file has"
                            + " %d bytes; re-export the mesh or repair it (e.g. with MeshLab or admesh)",
                    size < expected ? "truncated" : "malformed", count, count, expected, size));
        }
    }

    private static void readFully(FileChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                return;
            }
        }
    }

    private static boolean startsWithSolid(ByteBuffer head, int length) {
        int i = 0;
        while (i < length && (head.get(i) & 0xff) <= ' ') {
            i++;
        }
        String solid = "solid";
        if (length - i < solid.length()) {
            return false;
        }
        for (int k = 0; k < solid.length(); k++) {
            if (((head.get(i + k) & 0xff) | 0x20) != solid.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasNul(ByteBuffer head, int length) {
        for (int i = 0; i < length; i++) {
            if (head.get(i) == 0) {
                return true;
            }
        }
        return false;
    }

    private static void readBinary(FileChannel channel, Path file, long count, MeshAssembler out) throws IOException {
        // refused before anything is allocated
        out.requireRoom(count, 0);
        PartBuilder part = out.part(MeshErrors.stem(file));
        ByteBuffer records = ByteBuffer.allocate(RECORD_BYTES * RECORDS_PER_READ).order(ByteOrder.LITTLE_ENDIAN);
        long t = 0;
        while (t < count) {
            int batch = (int) Math.min(RECORDS_PER_READ, count - t);
            records.clear().limit(batch * RECORD_BYTES);
            readFully(channel, records);
            if (records.hasRemaining()) {
                long at = t + records.position() / RECORD_BYTES;
                throw MeshErrors.at(file, 0, "truncated binary STL: the file ended inside triangle " + at
                        + " (it shrank while being read?); re-export the mesh");
            }
            for (int r = 0; r < batch; r++, t++) {
                int base = r * RECORD_BYTES + 12;
                int a = vertex(records, base, file, t, part);
                int b = vertex(records, base + 12, file, t, part);
                int c = vertex(records, base + 24, file, t, part);
                part.triangle(a, b, c, 0);
            }
        }
    }

    private static int vertex(ByteBuffer records, int at, Path file, long triangle, PartBuilder part) {
        float x = records.getFloat(at);
        float y = records.getFloat(at + 4);
        float z = records.getFloat(at + 8);
        if (!Float.isFinite(x) || !Float.isFinite(y) || !Float.isFinite(z)) {
            throw MeshErrors.at(file, 0, String.format(Locale.ROOT,
                    "triangle %d (byte %d) has a NaN or infinite coordinate (%s, %s, %s); repair the mesh (e.g."
                            + " MeshLab's remove duplicated/degenerate faces) or re-export it",
                    triangle, HEADER_BYTES + triangle * RECORD_BYTES, x, y, z));
        }
        return part.weld(x, y, z);
    }

    private static void readAscii(TextLines lines, Path file, MeshAssembler out) throws IOException {
        PartBuilder part = null;
        boolean inFacet = false;
        int facetLine = 0;
        int[] loop = new int[8];
        int loopLength = 0;
        while (lines.next(false)) {
            if (!lines.nextToken()) {
                continue;
            }
            int line = lines.number();
            if (lines.tokenIs("vertex")) {
                if (!inFacet) {
                    throw MeshErrors.at(file, line, "'vertex' outside a facet; each vertex belongs between 'facet"
                            + " normal ...' / 'outer loop' and 'endloop' / 'endfacet'");
                }
                double x = lines.nextNumber("vertex x");
                double y = lines.nextNumber("vertex y");
                double z = lines.nextNumber("vertex z");
                if (loopLength == loop.length) {
                    loop = java.util.Arrays.copyOf(loop, 2 * loop.length);
                }
                loop[loopLength++] = part.weld(x, y, z);
            } else if (lines.tokenIs("outer") || lines.tokenIs("endloop")) {
                if (!inFacet) {
                    throw MeshErrors.at(file, line, MeshErrors.quote(lines.token()) + " outside a facet; write 'facet"
                            + " normal nx ny nz' before 'outer loop'");
                }
            } else if (lines.tokenIs("facet")) {
                if (inFacet) {
                    throw MeshErrors.at(file, line, "'facet' inside the facet of line " + facetLine
                            + "; close that one with 'endloop' and 'endfacet'");
                }
                if (part == null) {
                    part = out.part(MeshErrors.stem(file));
                }
                inFacet = true;
                facetLine = line;
                loopLength = 0;
            } else if (lines.tokenIs("endfacet")) {
                if (!inFacet) {
                    throw MeshErrors.at(file, line, "'endfacet' without 'facet'; each facet opens with 'facet normal"
                            + " nx ny nz'");
                }
                if (loopLength < 3) {
                    throw MeshErrors.at(file, line, "the facet of line " + facetLine + " has " + loopLength
                            + " vertices; a facet needs 3 'vertex x y z' lines");
                }
                for (int k = 1; k + 1 < loopLength; k++) {
                    part.triangle(loop[0], loop[k], loop[k + 1], facetLine);
                }
                inFacet = false;
            } else if (lines.tokenIs("solid")) {
                if (inFacet) {
                    throw MeshErrors.at(file, line, "'solid' inside the facet of line " + facetLine
                            + "; close it with 'endloop' and 'endfacet' (is the file cut short?)");
                }
                String name = lines.rest();
                part = out.part(name.isEmpty() ? MeshErrors.stem(file) : name);
            } else if (lines.tokenIs("endsolid")) {
                if (inFacet) {
                    throw MeshErrors.at(file, line, "'endsolid' inside the facet of line " + facetLine
                            + "; close it with 'endloop' and 'endfacet' first");
                }
                part = null;
            } else {
                throw MeshErrors.at(file, line, "unexpected " + MeshErrors.quote(lines.token()) + "; an ASCII STL"
                        + " holds only solid, facet normal, outer loop, vertex, endloop, endfacet and endsolid lines"
                        + " (a binary STL of the wrong length is read as ASCII when it starts with 'solid')");
            }
        }
        if (inFacet) {
            throw MeshErrors.at(file, lines.number(), "the file ends inside the facet of line " + facetLine
                    + "; it is cut short: re-export it");
        }
    }
}
