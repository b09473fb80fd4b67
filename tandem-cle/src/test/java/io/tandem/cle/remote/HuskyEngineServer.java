package io.tandem.cle.remote;

import io.tandem.cle.Engine;
import io.tandem.cle.HuskyBraitenberg;
import io.tandem.cle.internal.SuppressForbidden;
import io.tandem.cosim.process.ChildJvm;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A test engine server process: serves the {@link HuskyBraitenberg} brain or world, built in
 * code, as {@code tandem engine-server} serves an experiment file's engines. Its arguments are
 * an {@link EngineServerAddress#options()} block, then the engine: {@code husky-brain SEED
 * EXTRA_NEURONS THREADS} or {@code husky-world}. {@link #LAUNCHER} starts it in a child JVM.
 */
@SuppressForbidden // a process entry point: reports on its standard error, ends with an exit code
public final class HuskyEngineServer {
    /** Starts this server in a child JVM on the test class path (serial GC, 256 MiB heap). */
    public static final EngineLauncher LAUNCHER = EngineLauncher.childJvm(HuskyEngineServer.class.getName(), List.of(),
            List.of("-XX:+UseSerialGC", "-Xmx256m"));

    private HuskyEngineServer() {
    }

    /**
     * @param seed         the brain's seed
     * @param extraNeurons 0, or at least 10 extra Brunel neurons
     * @param threads      the network's update threads
     * @return the engine arguments of the Braitenberg brain
     */
    public static List<String> brain(long seed, int extraNeurons, int threads) {
        return List.of("husky-brain", Long.toString(seed), Integer.toString(extraNeurons), Integer.toString(threads));
    }

    /** @return the engine arguments of the Husky world (red screen) */
    public static List<String> world() {
        return List.of("husky-world");
    }

    /**
     * Serves the engine its arguments name; exits 0 when its client shut it down, 1 on failure.
     *
     * @param args the address options, then the engine
     */
    public static void main(String[] args) {
        Map<String, String> o = new HashMap<>();
        int i = 0;
        while (i < args.length && args[i].startsWith("--")) {
            if (args[i].equals("--exit-with-parent")) {
                o.put(args[i++], "");
            } else {
                o.put(args[i], args[i + 1]);
                i += 2;
            }
        }
        EngineServerAddress address = new EngineServerAddress(o.get("--registry"), o.get("--simulation"), o.get("--name"),
                o.get("--engine"), Long.parseLong(o.get("--attach-timeout-s")));
        if (o.containsKey("--exit-with-parent")) {
            ChildJvm.exitWhenParentEnds(() -> System.exit(1));
        }
        Engine engine = args[i].equals("husky-brain")
                ? HuskyBraitenberg.brainEngine(address.engine(), Long.parseLong(args[i + 1]), Integer.parseInt(args[i + 2]),
                        Integer.parseInt(args[i + 3]))
                : HuskyBraitenberg.worldEngine(address.engine(), (java.nio.file.Path) null, false);
        System.exit(EngineServer.serveProcess(engine, address, System.err::println));
    }
}
