package io.tandem.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cli.TandemCli;
import io.tandem.cli.tools.TestChild;
import io.tandem.world.PoseRecorder;
import io.tandem.world.record.McapReader;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The viewer's page in a real headless Chromium (software WebGL): a live standalone run (every
 * model shown, the page's poses equal the record's, pause holds, step 5 advances exactly 5, the
 * follow camera keeps its model in the middle, the screenshot is not blank); a replay (seek while
 * paused lands on the recorded poses and stays paused); a distributed run whose secondary is
 * killed (the page names it). Skipped, with the reason, where Chromium is missing.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ViewerPageTest {
    private static final Path DROP = Path.of("../examples/worlds/drop.sdf");
    private static final Path RELAY = Path.of("../examples/worlds/relay.sdf");
    private static final Path CABLE_AND_BEAM = Path.of("../examples/worlds/cable_and_beam.sdf");
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static HeadlessChromium browser;

    @TempDir
    Path tmp;

    @BeforeAll
    static void startBrowser() throws IOException {
        String reason = HeadlessChromium.unavailableReason();
        Assumptions.assumeTrue(reason == null, reason);
        browser = HeadlessChromium.start(800, 600);
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    /** A tandem command run on a thread of this JVM; its output and exit code. */
    private static final class Run {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CompletableFuture<Integer> exit = new CompletableFuture<>();

        Run(String... args) {
            Thread t = new Thread(() -> {
                try {
                    exit.complete(TandemCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args));
                } catch (Throwable e) {
                    exit.completeExceptionally(e);
                }
            }, "tandem " + args[0]);
            t.setDaemon(true);
            t.start();
        }

        /** @return the URL the command printed */
        String url() {
            long deadline = System.nanoTime() + WAIT.toNanos();
            Pattern p = Pattern.compile("viewer: (http://\\S+/)");
            while (System.nanoTime() < deadline) {
                Matcher m = p.matcher(out.toString());
                if (m.find()) {
                    return m.group(1);
                }
                if (exit.isDone()) {
                    break;
                }
                LockSupport.parkNanos(20_000_000L);
            }
            throw new AssertionError("no viewer URL; out:\n" + out + "\nerr:\n" + err);
        }
    }

    private static void await(String predicate) {
        assertThat(browser.waitFor(predicate, WAIT)).as("%s; page state %s; errors %s", predicate,
                browser.evaluate("JSON.stringify({i: tandem.iteration, p: tandem.paused, c: tandem.connected, m: tandem.models,"
                        + " e: tandem.ended, peers: tandem.peers, n: tandem.notice})"), browser.consoleErrors()).isTrue();
    }

    /** @return the page's poses: 'model::link' to x, y, z, qx, qy, qz, qw */
    @SuppressWarnings("unchecked")
    private static Map<String, List<Object>> poses() {
        return (Map<String, List<Object>>) MiniJson.parse(browser.evaluate("tandem.poses()"));
    }

    private static double num(Object o) {
        return ((Number) o).doubleValue();
    }

    @Test
    void liveStandalone_everyModelShownPosesEqualTheRecordStepFiveAdvancesFive() throws Exception {
        Path record = tmp.resolve("drop.jsonl");
        Run run = new Run("sim", DROP.toString(), "--levels", "--iterations", "300", "--record", record.toString(),
                "--view", "0", "--paused", "--follow", "ball", "--view-linger-s", "0");
        browser.navigate(run.url(), WAIT);
        await("tandem.connected && tandem.world === 'drop' && tandem.paused && tandem.bodies > 0");
        assertThat(browser.evaluate("tandem.models")).isEqualTo("[\"ball\",\"cloud\",\"pad\"]");
        browser.evaluate("tandem.send('step', 5)");
        await("tandem.iteration === 5 && tandem.paused");
        browser.evaluate("tandem.send('step', 5)");
        await("tandem.iteration === 10");
        // paused: the iteration holds
        long until = System.nanoTime() + 400_000_000L;
        while (System.nanoTime() < until) {
            LockSupport.parkNanos(20_000_000L);
        }
        assertThat(browser.evaluate("tandem.iteration")).isEqualTo("10");
        assertThat(browser.evaluate("tandem.paused")).isEqualTo("true");
        // every loaded model is drawn, each of one link here
        @SuppressWarnings("unchecked")
        List<Object> loaded = (List<Object>) MiniJson.parse(browser.evaluate("tandem.loaded"));
        assertThat(loaded).contains("ball", "cloud");
        assertThat(browser.evaluate("tandem.bodies")).isEqualTo(Integer.toString(loaded.size()));
        Map<String, List<Object>> at10 = poses();
        assertThat(at10.keySet()).containsExactlyInAnyOrderElementsOf(loaded.stream().map(m -> m + "::" + (m.equals("ball")
                ? "body" : m.equals("cloud") ? "puff" : "slab")).toList());
        // the follow camera: the ball in the middle of the picture (drawn on demand: iteration 10 is drawn)
        await("tandem.drawnIteration === 10");
        byte[] shot = browser.screenshotPng();
        if (System.getProperty("tandem.viewer.shot") != null) {
            Files.write(Path.of(System.getProperty("tandem.viewer.shot")), shot);
        }
        assertBallInTheMiddle(shot);
        browser.evaluate("tandem.send('play')");
        assertThat(run.exit.get(120, TimeUnit.SECONDS)).as("sim; err:%n%s", run.err).isZero();
        // the page's poses of iteration 10 are the record's (single precision)
        for (String line : Files.readAllLines(record, StandardCharsets.UTF_8)) {
            if (!line.startsWith("{\"iteration\":10,") || !line.contains("\"model\"")) {
                continue;
            }
            Map<?, ?> row = (Map<?, ?>) MiniJson.parse(line);
            String model = (String) row.get("model");
            String key = at10.keySet().stream().filter(k -> k.startsWith(model + "::")).findFirst().orElseThrow();
            List<Object> p = at10.get(key);
            String[] names = {"x", "y", "z", "qx", "qy", "qz", "qw"};
            for (int k = 0; k < 7; k++) {
                assertThat(num(p.get(k))).as("%s %s", model, names[k]).isEqualTo((float) num(row.get(names[k])));
            }
        }
        assertThat(browser.consoleErrors()).isEmpty();
    }

    /** The ball (orange-red, 1 0.3 0.1) covers the middle of the screenshot: the camera follows it. */
    @Test
    void liveStandalone_cableAndDeformable_everySegmentAndNodeDrawnWhereTheRunPutsThem() throws Exception {
        Run run = new Run("sim", CABLE_AND_BEAM.toString(), "--iterations", "6", "--view", "0", "--paused", "--follow", "rope",
                "--view-linger-s", "0");
        browser.navigate(run.url(), WAIT);
        await("tandem.connected && tandem.world === 'cable_and_beam' && tandem.paused && tandem.bodies > 0");
        assertThat(browser.evaluate("tandem.models")).contains("\"rope\"", "\"beam\"");
        browser.evaluate("tandem.send('step', 3)");
        await("tandem.iteration === 3 && tandem.paused");
        Map<String, List<Object>> at3 = poses();
        // 40 segments, 189 nodes (a 21 x 3 x 3 grid; the blocks' copies of cut nodes are not drawn twice)
        assertThat(at3.keySet().stream().filter(k -> k.startsWith("rope::")).count()).isEqualTo(40);
        assertThat(at3.keySet().stream().filter(k -> k.startsWith("beam::")).count()).isEqualTo(189);
        // the rope's segments lie along +x from its clamp at (0.06, 0, 1), 5 cm apart, the last at 2.035 m
        assertThat(num(at3.get("rope::0").get(0))).isCloseTo(0.085, org.assertj.core.data.Offset.offset(1e-3));
        assertThat(num(at3.get("rope::39").get(0))).isCloseTo(2.035, org.assertj.core.data.Offset.offset(1e-3));
        assertThat(num(at3.get("rope::39").get(2))).isLessThan(1.0);
        // the beam's nodes in its 0.3 x 0.03 x 0.03 box about (0.15, 2, 0.5)
        for (Map.Entry<String, List<Object>> e : at3.entrySet()) {
            if (e.getKey().startsWith("beam::")) {
                assertThat(num(e.getValue().get(1))).as(e.getKey()).isBetween(1.98, 2.02);
            }
        }
        // the beam is drawn as one mesh of its 336 boundary triangles, its vertices at the nodes as drawn
        await("tandem.drawnIteration === 3");
        if (System.getProperty("tandem.viewer.cableShot") != null) {
            Files.write(Path.of(System.getProperty("tandem.viewer.cableShot")), browser.screenshotPng());
        }
        List<?> surfaces = (List<?>) MiniJson.parse(browser.evaluate("tandem.surfaces()"));
        assertThat(surfaces).hasSize(1);
        Map<?, ?> beam = (Map<?, ?>) surfaces.get(0);
        assertThat(beam.get("model")).isEqualTo("beam");
        assertThat(num(beam.get("triangles"))).isEqualTo(336);
        assertThat(beam.get("visible")).isEqualTo(true);
        List<?> first = (List<?>) beam.get("first");
        for (int k = 0; k < 3; k++) {
            assertThat(num(first.get(k))).isEqualTo(num(at3.get("beam::0").get(k)));
        }
        browser.evaluate("tandem.send('play')");
        assertThat(run.exit.get(120, TimeUnit.SECONDS)).as("sim; err:%n%s", run.err).isZero();
        assertThat(browser.consoleErrors()).isEmpty();
    }

    /**
     * On software GL the page lights per vertex (VertexLitMaterial); the picture is three.js's
     * per-pixel Lambert's: relay.sdf's ground, boxes and ball drawn both ways, every drawn pixel within
     * a few levels (curved faces differ inside a triangle).
     */
    @Test
    void liveStandalone_vertexLighting_drawsWhatThreeJsLambertDraws() throws Exception {
        Run run = new Run("sim", RELAY.toString(), "--iterations", "5", "--view", "0", "--paused", "--view-linger-s", "0");
        String url = run.url();
        BufferedImage[] shots = new BufferedImage[2];
        String[] lighting = {"pixel", "vertex"};
        for (int k = 0; k < 2; k++) {
            browser.navigate(url + "?lighting=" + lighting[k], WAIT);
            await("tandem.connected && tandem.paused && tandem.bodies > 0 && tandem.drawnIteration === 0");
            assertThat(browser.evaluate("tandem.vertexLit")).isEqualTo(Boolean.toString(k == 1));
            shots[k] = ImageIO.read(new ByteArrayInputStream(browser.screenshotPng()));
            if (System.getProperty("tandem.viewer.lightingShots") != null) {
                ImageIO.write(shots[k], "png", Path.of(System.getProperty("tandem.viewer.lightingShots") + "-" + lighting[k]
                        + ".png").toFile());
            }
        }
        int background = shots[0].getRGB(shots[0].getWidth() - 2, 2);
        int drawn = 0;
        int close = 0;
        long sumDiff = 0;
        for (int y = 200; y < shots[0].getHeight(); y++) { // below the HUD
            for (int x = 0; x < shots[0].getWidth(); x++) {
                int a = shots[0].getRGB(x, y);
                if (a == background) {
                    continue;
                }
                int b = shots[1].getRGB(x, y);
                int d = 0;
                for (int shift = 0; shift <= 16; shift += 8) {
                    d = Math.max(d, Math.abs((a >> shift & 0xff) - (b >> shift & 0xff)));
                }
                drawn++;
                sumDiff += d;
                close += d <= 6 ? 1 : 0;
            }
        }
        assertThat(drawn).as("pixels drawn (not background)").isGreaterThan(50_000);
        assertThat(close / (double) drawn).as("share of drawn pixels within 6 levels").isGreaterThan(0.98);
        assertThat(sumDiff / (double) drawn).as("mean difference, levels").isLessThan(1.5);
        browser.evaluate("tandem.send('play')");
        assertThat(run.exit.get(120, TimeUnit.SECONDS)).as("sim; err:%n%s", run.err).isZero();
        assertThat(browser.consoleErrors()).isEmpty();
    }

    /**
     * On software GL the copies of a shared visual (16 or more) are merged into one draw
     * (BatchedCopies) rather than instanced: 64 boxes in two colours and 20 spheres, turned every
     * way, drawn both ways; every drawn pixel the same within a level or two.
     */
    @Test
    void liveStandalone_mergedCopies_drawWhatInstancingDraws() throws Exception {
        StringBuilder sdf = new StringBuilder("<?xml version=\"1.0\"?>\n<sdf version=\"1.9\"><world name=\"copies\">"
                + "<model name=\"ground\"><static>true</static><link name=\"l\"><collision name=\"c\"><geometry><plane>"
                + "<normal>0 0 1</normal><size>20 20</size></plane></geometry></collision><visual name=\"v\"><geometry><plane>"
                + "<normal>0 0 1</normal><size>20 20</size></plane></geometry></visual></link></model>\n");
        for (int i = 0; i < 84; i++) {
            String geometry = i < 64 ? "<box><size>0.3 0.2 0.12</size></box>" : "<sphere><radius>0.12</radius></sphere>";
            String colour = i < 64 ? (i % 2 == 0 ? "0.2 0.5 0.9 1" : "0.9 0.6 0.1 1") : "0.3 0.8 0.3 1";
            double x = (i % 9 - 4) * 0.55;
            double y = (i / 9 - 4) * 0.55;
            sdf.append(String.format(java.util.Locale.ROOT, "<model name=\"c%d\"><pose>%.3f %.3f %.3f %.3f %.3f %.3f</pose>"
                    + "<link name=\"l\"><inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia>"
                    + "</inertial><collision name=\"c\"><geometry>%s</geometry></collision><visual name=\"v\"><geometry>%s"
                    + "</geometry><material><diffuse>%s</diffuse></material></visual></link></model>%n", i, x, y,
                    0.4 + 0.1 * (i % 5), 0.3 * i, 0.7 * i, 1.1 * i, geometry, geometry, colour));
        }
        Path world = tmp.resolve("copies.sdf");
        Files.writeString(world, sdf.append("</world></sdf>\n"));
        Run run = new Run("sim", world.toString(), "--iterations", "5", "--view", "0", "--paused", "--view-linger-s", "0");
        String url = run.url();
        BufferedImage[] shots = new BufferedImage[2];
        for (int k = 0; k < 2; k++) {
            browser.navigate(url + "?batch=" + k, WAIT);
            await("tandem.connected && tandem.paused && tandem.bodies === 85 && tandem.drawnIteration === 0");
            assertThat(browser.evaluate("tandem.softwareGL")).isEqualTo("true");
            assertThat(browser.evaluate("tandem.batched")).as("merged draws with ?batch=%d", k).isEqualTo(k == 0 ? "0" : "3");
            shots[k] = ImageIO.read(new ByteArrayInputStream(browser.screenshotPng()));
            if (System.getProperty("tandem.viewer.copiesShots") != null) {
                ImageIO.write(shots[k], "png", Path.of(System.getProperty("tandem.viewer.copiesShots") + "-" + k + ".png").toFile());
            }
        }
        // the bodies' pixels (blue, orange, green) in either shot; the ground and the sky are grey
        int bodies = 0;
        int same = 0;
        Set<Integer> colours = new HashSet<>();
        for (int y = 200; y < shots[0].getHeight(); y++) { // below the HUD
            for (int x = 0; x < shots[0].getWidth(); x++) {
                int a = shots[0].getRGB(x, y);
                int b = shots[1].getRGB(x, y);
                if (saturation(a) < 40 && saturation(b) < 40) {
                    continue;
                }
                int d = 0;
                for (int shift = 0; shift <= 16; shift += 8) {
                    d = Math.max(d, Math.abs((a >> shift & 0xff) - (b >> shift & 0xff)));
                }
                bodies++;
                same += d <= 2 ? 1 : 0;
                colours.add(b & 0xf0f0f0);
            }
        }
        assertThat(bodies).as("the bodies' pixels").isGreaterThan(3_000);
        assertThat(colours.size()).as("distinct colours of the bodies (lit from several sides)").isGreaterThan(15);
        assertThat(same / (double) bodies).as("share of the bodies' pixels within 2 levels").isGreaterThan(0.99);
        browser.evaluate("tandem.send('play')");
        assertThat(run.exit.get(120, TimeUnit.SECONDS)).as("sim; err:%n%s", run.err).isZero();
        assertThat(browser.consoleErrors()).isEmpty();
    }

    /** @return the largest minus the smallest of the pixel's red, green and blue */
    private static int saturation(int rgb) {
        int r = rgb >> 16 & 0xff;
        int g = rgb >> 8 & 0xff;
        int b = rgb & 0xff;
        return Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b));
    }

    private static void assertBallInTheMiddle(byte[] png) throws IOException {
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(png));
        assertThat(img.getWidth()).isEqualTo(800);
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < img.getHeight(); y += 4) {
            for (int x = 0; x < img.getWidth(); x += 4) {
                colours.add(img.getRGB(x, y));
            }
        }
        assertThat(colours.size()).as("distinct colours of the screenshot (not blank)").isGreaterThan(20);
        int rgb = img.getRGB(img.getWidth() / 2, img.getHeight() / 2);
        int r = rgb >> 16 & 0xff;
        int g = rgb >> 8 & 0xff;
        int b = rgb & 0xff;
        assertThat(r).as("red of the middle pixel #%06x", rgb & 0xffffff).isGreaterThan(g + 40).isGreaterThan(b + 40);
    }

    @Test
    void replay_seekWhilePaused_landsOnTheRecordedPosesAndStaysPaused() throws Exception {
        Path mcap = tmp.resolve("drop.mcap");
        // every iteration's pose rows too (--record-json-poses, --record-hz 0), to compare with
        Run sim = new Run("sim", DROP.toString(), "--levels", "--iterations", "400", "--record", mcap.toString(),
                "--record-hz", "0", "--record-json-poses");
        assertThat(sim.exit.get(60, TimeUnit.SECONDS)).as("sim; err:%n%s", sim.err).isZero();
        Run view = new Run("view", mcap.toString(), "--port", "0", "--for-s", "90");
        assertThat(view.url()).startsWith("http://127.0.0.1:");
        assertThat(view.out.toString()).contains("(401 frames, 0.000 s to 0.400 s of simulated time)");
        browser.navigate(view.url(), WAIT);
        await("tandem.connected && tandem.mode === 'replay' && tandem.world === 'drop' && tandem.bodies > 0");
        assertThat(browser.evaluate("tandem.paused")).isEqualTo("true");
        browser.evaluate("tandem.send('seek', 0.25)");
        await("tandem.iteration === 250");
        long until = System.nanoTime() + 400_000_000L;
        while (System.nanoTime() < until) {
            LockSupport.parkNanos(20_000_000L);
        }
        assertThat(browser.evaluate("[tandem.iteration, tandem.paused, tandem.replay.timeS]")).isEqualTo("[250,true,0.25]");
        List<Object> ball = poses().get("ball::body");
        McapReader.Recording rec = McapReader.read(mcap);
        String row = rec.topic(PoseRecorder.POSES_TOPIC).stream().map(m -> new String(m.data(), StandardCharsets.UTF_8))
                .filter(s -> s.startsWith("{\"iteration\":250,") && s.contains("\"model\":\"ball\"")).findFirst().orElseThrow();
        Map<?, ?> r = (Map<?, ?>) MiniJson.parse(row);
        assertThat(num(ball.get(2))).isEqualTo((float) num(r.get("z")));
        assertThat(num(ball.get(0))).isEqualTo((float) num(r.get("x")));
        // play on at 10x, then a seek back while playing keeps playing
        browser.evaluate("tandem.send('speed', 10); tandem.send('play')");
        await("tandem.iteration > 300 && !tandem.paused || tandem.iteration === 400");
        browser.evaluate("tandem.send('pause'); tandem.send('seek', 0.1)");
        await("tandem.iteration === 100 && tandem.paused");
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void closedLoop_rasterShowsTheRecordedSpikesOfItsWindowPlotsFollow() throws Exception {
        Path out = tmp.resolve("out");
        Run cle = new Run("cle", "../examples/experiments/husky-braitenberg.json", "--out", out.toString(), "--view", "0",
                "--paused", "--view-linger-s", "0");
        browser.navigate(cle.url(), WAIT);
        await("tandem.connected && tandem.paused && tandem.models.includes('husky') && tandem.signalsTimeS === 0");
        // 100 loop steps of 20 ms: the raster's window is [0, 2] s
        browser.evaluate("tandem.send('step', 100)");
        await("tandem.signalsTimeS === 2 && tandem.paused");
        long shown = Long.parseLong(browser.evaluate("tandem.spikes"));
        // the experiment file's view.plots
        assertThat(browser.evaluate("Object.keys(tandem.plots)")).isEqualTo("[\"husky/x\",\"husky/y\","
                + "\"husky::front_left_wheel_joint/velocity\",\"husky::front_right_wheel_joint/velocity\"]");
        assertThat(browser.evaluate("tandem.plots['husky/x']")).as("a sample after each loop step").isEqualTo("100");
        assertThat(browser.evaluate("tandem.follow")).isEqualTo("\"husky\"");
        if (System.getProperty("tandem.viewer.shot") != null) {
            await("tandem.drawnIteration > 0");
            Files.write(Path.of(System.getProperty("tandem.viewer.shot") + ".cle.png"), browser.screenshotPng());
        }
        browser.evaluate("tandem.send('play')");
        assertThat(cle.exit.get(120, TimeUnit.SECONDS)).as("cle; err:%n%s", cle.err).isZero();
        // the brain's spikes reach the loop with the next sync (the NRP's one-step delay): at 2 s the loop holds
        // those up to 1.98 s, and the raster shows every one of them
        long recorded = Files.readAllLines(out.resolve("spikes.csv"), StandardCharsets.UTF_8).stream().skip(1)
                .mapToDouble(l -> Double.parseDouble(l.substring(0, l.indexOf(',')))).filter(ms -> ms >= 0 && ms <= 1980)
                .count();
        assertThat(shown).isPositive().isEqualTo(recorded);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    /**
     * A closed loop's brain in a process of its own (--separate brain) is a peer on the page, as a
     * distributed run's secondaries are: listed while it runs, named lost when its process is killed
     * (at once while paused), and the run's end says which engine failed.
     */
    @Test
    void closedLoop_separateBrainKilled_namedOnThePage() throws Exception {
        Path out = tmp.resolve("out");
        Run cle = new Run("cle", "../examples/experiments/husky-braitenberg.json", "--separate", "brain", "--out",
                out.toString(), "--view", "0", "--paused", "--view-linger-s", "10");
        browser.navigate(cle.url(), WAIT);
        await("tandem.connected && tandem.paused && tandem.peers.length === 1 && tandem.peers[0].name === 'brain'"
                + " && tandem.peers[0].state === 'running'");
        browser.evaluate("tandem.send('step', 5)");
        await("tandem.signalsTimeS === 0.1 && tandem.paused && tandem.peers[0].state === 'running'");
        ProcessHandle brain = ProcessHandle.current().descendants()
                .filter(c -> c.info().commandLine().orElse("").contains("engine-server")).findFirst().orElseThrow();
        brain.destroyForcibly();
        await("tandem.peers[0].state === 'lost' && tandem.ended === null");
        browser.evaluate("tandem.send('play')");
        await("tandem.ended !== null && tandem.ended.includes('brain')");
        assertThat(browser.evaluate("document.getElementById('ended').textContent")).contains("brain");
        assertThat(cle.exit.get(120, TimeUnit.SECONDS)).as("cle; err:%n%s", cle.err).isEqualTo(1);
        assertThat(cle.err.toString()).contains("tandem cle: ").contains("'brain'");
    }

    @Test
    void closedLoopReplay_rasterAndPlotsOfTheRecordedWindow() throws Exception {
        Path out = tmp.resolve("out");
        Path mcap = tmp.resolve("husky.mcap");
        Run cle = new Run("cle", "../examples/experiments/husky-braitenberg.json", "--out", out.toString(), "--record",
                mcap.toString());
        assertThat(cle.exit.get(120, TimeUnit.SECONDS)).as("cle; err:%n%s", cle.err).isZero();
        assertThat(cle.out.toString()).contains("record: " + mcap);
        Run view = new Run("view", mcap.toString(), "--port", "0", "--for-s", "90");
        browser.navigate(view.url(), WAIT);
        await("tandem.connected && tandem.mode === 'replay' && tandem.world === 'husky_braitenberg'");
        browser.evaluate("tandem.send('seek', 2)");
        await("tandem.signalsTimeS === 2 && tandem.paused");
        // the raster holds every recorded spike of [0, 2] s, the plots the experiment file's signals
        long recorded = Files.readAllLines(out.resolve("spikes.csv"), StandardCharsets.UTF_8).stream().skip(1)
                .mapToDouble(l -> Double.parseDouble(l.substring(0, l.indexOf(',')))).filter(ms -> ms >= 0 && ms <= 2000)
                .count();
        assertThat(Long.parseLong(browser.evaluate("tandem.spikes"))).isPositive().isEqualTo(recorded);
        assertThat(browser.evaluate("Object.keys(tandem.plots).length")).isEqualTo("4");
        assertThat(browser.evaluate("tandem.plots['husky/x']")).isEqualTo("100");
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void distributed_killedSecondary_namedOnThePage() throws Exception {
        try (TestChild primary = TestChild.tandem("primary", "sim", RELAY.toString(), "--network-role", "primary",
                "--local-secondaries", "2", "--partition", "view" + ProcessHandle.current().pid(), "--iterations", "1000000",
                "--rtf", "1", "--view", "0", "--view-linger-s", "60")) {
            String line = primary.awaitLine(l -> l.startsWith("viewer: "), 90_000);
            assertThat(line).as("primary; output:%n%s", primary.output()).isNotNull();
            browser.navigate(line.substring("viewer: ".length()).trim(), WAIT);
            await("tandem.connected && tandem.world === 'relay' && tandem.peers.length === 2 && tandem.iteration > 10");
            // the page shows which secondary owns each model
            await("Object.keys(tandem.owners).length > 0");
            assertThat(browser.evaluate("Object.values(tandem.owners).every(o => o.startsWith('secondary-'))")).isEqualTo("true");
            // each secondary's own SIL Kit lifecycle state, as the primary's system monitor sees it
            await("tandem.peers.every(p => p.lifecycle === 'RUNNING')");
            ProcessHandle victim = primary.process.children().filter(c -> c.info().commandLine().orElse("")
                    .contains("--name secondary-2")).findFirst().orElseThrow();
            victim.destroyForcibly();
            await("tandem.ended !== null && tandem.ended.includes('secondary-2')");
            assertThat(browser.evaluate("tandem.peers.find(p => p.name === 'secondary-2').state")).isEqualTo("\"lost\"");
            await("tandem.peers.find(p => p.name === 'secondary-2').lifecycle.startsWith('ERROR')");
            assertThat(browser.evaluate("document.getElementById('ended').textContent")).contains("secondary-2");
        }
    }
}
