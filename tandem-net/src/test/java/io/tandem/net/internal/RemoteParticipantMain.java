package io.tandem.net.internal;

import io.tandem.cosim.LifecycleService;
import io.tandem.cosim.OperationMode;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.PubSubSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A participant in a separate JVM, started by {@link MultiProcessTest}. Reports through its exit
 * code (0 success, 3 wrong data, 4 wrong final state) and, on failure, its standard error.
 *
 * <pre>
 *   idle      URI SIM NAME          connect and wait to be killed
 *   timesync  URI SIM NAME PEER     coordinated, 1 ms steps: publish "NAME" with longs(now); expect
 *                                   PEER's messages in order, each stamped before our step
 * </pre>
 */
@SuppressForbidden // a separate process: reports failures on its standard error
final class RemoteParticipantMain {
    private static final long MS = 1_000_000;

    private RemoteParticipantMain() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Participant p = Participant.connect(args[1], args[2], args[3]);
        if (mode.equals("idle")) {
            while (true) {
                LockSupport.park();
            }
        }
        String peer = args[4];
        DataPublisher pub = p.createDataPublisher("out", PubSubSpec.of(args[3], "application/x-longs"), 0);
        List<Long> got = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        LifecycleService lc = p.createLifecycleService(OperationMode.COORDINATED);
        var ts = lc.createTimeSyncService();
        p.createDataSubscriber("in", PubSubSpec.of(peer, ""), e -> {
            long stamp = MultiProcessTest.longAt(e.data());
            if (stamp != e.timestampNs() || (!got.isEmpty() && stamp != got.get(got.size() - 1) + MS)
                    || stamp < ts.now()) {
                bad.add("stamp " + stamp + " ts " + e.timestampNs() + " now " + ts.now());
            }
            got.add(stamp);
        });
        ts.setSimulationStepHandler((now, d) -> pub.publish(MultiProcessTest.longs(now)), MS);
        ParticipantState end = lc.startLifecycle().get(60, TimeUnit.SECONDS);
        p.close();
        if (!bad.isEmpty() || got.size() < 50) {
            System.err.println("received " + got.size() + " messages; out of order or late: " + bad);
        }
        System.exit(end != ParticipantState.SHUTDOWN ? 4 : !bad.isEmpty() || got.size() < 50 ? 3 : 0);
    }
}
