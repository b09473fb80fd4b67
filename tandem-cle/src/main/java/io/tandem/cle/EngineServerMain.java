package io.tandem.cle;

import io.tandem.cosim.Participant;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An engine server process: builds one engine from its arguments and serves it
 * ({@link EngineServer}) until its client shuts it down or is lost. {@link RemoteEngine.Builder#launch}
 * starts it with this JVM's class path; it can also be started by hand:
 * <pre>
 *   java -cp CLASSPATH io.tandem.cle.EngineServerMain --registry tandem://HOST:PORT [--simulation SIM]
 *       [--name PARTICIPANT] [--engine NAME] [--attach-timeout-s S] [--exit-with-parent] KIND [OPTIONS]
 *
 *   KIND husky-brain [--seed N] [--extra-neurons N] [--threads N]   the Braitenberg brain (engine "brain")
 *   KIND husky-world [--world-file PATH] [--red-screen-blue]        the Husky world (engine "world")
 * </pre>
 * {@code --exit-with-parent} ends the process when its standard input closes (its parent ended).
 * Exit codes: 0 shut down by the client, 1 failed (client lost, no client, engine build failed),
 * 2 wrong arguments; failures are explained on standard error. Stateless.
 */
@SuppressForbidden // a process entry point: reports on its standard error, ends with an exit code
public final class EngineServerMain {
    /** The kind of the Braitenberg brain engine (default engine name {@value HuskyBraitenberg#BRAIN}). */
    public static final String HUSKY_BRAIN = "husky-brain";
    /** The kind of the Husky world engine (default engine name {@value HuskyBraitenberg#WORLD}). */
    public static final String HUSKY_WORLD = "husky-world";
    /** The kind of an experiment file's brain engine (default engine name {@value ExperimentRunner#BRAIN}). */
    public static final String EXPERIMENT_BRAIN = "experiment-brain";
    /** The kind of an experiment file's world engine (default engine name {@value ExperimentRunner#WORLD}). */
    public static final String EXPERIMENT_WORLD = "experiment-world";

    private EngineServerMain() {
    }

    /**
     * The arguments of a Braitenberg brain server, for {@link RemoteEngine.Builder#launch}.
     *
     * @param seed         the brain's seed
     * @param extraNeurons 0, or at least 10 extra Brunel neurons
     * @param threads      the network's update threads
     * @return the kind and its options
     */
    public static List<String> huskyBrain(long seed, int extraNeurons, int threads) {
        return List.of(HUSKY_BRAIN, "--seed", Long.toString(seed), "--extra-neurons", Integer.toString(extraNeurons), "--threads",
                Integer.toString(threads));
    }

    /**
     * The arguments of a Husky world server, for {@link RemoteEngine.Builder#launch}.
     *
     * @param worldFile     the world file (null: the server looks for the checkout's, from its working directory)
     * @param redScreenBlue whether the red screen is recoloured blue
     * @return the kind and its options
     */
    public static List<String> huskyWorld(Path worldFile, boolean redScreenBlue) {
        List<String> a = new ArrayList<>(List.of(HUSKY_WORLD));
        if (worldFile != null) {
            a.add("--world-file");
            a.add(worldFile.toAbsolutePath().toString());
        }
        if (redScreenBlue) {
            a.add("--red-screen-blue");
        }
        return List.copyOf(a);
    }

    /**
     * The arguments of a server of an experiment file's brain or world engine, for
     * {@link RemoteEngine.Builder#launch}.
     *
     * @param kind       {@link #EXPERIMENT_BRAIN} or {@link #EXPERIMENT_WORLD}
     * @param experiment the experiment file
     * @param overrides  the parameters set on the command line (NAME=VALUE), as the client loaded it with
     * @return the kind and its options
     */
    public static List<String> experimentEngine(String kind, Path experiment, List<String> overrides) {
        List<String> a = new ArrayList<>(List.of(kind, "--experiment", experiment.toAbsolutePath().toString()));
        for (String o : overrides) {
            a.add("--set");
            a.add(o);
        }
        return List.copyOf(a);
    }

    /**
     * Builds the engine an argument list names.
     *
     * @param engineName the engine's name (null: the kind's default)
     * @param kindArgs   the kind and its options
     * @return the engine
     * @throws IllegalArgumentException for an unknown kind or option, naming it
     */
    public static Engine buildEngine(String engineName, List<String> kindArgs) {
        if (kindArgs.isEmpty()) {
            throw new IllegalArgumentException("no engine kind: give " + HUSKY_BRAIN + " or " + HUSKY_WORLD);
        }
        String kind = kindArgs.get(0);
        Options o = new Options(kindArgs.subList(1, kindArgs.size()));
        if (kind.equals(HUSKY_BRAIN)) {
            long seed = Long.parseLong(o.value("--seed", "1"));
            int extra = Integer.parseInt(o.value("--extra-neurons", "0"));
            int threads = Integer.parseInt(o.value("--threads", "1"));
            o.done(kind);
            return HuskyBraitenberg.brainEngine(engineName == null ? HuskyBraitenberg.BRAIN : engineName, seed, extra, threads);
        }
        if (kind.equals(HUSKY_WORLD)) {
            String file = o.value("--world-file", null);
            boolean blue = o.flag("--red-screen-blue");
            o.done(kind);
            return HuskyBraitenberg.worldEngine(engineName == null ? HuskyBraitenberg.WORLD : engineName,
                    file == null ? null : Path.of(file), blue);
        }
        if (kind.equals(EXPERIMENT_BRAIN) || kind.equals(EXPERIMENT_WORLD)) {
            String file = o.value("--experiment", null);
            if (file == null) {
                throw new IllegalArgumentException(kind + " needs --experiment FILE");
            }
            List<String> sets = o.values("--set");
            o.done(kind);
            ExperimentFile f = ExperimentFile.load(Path.of(file), ExperimentOverrides.parse(sets));
            return kind.equals(EXPERIMENT_BRAIN)
                    ? ExperimentRunner.brainEngine(f, engineName == null ? ExperimentRunner.BRAIN : engineName).engine()
                    : ExperimentRunner.worldEngine(f, engineName == null ? ExperimentRunner.WORLD : engineName);
        }
        throw new IllegalArgumentException("unknown engine kind '" + kind + "': give " + HUSKY_BRAIN + ", " + HUSKY_WORLD + ", "
                + EXPERIMENT_BRAIN + " or " + EXPERIMENT_WORLD);
    }

    /**
     * Serves an engine; exits with the code {@link #run} returns.
     *
     * @param args see the class documentation
     */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /**
     * Serves an engine (blocking).
     *
     * @param args see the class documentation
     * @return the exit code: 0 shut down by the client, 1 failed, 2 wrong arguments
     */
    static int run(String[] args) {
        String registry;
        String simulation;
        String engineName;
        String participantName;
        long attachTimeoutS;
        boolean exitWithParent;
        List<String> kindArgs;
        try {
            List<String> all = Arrays.asList(args);
            int kindAt = 0;
            while (kindAt < all.size() && all.get(kindAt).startsWith("--")) {
                kindAt += all.get(kindAt).equals("--exit-with-parent") ? 1 : 2;
            }
            Options o = new Options(all.subList(0, Math.min(kindAt, all.size())));
            registry = o.value("--registry", null);
            simulation = o.value("--simulation", RemoteEngine.DEFAULT_SIMULATION);
            engineName = o.value("--engine", null);
            participantName = o.value("--name", null);
            attachTimeoutS = Long.parseLong(o.value("--attach-timeout-s", "60"));
            exitWithParent = o.flag("--exit-with-parent");
            o.done("the server");
            if (registry == null) {
                throw new IllegalArgumentException("--registry URI is required");
            }
            kindArgs = all.subList(Math.min(kindAt, all.size()), all.size());
            if (kindArgs.isEmpty()) {
                throw new IllegalArgumentException("no engine kind: give " + HUSKY_BRAIN + " or " + HUSKY_WORLD);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("engine server: " + e.getMessage());
            System.err.println("usage: EngineServerMain --registry URI [--simulation SIM] [--name PARTICIPANT] [--engine NAME]"
                    + " [--attach-timeout-s S] [--exit-with-parent] (" + HUSKY_BRAIN + " [--seed N] [--extra-neurons N] [--threads N]"
                    + " | " + HUSKY_WORLD + " [--world-file PATH] [--red-screen-blue])");
            return 2;
        }
        if (exitWithParent) {
            Thread watchdog = new Thread(EngineServerMain::exitAtEndOfInput, "tandem-cle-parent-watchdog");
            watchdog.setDaemon(true);
            watchdog.start();
        }
        Engine engine;
        try {
            engine = buildEngine(engineName, kindArgs);
        } catch (RuntimeException e) {
            System.err.println("engine server: cannot build the engine " + kindArgs + ": " + e.getMessage());
            return kindArgs.isEmpty() || e instanceof NumberFormatException ? 2 : 1;
        }
        String name = participantName != null ? participantName : "cle-engine-" + engine.name();
        Participant participant;
        try {
            participant = Participant.connect(registry, simulation, name);
        } catch (RuntimeException e) {
            engine.close();
            System.err.println("engine server: cannot connect '" + name + "' to " + registry + ": " + e.getMessage());
            return 1;
        }
        try (Participant p = participant; EngineServer server = new EngineServer(engine, p)) {
            EngineServer.Result r = server.serve(attachTimeoutS * 1_000_000_000L);
            System.err.println("engine server " + name + ": engine '" + engine.name() + "' shut down by client " + r.client()
                    + " after " + r.steps() + " steps");
            return 0;
        } catch (RemoteEngineException e) {
            System.err.println("engine server: " + e.getMessage());
            return 1;
        }
    }

    /** Blocks until standard input ends (the parent closed it or ended), then exits the process. */
    private static void exitAtEndOfInput() {
        InputStream in = System.in;
        byte[] sink = new byte[256];
        try {
            while (in.read(sink) >= 0) {
                // discard
            }
        } catch (IOException e) {
            // treated as the end
        }
        System.err.println("engine server: the parent process ended; exiting");
        System.exit(1);
    }

    /** Option parsing: {@code --key value} pairs and flags; every option must be consumed. */
    private static final class Options {
        private final List<String> args;
        private final boolean[] used;

        Options(List<String> args) {
            this.args = args;
            this.used = new boolean[args.size()];
        }

        String value(String key, String dflt) {
            for (int i = 0; i < args.size(); i++) {
                if (args.get(i).equals(key)) {
                    if (i + 1 >= args.size()) {
                        throw new IllegalArgumentException(key + " needs a value");
                    }
                    used[i] = true;
                    used[i + 1] = true;
                    return args.get(i + 1);
                }
            }
            return dflt;
        }

        List<String> values(String key) {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < args.size(); i++) {
                if (args.get(i).equals(key)) {
                    if (i + 1 >= args.size()) {
                        throw new IllegalArgumentException(key + " needs a value");
                    }
                    used[i] = true;
                    used[i + 1] = true;
                    out.add(args.get(++i));
                }
            }
            return out;
        }

        boolean flag(String key) {
            for (int i = 0; i < args.size(); i++) {
                if (args.get(i).equals(key)) {
                    used[i] = true;
                    return true;
                }
            }
            return false;
        }

        void done(String what) {
            for (int i = 0; i < args.size(); i++) {
                if (!used[i]) {
                    throw new IllegalArgumentException("unknown option '" + args.get(i) + "' for " + what);
                }
            }
        }
    }
}
