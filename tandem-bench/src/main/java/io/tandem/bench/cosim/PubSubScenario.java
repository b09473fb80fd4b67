package io.tandem.bench.cosim;

import io.tandem.cosim.Participant;
import io.tandem.cosim.pubsub.DataMessageEvent;
import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.PubSubSpec;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/*
 * Implementation notes.
 *
 * Ping-pong: the pinger publishes a message on "ping" whose first 8 bytes are its sequence
 * number; the echo publishes every "ping" back on "pong"; the pinger's "pong" handler (on its
 * participant thread) records the round trip and publishes the next ping at once. So one message
 * is in flight at a time and a round trip is publish -> transport -> echo's thread -> publish ->
 * transport -> pinger's thread, as in SIL Kit's latency demo. Until the first pong the pinger
 * repeats ping 0 (the echo's subscriber may not be matched yet); stray pongs of an old sequence
 * number are ignored. No lifecycle: the messages carry no virtual time.
 */

/**
 * Pub/sub round trips between a pinger and an echo participant. The pinger's handler runs on its
 * participant thread; {@link #run} blocks the calling thread (parked) until the run is over.
 * Allocates per message (the payload copies of {@link DataPublisher#publish}).
 */
final class PubSubScenario {
    static final String PING = "ping";
    static final String PONG = "pong";

    private PubSubScenario() {
    }

    /**
     * Makes {@code p} the echo: every {@code ping} is published back on {@code pong}.
     *
     * @param p a connected participant
     */
    static void echo(Participant p) {
        DataPublisher pong = p.createDataPublisher("pong", PubSubSpec.of(PONG, "application/octet-stream"), 0);
        p.createDataSubscriber("ping", PubSubSpec.of(PING, ""), e -> pong.publish(e.data()));
    }

    /** The pinger's state; its handler runs on the pinger's participant thread. */
    static final class Pinger {
        private final DataPublisher ping;
        private final byte[] payload;
        private long[] rttNs = new long[0];
        private int expected;
        private int count;
        private long sentNs;
        private CompletableFuture<long[]> done = CompletableFuture.completedFuture(new long[0]);

        /**
         * @param p            the pinger, connected to the echo's simulation
         * @param payloadBytes bytes per message, at least 8
         */
        Pinger(Participant p, int payloadBytes) {
            this.payload = new byte[Math.max(8, payloadBytes)];
            this.ping = p.createDataPublisher("ping", PubSubSpec.of(PING, "application/octet-stream"), 0);
            p.createDataSubscriber("pong", PubSubSpec.of(PONG, ""), this::onPong);
        }

        /**
         * Runs {@code messages} round trips (after the first, which waits for the match).
         *
         * @param messages  round trips to time, at least 1
         * @param timeoutMs wall ms the whole run may take
         * @return the round trips, ns, sorted
         * @throws TimeoutException if the echo did not answer in time
         */
        long[] run(int messages, long timeoutMs) throws TimeoutException, InterruptedException {
            CompletableFuture<long[]> f = new CompletableFuture<>();
            synchronized (this) {
                rttNs = new long[messages];
                count = -1; // the first round trip is not timed
                expected = expected + 1;
                done = f;
            }
            long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
            int first = expected;
            // repeat the first ping until the echo answers: its subscriber may not be matched yet
            while (!f.isDone()) {
                synchronized (this) {
                    if (count == -1 && expected == first) {
                        sentNs = System.nanoTime();
                        send(first);
                    }
                }
                try {
                    f.get(20, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    if (System.nanoTime() > deadlineNs) {
                        throw new TimeoutException("the echo answered " + Math.max(0, count) + " of " + messages
                                + " pings within " + timeoutMs + " ms");
                    }
                } catch (ExecutionException e) {
                    throw new IllegalStateException(e.getCause());
                }
            }
            long[] out = f.getNow(null);
            Arrays.sort(out);
            return out;
        }

        private void send(int seq) {
            for (int b = 0; b < 4; b++) {
                payload[b] = (byte) (seq >>> (24 - 8 * b));
            }
            ping.publish(payload);
        }

        private synchronized void onPong(DataMessageEvent e) {
            long now = System.nanoTime();
            byte[] d = e.data();
            int seq = ((d[0] & 0xff) << 24) | ((d[1] & 0xff) << 16) | ((d[2] & 0xff) << 8) | (d[3] & 0xff);
            if (seq != expected || done.isDone()) {
                return; // a repeated first ping's answer
            }
            if (count >= 0) {
                rttNs[count] = now - sentNs;
            }
            count++;
            if (count == rttNs.length) {
                done.complete(rttNs);
                return;
            }
            expected++;
            sentNs = System.nanoTime();
            send(expected);
        }
    }

    /**
     * @param sortedNs round trips, sorted ascending
     * @param q        quantile in [0, 1]
     * @return the nearest-rank quantile
     */
    static long quantile(long[] sortedNs, double q) {
        int i = (int) Math.ceil(q * sortedNs.length) - 1;
        return sortedNs[Math.max(0, Math.min(sortedNs.length - 1, i))];
    }
}
