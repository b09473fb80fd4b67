package io.tandem.cle.remote;

import io.tandem.cle.ClosedLoop;
import io.tandem.cle.HuskyBraitenberg;
import io.tandem.cle.StepTimings;
import io.tandem.cle.SyncMode;
import io.tandem.cle.internal.SuppressForbidden;
import io.tandem.cosim.Registry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Wall time per 20 ms loop step of the Husky Braitenberg experiment with the brain in process and
 * with the brain in a child JVM over {@code tandem://} (a {@link RemoteEngine} launching
 * {@link HuskyEngineServer}), in both modes. Not a test: run it by hand from the repository root
 * after {@code mvn -pl tandem-cle -am test-compile}, on the test class path (tandem-net included):
 * <pre>
 *   java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp tandem-cle/target/test-classes:tandem-cle/target/classes:... \
 *       io.tandem.cle.remote.RemoteEngineMeasurement [seconds] [repeats] [extra brain neurons]
 * </pre>
 * Prints per configuration the means over the steps after the first second (warm-up): wall per
 * step, brain (for the remote brain: the round trip seen by the loop, and the server's own advance),
 * world, and the trajectory hash (the same in every line of one brain size).
 */
@SuppressForbidden // console output of a measurement tool
final class RemoteEngineMeasurement {
    private RemoteEngineMeasurement() {
    }

    public static void main(String[] args) {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int extra = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        try (Registry reg = Registry.start("tandem://127.0.0.1:0")) {
            for (int r = 0; r < repeats; r++) {
                for (SyncMode mode : new SyncMode[] {SyncMode.SERIAL, SyncMode.PARALLEL}) {
                    measure(mode, null, seconds, extra);
                    measure(mode, reg.uri(), seconds, extra);
                }
            }
        }
    }

    private static void measure(SyncMode mode, String registry, int seconds, int extra) {
        HuskyBraitenberg.Builder b = HuskyBraitenberg.builder().mode(mode).extraBrainNeurons(extra);
        RemoteEngine remote = null;
        if (registry != null) {
            EngineLauncher launcher = EngineLauncher.childJvm(HuskyEngineServer.class.getName(), List.of(),
                    List.of("-XX:+UseSerialGC"));
            remote = RemoteEngine.builder(HuskyBraitenberg.BRAIN).registry(registry)
                    .launch(launcher, HuskyEngineServer.brain(1, extra, 1)).connect();
            b.brainEngine(remote);
        }
        try (ClosedLoop loop = b.build()) {
            long[] serverNs = {0, 0};
            RemoteEngine rem = remote;
            int from = (int) (1_000_000_000L / loop.loopStepNs());
            StepTimings t = loop.run(seconds * 1_000_000_000L, (k, time) -> {
                if (rem != null && k >= from) {
                    serverNs[0] += rem.lastServerAdvanceNs();
                    serverNs[1]++;
                }
                return true;
            });
            double wall = t.meanWallNs(from);
            double brain = t.meanEngineNs(HuskyBraitenberg.BRAIN, from);
            double world = t.meanEngineNs(HuskyBraitenberg.WORLD, from);
            System.out.println(String.format(Locale.ROOT,
                    "%-8s brain %-10s +%5d neurons: wall %7.0f us/step, brain %7.0f us%s, world %7.0f us, sha %s",
                    mode, registry == null ? "in-process" : "remote", extra, wall / 1e3, brain / 1e3,
                    rem == null ? "" : String.format(Locale.ROOT, " (server advance %5.0f us)", serverNs[0] / 1e3 / Math.max(1, serverNs[1])),
                    world / 1e3, loop.trajectory().sha256().substring(0, 12)));
        }
    }
}
