package io.tandem.cle.remote;

import io.tandem.cosim.process.ChildJvm;
import java.util.List;

/**
 * Starts an engine server in a process of its own: NRP-core's process launchers, the seam
 * between the side that needs a remote engine ({@link RemoteEngine.Builder#launch},
 * {@code ExperimentRunner}) and the program that serves it. The closed loop does not know that
 * program: the {@code tandem} command supplies one that runs {@code tandem engine-server}, tests
 * supply their own.
 *
 * <p>Implementations must be thread-safe; launching allocates.
 */
@FunctionalInterface
public interface EngineLauncher {
    /**
     * Starts a server that connects to {@code server.registry()} as {@code server.participant()}
     * and serves the engine {@code engineArgs} describe, named {@code server.engine()}.
     *
     * @param server     where the server connects and its names (its {@link EngineServerAddress#options()})
     * @param engineArgs the engine to serve, in the launched program's terms (not modified)
     * @return the started process; {@link RemoteEngine} watches and ends it
     */
    ChildJvm launch(EngineServerAddress server, List<String> engineArgs);

    /**
     * A launcher that runs {@code mainClass} in a child JVM with this JVM's class path
     * ({@link ChildJvm}): its arguments are {@code leadingArgs}, the server's
     * {@link EngineServerAddress#options()}, then the engine's arguments. The child's output is
     * logged line by line at INFO, prefixed with its participant name.
     *
     * @param mainClass   the server program's main class
     * @param leadingArgs arguments before the server's options (e.g. a subcommand); not modified
     * @param jvmOptions  options of the child JVM (heap, GC, JIT); not modified
     * @return the launcher
     */
    static EngineLauncher childJvm(String mainClass, List<String> leadingArgs, List<String> jvmOptions) {
        List<String> leading = List.copyOf(leadingArgs);
        List<String> jvm = List.copyOf(jvmOptions);
        return (server, engineArgs) -> EngineProcess.start(server, mainClass, leading, jvm, engineArgs);
    }
}
