package io.tandem.cle.remote;

import io.tandem.cosim.process.ChildJvm;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine server JVMs of {@link EngineLauncher#childJvm}: started with {@link ChildJvm}, their
 * output logged line by line. Stateless.
 */
final class EngineProcess {
    private static final Logger LOG = LoggerFactory.getLogger(EngineProcess.class);

    private EngineProcess() {
    }

    static ChildJvm start(EngineServerAddress server, String mainClass, List<String> leadingArgs, List<String> jvmOptions,
                          List<String> engineArgs) {
        String label = server.participant();
        ChildJvm.Builder b = ChildJvm.builder(label, mainClass).jvmOptions(jvmOptions).args(leadingArgs)
                .args(server.options()).args(engineArgs).onLine(line -> LOG.info("[{}] {}", label, line));
        LOG.debug("Starting engine server {}: {}", label, b.command());
        return b.start();
    }
}
