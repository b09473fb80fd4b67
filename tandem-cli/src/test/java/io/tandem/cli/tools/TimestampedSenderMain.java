package io.tandem.cli.tools;

import io.tandem.cosim.LifecycleService;
import io.tandem.cosim.OperationMode;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.PubSubSpec;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * The sending process of {@link NetReliabilityTest}: a coordinated participant with 1 ms steps
 * that publishes {@code PER_STEP} messages per step for {@code STEPS} steps, each holding a
 * sequence number (from 0) and the step's virtual time, then stops the simulation. Exit code 0 when
 * it reached Shutdown.
 *
 * <pre>URI SIMULATION NAME STEPS PER_STEP</pre>
 */
final class TimestampedSenderMain {
    static final long MS = 1_000_000;
    static final String TOPIC = "seq";

    private TimestampedSenderMain() {
    }

    public static void main(String[] args) throws Exception {
        long steps = Long.parseLong(args[3]);
        int perStep = Integer.parseInt(args[4]);
        ParticipantState end;
        try (Participant p = Participant.connect(args[0], args[1], args[2])) {
            DataPublisher pub = p.createDataPublisher("seq", PubSubSpec.of(TOPIC, "application/x-seq"), 0);
            LifecycleService lc = p.createLifecycleService(OperationMode.COORDINATED);
            long[] seq = {0};
            lc.createTimeSyncService().setSimulationStepHandler((nowNs, durationNs) -> {
                if (nowNs >= steps * MS) {
                    lc.stop("sent " + seq[0] + " messages");
                    return;
                }
                for (int i = 0; i < perStep; i++) {
                    pub.publish(ByteBuffer.allocate(16).putLong(seq[0]++).putLong(nowNs).array());
                }
            }, MS);
            end = lc.startLifecycle().get(120, TimeUnit.SECONDS);
        }
        System.exit(end == ParticipantState.SHUTDOWN ? 0 : 4);
    }
}
