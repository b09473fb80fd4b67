package io.tandem.bench.cosim;

import io.tandem.bench.internal.ProcessCpu;
import io.tandem.cosim.Participant;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The echo side of {@code bench pubsub --transport aeron}, in its own JVM: connects as
 * {@code echo} (arguments: registry URI, simulation), publishes every message of topic
 * {@code ping} back on topic {@code pong}, answers {@code READY} on standard output and
 * {@code CPU ns} for each {@code CPU} line on standard input; ends with its standard input.
 */
final class PubSubEchoMain {
    private PubSubEchoMain() {
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (Participant p = Participant.connect(args[0], args[1], "echo")) {
            PubSubScenario.echo(p);
            System.out.println("READY");
            System.out.flush();
            String line;
            while ((line = in.readLine()) != null) {
                if (line.equals("CPU")) {
                    System.out.println("CPU " + ProcessCpu.nowNs());
                    System.out.flush();
                }
            }
        }
        Runtime.getRuntime().halt(0);
    }

}
