package io.tandem.bench;

import io.tandem.cli.spi.JsonLinesOption;
import io.tandem.neuro.BrunelNetwork;
import io.tandem.neuro.SpikingNetwork;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/*
 * Implementation notes.
 *
 * The scene is io.tandem.neuro.BrunelNetwork: Brunel's (2000) sparse random balanced network as
 * NEST's brunel_alpha_nest example builds it (80 % excitatory, 20 % inhibitory iaf_psc_alpha,
 * fixed indegree 10 % of each population, g = 5, eta = 2, J = 0.1 mV, delay 1.5 ms, Poisson
 * background). Building is timed apart. A warm-up (default 100 ms of network time) lets the JIT
 * compile the stepping loop and the network leave its synchronous onset; then --sim-ms are timed
 * with System.nanoTime (this is the measuring harness, not simulation logic). Spikes and the mean
 * rate are those of the timed part.
 */

/** {@code tandem bench brain}: simulated seconds per wall second of a random balanced spiking network. */
@Command(name = "brain", mixinStandardHelpOptions = true,
        description = {"Simulated seconds per wall second of a Brunel (2000) random balanced network of iaf_psc_alpha"
                + " neurons (NEST's brunel_alpha_nest), with total spikes and the mean rate.",
            "Example: tandem bench brain --neurons 10000 --sim-ms 1000 --threads 2 --json"})
final class BrainCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--neurons", defaultValue = "10000", description = "Neurons, 80 %% excitatory (default: ${DEFAULT-VALUE}).")
    int neurons;

    @Option(names = "--sim-ms", defaultValue = "1000", description = "Network time to measure, ms (default: ${DEFAULT-VALUE}).")
    long simMs;

    @Option(names = "--warmup-ms", defaultValue = "100", description = "Network time simulated before measuring, ms"
            + " (default: ${DEFAULT-VALUE}).")
    long warmupMs;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the connectivity and the background (default:"
            + " ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--threads", defaultValue = "1", description = "Update threads; results are identical for any count"
            + " (default: ${DEFAULT-VALUE}).")
    int threads;

    @Mixin
    JsonLinesOption output;

    @Override
    public Integer call() {
        if (neurons < 10 || simMs < 1 || warmupMs < 0 || threads < 1) {
            throw new ParameterException(spec.commandLine(), "--neurons must be >= 10, --sim-ms >= 1, --warmup-ms >= 0 and"
                    + " --threads >= 1");
        }
        PrintWriter out = spec.commandLine().getOut();
        long b0 = System.nanoTime();
        try (SpikingNetwork net = BrunelNetwork.build(neurons, threads, seed, false)) {
            double buildS = (System.nanoTime() - b0) / 1e9;
            net.simulate(warmupMs * 1_000_000L);
            long spikes0 = net.totalSpikes();
            long t0 = System.nanoTime();
            net.simulate(simMs * 1_000_000L);
            double wallS = (System.nanoTime() - t0) / 1e9;
            long spikes = net.totalSpikes() - spikes0;
            double simS = simMs / 1000.0;
            double rate = spikes / (double) neurons / simS;
            if (output.json()) {
                out.printf(Locale.ROOT, "{\"bench\":\"brain\",\"neurons\":%d,\"synapses\":%d,\"sim_s\":%.3f,\"wall_s\":%.3f,"
                                + "\"sim_s_per_wall_s\":%.4f,\"spikes\":%d,\"mean_rate_hz\":%.3f,\"threads\":%d,\"build_s\":%.3f}%n",
                        neurons, net.synapseCount(), simS, wallS, simS / wallS, spikes, rate, net.threads(), buildS);
            } else {
                out.printf(Locale.ROOT, "brain: Brunel network of %d neurons, %d synapses, %d thread(s), built in %.2f s%n",
                        neurons, net.synapseCount(), net.threads(), buildS);
                out.printf(Locale.ROOT, "  simulated %.3f s in %.3f s wall: %.3f simulated s per wall s; %d spikes, mean rate"
                        + " %.2f Hz%n", simS, wallS, simS / wallS, spikes, rate);
            }
        }
        out.flush();
        return 0;
    }
}
