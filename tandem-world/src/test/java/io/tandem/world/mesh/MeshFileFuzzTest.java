package io.tandem.world.mesh;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.world.WorldFormatException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Valid files of each format cut, flipped, spliced and salted with seeded randomness: each read
 * gives a mesh of finite coordinates and valid indices, or a one-line WorldFormatException naming
 * the file; never another exception. The seed is {@code -Dtandem.mesh.fuzzSeed} (default 1).
 */
class MeshFileFuzzTest {
    private static final long SEED = Long.getLong("tandem.mesh.fuzzSeed", 1L);
    private static final int CASES_PER_FORMAT = 60;
    private static final int MUTANTS_PER_CASE = 8;
    private static final String[] SALT = {" ", "\n", "-", "0", "/", "\\\n", "nan", "-inf", "1e999", "99999999999",
        "-1", "<", ">", "</p>", "<p>", "\"", "#", "facet", "endfacet", "solid", "f 1 2 3", "v 1 2 3", "g", "\0",
        "&amp;", "&bogus;", "<!--", "-->", "<node>", "</node>", "<instance_node url=\"#Box\"/>", "<matrix>",
        "\u00e9", "\r", "0.5", "2147483648", "4294967295"};

    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String format : new String[] {"binary.stl", "solid.stl", "ascii.stl", "box.obj", "polylist.dae",
            "triangles.dae"}) {
            for (int c = 0; c < CASES_PER_FORMAT; c++) {
                out.add(Arguments.of(format, SEED * 1_000_003L + c));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("cases")
    void read_mutatedFile_readsOrRefusesWithOneLineNamingTheFile(String format, long seed) throws IOException {
        byte[] valid = valid(format);
        Random random = new Random(seed);
        for (int m = 0; m < MUTANTS_PER_CASE; m++) {
            byte[] mutant = mutate(valid, random);
            String name = format.substring(format.indexOf('.'));
            Path file = dir.resolve("mutant" + m + name);
            Files.write(file, mutant);
            try {
                TriangleMesh mesh = MeshFile.read(file, 1 + random.nextInt(3), 1, -1,
                        random.nextBoolean() ? UpAxisHandling.IGNORE : UpAxisHandling.ROTATE_TO_Z_UP);
                assertThat(mesh.triangleCount()).isPositive();
                for (TriangleMesh.Part p : mesh.parts()) {
                    assertThat(p.triangleCount()).isPositive();
                    for (double c : p.positions()) {
                        assertThat(Double.isFinite(c)).isTrue();
                    }
                    for (int v : p.triangles()) {
                        assertThat(v).isBetween(0, p.vertexCount() - 1);
                    }
                }
            } catch (WorldFormatException e) {
                assertThat(e.getMessage()).doesNotContain("\n").doesNotContain("\r")
                        .matches(Pattern.quote(file.toString()) + "(:[0-9]+)?: .+");
            }
        }
    }

    private byte[] valid(String format) throws IOException {
        switch (format) {
            case "binary.stl":
                return Files.readAllBytes(CubeFiles.binaryStl(dir.resolve("valid.stl"), "binary", 0.5, 1, 1.5));
            case "solid.stl":
                return Files.readAllBytes(CubeFiles.binaryStl(dir.resolve("valid.stl"), "solid box", 0.5, 1, 1.5));
            case "ascii.stl":
                return (CubeFiles.asciiSolid("a", 0.5, 1, 1.5) + CubeFiles.asciiSolid("b", 1, 1, 1))
                        .getBytes(StandardCharsets.UTF_8);
            case "box.obj":
                return CubeFiles.obj(0.5, 1, 1.5).getBytes(StandardCharsets.UTF_8);
            case "polylist.dae":
                return CubeFiles.dae("0.01", "Y_UP", 50, 100, 150, true, ColladaReaderTest.MATRIX)
                        .getBytes(StandardCharsets.UTF_8);
            default:
                return CubeFiles.dae("1", "X_UP", 1, 2, 3, false,
                        "<translate>1 0 0</translate><rotate>1 0 0 90</rotate><scale>1 2 1</scale>")
                        .getBytes(StandardCharsets.UTF_8);
        }
    }

    /** One to three edits: cut, flip bytes, delete, duplicate or insert a salt token. */
    private static byte[] mutate(byte[] valid, Random random) {
        byte[] b = valid;
        int edits = 1 + random.nextInt(3);
        for (int e = 0; e < edits && b.length > 0; e++) {
            int at = random.nextInt(b.length);
            switch (random.nextInt(5)) {
                case 0:
                    b = Arrays.copyOf(b, at);
                    break;
                case 1:
                    b = b.clone();
                    for (int k = 0, n = 1 + random.nextInt(4); k < n; k++) {
                        b[random.nextInt(b.length)] = (byte) random.nextInt(256);
                    }
                    break;
                case 2: {
                    int end = Math.min(b.length, at + 1 + random.nextInt(40));
                    b = concat(Arrays.copyOf(b, at), Arrays.copyOfRange(b, end, b.length));
                    break;
                }
                case 3: {
                    int end = Math.min(b.length, at + 1 + random.nextInt(200));
                    b = concat(concat(Arrays.copyOf(b, end), Arrays.copyOfRange(b, at, end)),
                            Arrays.copyOfRange(b, end, b.length));
                    break;
                }
                default: {
                    byte[] salt = SALT[random.nextInt(SALT.length)].getBytes(StandardCharsets.UTF_8);
                    b = concat(concat(Arrays.copyOf(b, at), salt), Arrays.copyOfRange(b, at, b.length));
                    break;
                }
            }
        }
        return b;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
