package io.tandem.bench;

import io.tandem.bench.internal.ChildProcesses;
import io.tandem.bench.internal.Statistics;
import io.tandem.cli.TandemCli;
import io.tandem.cli.plot.Figures;
import io.tandem.cli.spi.JsonLinesOption;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/*
 * Implementation notes.
 *
 * Each measurement is a real `tandem sim` in a child JVM (the standalone run too, so both pay the
 * same start-up), read from its summary line: the real-time factor over the second half of the
 * stepping loop (after the JIT warm-up of every process, which takes seconds with three JVMs
 * compiling on two cores; see LIGHT_ITERATIONS), the whole run's for comparison and, distributed,
 * the handovers and the primary's lockstep overhead over the second half (the time from
 * publishing a step to holding every ack, less the slowest secondary's own step).
 *
 * Without --record the secondaries report only their performers' models each iteration (all the
 * primary's level manager needs, as in Gazebo); with it both modes record every pose, and the
 * secondaries report every dynamic model.
 *
 * Worlds: "light" is examples/worlds/relay.sdf (a few bodies and a handover, the kind of world
 * Gazebo measured at 30-50 % distributed against 900 % standalone); "heavy" is generated: two
 * performers, each in its own level far from the other's, each level holding a field of boxes
 * dropped onto a plate (--bodies in all), so the two secondaries each simulate half of what the
 * standalone run simulates.
 */

/**
 * {@code tandem bench world}: standalone against distributed real-time factor; with {@code --plot
 * FILE.png} also their bars run by run and the lockstep overhead per iteration.
 */
@Command(name = "world", mixinStandardHelpOptions = true,
        description = {"Real-time factor of a world standalone and distributed (a primary with local secondaries),"
                + " their ratio, and the lockstep overhead per iteration.",
            "Example: tandem bench world --world light; tandem bench world --world heavy --bodies 2000 --json"})
final class WorldCommand implements Callable<Integer> {
    private static final Pattern RTF = Pattern.compile("real-time factor ([0-9.]+) \\(second half ([0-9.]+)\\)");
    /**
     * light: the iterations of a run. Its second half must start after the JIT warm-up of the
     * three JVMs of a distributed run, which on 2 cores took 10,000 to 12,000 iterations of
     * relay.sdf (each JVM compiles 6 to 9 s of C2 work meanwhile; with 20,000 iterations, runs
     * whose warm-up reached into the second half gave 22 to 63 % medians)
     */
    static final long LIGHT_ITERATIONS = 40_000;
    private static final Pattern OVERHEAD = Pattern.compile("lockstep overhead ([0-9.]+) us");
    private static final Pattern HANDOVERS = Pattern.compile("([0-9]+) handovers");

    @Spec
    private CommandSpec spec;

    @Option(names = "--world", defaultValue = "light", description = "light (examples/worlds/relay.sdf), heavy (generated,"
            + " see --bodies) or an SDF file with performers (default: ${DEFAULT-VALUE}).")
    String world;

    @Option(names = "--bodies", defaultValue = "2000", description = "heavy: dynamic boxes in all, split over the two"
            + " performers' levels (default: ${DEFAULT-VALUE}).")
    int bodies;

    @Option(names = "--iterations", description = "Iterations per run (default: 40000 light, 2000 heavy).")
    Long iterations;

    @Option(names = "--secondaries", defaultValue = "2", description = "Local secondaries (default: ${DEFAULT-VALUE}).")
    int secondaries;

    @Option(names = "--runs", defaultValue = "3", description = "Runs of each mode; the median is reported (default:"
            + " ${DEFAULT-VALUE}).")
    int runs;

    @Mixin
    JsonLinesOption output;

    @Option(names = "--record", description = "Record every pose in both modes (a CSV in a temporary folder): the"
            + " secondaries then report every dynamic model each iteration, not just their performers'.")
    boolean record;

    @Option(names = "--plot", paramLabel = "FILE.png", description = "When every run succeeded, also draw into this PNG"
            + " file the real-time factor (second half of each run) standalone and distributed, run by run and their"
            + " medians, beside the distributed runs' lockstep overhead per iteration (us).")
    Path plot;

    /** One run's figures. */
    record Run(double rtf, double wholeRunRtf, double overheadUs, long handovers) {
    }

    @Override
    public Integer call() throws Exception {
        if (runs < 1 || secondaries < 1 || bodies < 2) {
            throw new ParameterException(spec.commandLine(), "--runs and --secondaries must be >= 1, --bodies >= 2");
        }
        if (plot != null) {
            try {
                Figures.requirePng(plot);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        Path dir = Files.createTempDirectory("tandem-bench-world");
        Path file;
        String name;
        long its;
        switch (world) {
            case "light" -> {
                file = dir.resolve("relay.sdf");
                try (InputStream in = TandemCli.class.getResourceAsStream("/io/tandem/cli/worlds/relay.sdf")) {
                    Files.copy(in, file);
                }
                name = "light";
                its = iterations == null ? LIGHT_ITERATIONS : iterations;
            }
            case "heavy" -> {
                file = dir.resolve("heavy.sdf");
                Files.writeString(file, heavyWorld(bodies));
                name = "heavy";
                its = iterations == null ? 2000 : iterations;
            }
            default -> {
                file = Path.of(world);
                if (!Files.isRegularFile(file)) {
                    throw new ParameterException(spec.commandLine(), "--world must be light, heavy or an SDF file; '"
                            + world + "' is none");
                }
                name = file.getFileName().toString();
                its = iterations == null ? 3000 : iterations;
            }
        }
        try (ChildProcesses children = new ChildProcesses("tandem-bench-world")) {
            List<Run> alone = new ArrayList<>();
            List<Run> dist = new ArrayList<>();
            for (int r = 0; r < runs; r++) {
                List<String> a = new ArrayList<>(List.of("sim", file.toString(), "--levels", "--iterations", Long.toString(its)));
                List<String> d = new ArrayList<>(List.of("sim", file.toString(), "--network-role", "primary",
                        "--local-secondaries", Integer.toString(secondaries), "--iterations", Long.toString(its)));
                if (record) {
                    a.addAll(List.of("--record", dir.resolve("standalone.csv").toString()));
                    d.addAll(List.of("--record", dir.resolve("distributed.csv").toString()));
                }
                alone.add(run(children, "standalone-" + r, a));
                dist.add(run(children, "distributed-" + r, d));
                if (!output.json()) {
                    spec.commandLine().getErr().printf(Locale.ROOT, "run %d: standalone rtf %.2f, distributed rtf %.2f%n", r + 1,
                            alone.get(r).rtf(), dist.get(r).rtf());
                }
            }
            double a = Statistics.median(alone.stream().mapToDouble(Run::rtf).toArray());
            double d = Statistics.median(dist.stream().mapToDouble(Run::rtf).toArray());
            double aWhole = Statistics.median(alone.stream().mapToDouble(Run::wholeRunRtf).toArray());
            double dWhole = Statistics.median(dist.stream().mapToDouble(Run::wholeRunRtf).toArray());
            double overhead = Statistics.median(dist.stream().mapToDouble(Run::overheadUs).toArray());
            long handovers = dist.get(0).handovers();
            if (plot != null) {
                try {
                    Figures.world(plot, String.format(Locale.ROOT, "bench world %s, %,d iterations", name, its),
                            "distributed (" + secondaries + (secondaries == 1 ? " secondary)" : " secondaries)"),
                            alone.stream().mapToDouble(Run::rtf).toArray(), dist.stream().mapToDouble(Run::rtf).toArray(),
                            dist.stream().mapToDouble(Run::overheadUs).toArray());
                } catch (IOException e) {
                    throw new IOException("cannot write the figure " + plot + ": " + e.getMessage(), e);
                }
            }
            if (output.json()) {
                out.printf(Locale.ROOT, "{\"bench\":\"world\",\"world\":\"%s\",\"mode\":\"standalone\",\"iterations\":%d,\"runs\":%d,"
                        + "\"rtf\":%.4f,\"rtf_whole_run\":%.4f}%n", name, its, runs, a, aWhole);
                out.printf(Locale.ROOT, "{\"bench\":\"world\",\"world\":\"%s\",\"mode\":\"distributed\",\"secondaries\":%d,"
                        + "\"iterations\":%d,\"runs\":%d,\"record\":%b,\"rtf\":%.4f,\"rtf_whole_run\":%.4f,\"overhead_us\":%.1f,"
                        + "\"handovers\":%d}%n", name, secondaries, its, runs, record, d, dWhole, overhead, handovers);
                out.printf(Locale.ROOT, "{\"bench\":\"world\",\"world\":\"%s\",\"mode\":\"ratio\",\"distributed_over_standalone\":%.4f}%n",
                        name, d / a);
            } else {
                out.printf(Locale.ROOT, "world %s, %d iterations, median of %d runs:%n", name, its, runs);
                out.printf(Locale.ROOT, "  standalone               real-time factor %8.4g (whole run %.4g)%n", a, aWhole);
                out.printf(Locale.ROOT, "  distributed (%d second.)  real-time factor %8.4g (whole run %.4g; %.0f %% of standalone;"
                        + " %d handovers; lockstep overhead %.1f us per iteration)%n", secondaries, d, dWhole, 100 * d / a,
                        handovers, overhead);
                if (plot != null) {
                    out.println("figure: " + plot);
                }
            }
            return 0;
        } finally {
            try (var files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    private static Run run(ChildProcesses children, String name, List<String> args) throws Exception {
        ChildProcesses.Child c = children.start(name, TandemCli.class, Map.of(), args);
        while (true) {
            String line;
            try {
                line = c.next(600_000);
            } catch (TimeoutException e) {
                throw new IllegalStateException(name + " did not finish within 10 minutes" + c.logTail(), e);
            }
            if (line.startsWith("world ")) {
                Matcher rtf = RTF.matcher(line);
                if (!rtf.find()) {
                    throw new IllegalStateException(name + ": no real-time factor in '" + line + "'");
                }
                Matcher o = OVERHEAD.matcher(line);
                Matcher h = HANDOVERS.matcher(line);
                return new Run(Double.parseDouble(rtf.group(2)), Double.parseDouble(rtf.group(1)),
                        o.find() ? Double.parseDouble(o.group(1)) : 0, h.find() ? Long.parseLong(h.group(1)) : 0);
            }
        }
    }


    /**
     * Two performers (balls) 200 m apart, each in its own level with a field of boxes falling onto
     * a static plate; the boxes do not touch each other while they settle.
     */
    static String heavyWorld(int bodies) {
        StringBuilder s = new StringBuilder();
        s.append("<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n  <world name=\"heavy\">\n    <gravity>0 0 -9.81</gravity>\n")
                .append("    <physics name=\"1ms\" type=\"tandem\"><max_step_size>0.001</max_step_size></physics>\n");
        int perLevel = bodies / 2;
        int side = (int) Math.ceil(Math.sqrt(perLevel));
        StringBuilder levels = new StringBuilder();
        for (int k = 0; k < 2; k++) {
            double cx = k == 0 ? -100 : 100;
            String tag = k == 0 ? "west" : "east";
            double half = side * 0.75 + 2;
            s.append(box("plate_" + tag, cx, 0, -0.25, 2 * half, 2 * half, 0.5, true));
            s.append("    <model name=\"rover_").append(tag).append("\"><pose>").append(cx).append(" ").append(-half + 1)
                    .append(" 0.6 0 0 0</pose><link name=\"body\"><inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy>")
                    .append("<izz>0.1</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial><collision name=\"c\"><geometry>")
                    .append("<sphere><radius>0.5</radius></sphere></geometry></collision></link></model>\n");
            levels.append("      <performer name=\"perf_").append(tag).append("\"><ref>rover_").append(tag)
                    .append("</ref><geometry><box><size>2 2 2</size></box></geometry></performer>\n");
            levels.append("      <level name=\"field_").append(tag).append("\"><pose>").append(cx).append(" 0 0 0 0 0</pose>")
                    .append("<geometry><box><size>").append(2 * half + 4).append(" ").append(2 * half + 4).append(" 20</size></box>")
                    .append("</geometry><buffer>2</buffer><ref>plate_").append(tag).append("</ref>");
            for (int i = 0; i < perLevel; i++) {
                double x = cx + (i % side - (side - 1) / 2.0) * 1.5;
                double y = (i / side - (side - 1) / 2.0) * 1.5;
                // heights staggered so the boxes land at different times
                double z = 0.3 + 0.05 * (i % 7);
                String n = "box_" + tag + "_" + i;
                s.append(box(n, x, y, z, 0.5, 0.5, 0.5, false));
                levels.append("<ref>").append(n).append("</ref>");
            }
            levels.append("</level>\n");
        }
        s.append("    <plugin name=\"gz::sim\" filename=\"dummy\">\n").append(levels).append("    </plugin>\n  </world>\n</sdf>\n");
        return s.toString();
    }

    private static String box(String name, double x, double y, double z, double sx, double sy, double sz, boolean isStatic) {
        String size = sx + " " + sy + " " + sz;
        String inertial = isStatic ? "" : "<inertial><mass>1</mass><inertia><ixx>" + (sy * sy + sz * sz) / 12 + "</ixx><iyy>"
                + (sx * sx + sz * sz) / 12 + "</iyy><izz>" + (sx * sx + sy * sy) / 12
                + "</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>";
        return "    <model name=\"" + name + "\">" + (isStatic ? "<static>true</static>" : "") + "<pose>" + x + " " + y + " " + z
                + " 0 0 0</pose><link name=\"body\">" + inertial + "<collision name=\"c\"><geometry><box><size>" + size
                + "</size></box></geometry></collision></link></model>\n";
    }
}
