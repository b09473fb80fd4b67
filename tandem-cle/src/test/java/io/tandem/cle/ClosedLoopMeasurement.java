package io.tandem.cle;

import io.tandem.cle.internal.SuppressForbidden;
import java.util.Locale;

/**
 * Wall time per loop step of the Husky Braitenberg experiment in both modes, with the Braitenberg
 * brain and with 10^4 more neurons (a Brunel network) in the brain engine. Not a test: run it by
 * hand, e.g. from the repository root after {@code mvn -pl tandem-cle -am test-compile}:
 * <pre>
 *   java -cp tandem-cle/target/test-classes:tandem-cle/target/classes:... io.tandem.cle.ClosedLoopMeasurement \
 *       [seconds] [neurons] [repeats] [seconds with the heavy brain]
 * </pre>
 * Prints, per configuration, the means over the steps after the first second (warm-up): wall per
 * step, brain, world (physics and camera), TFs, and wall over max(brain, world) per step.
 */
@SuppressForbidden // console output of a measurement tool
final class ClosedLoopMeasurement {
    private ClosedLoopMeasurement() {
    }

    public static void main(String[] args) {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int neurons = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int repeats = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        int heavySeconds = args.length > 3 ? Integer.parseInt(args[3]) : seconds;
        for (int r = 0; r < repeats; r++) {
            for (int extra : new int[] {0, neurons}) {
                for (SyncMode mode : new SyncMode[] {SyncMode.SERIAL, SyncMode.PARALLEL}) {
                    measure(mode, extra, extra == 0 ? seconds : heavySeconds);
                }
            }
        }
    }

    private static void measure(SyncMode mode, int extra, int seconds) {
        try (ClosedLoop loop = HuskyBraitenberg.builder().mode(mode).extraBrainNeurons(extra).build()) {
            StepTimings t = loop.run(seconds * 1_000_000_000L, ProgressHandler.NONE);
            int from = (int) (1_000_000_000L / loop.loopStepNs());
            double wall = t.meanWallNs(from);
            double brain = t.meanEngineNs(HuskyBraitenberg.BRAIN, from);
            double world = t.meanEngineNs(HuskyBraitenberg.WORLD, from);
            double tf = t.meanTfNs(from);
            double maxPerStep = 0;
            for (int i = from; i < t.steps(); i++) {
                maxPerStep += Math.max(t.engineNs(HuskyBraitenberg.BRAIN, i), t.engineNs(HuskyBraitenberg.WORLD, i));
            }
            maxPerStep /= t.steps() - from;
            System.out.println(String.format(Locale.ROOT,
                    "%-8s brain+%5d neurons: wall %7.0f us/step, brain %7.0f us, world %7.0f us, tf %5.0f us,"
                            + " wall/max(brain,world) %.3f, wall/max(mean brain, mean world) %.3f, sha %s",
                    mode, extra, wall / 1e3, brain / 1e3, world / 1e3, tf / 1e3, wall / maxPerStep, wall / Math.max(brain, world),
                    loop.trajectory().sha256().substring(0, 12)));
        }
    }
}
