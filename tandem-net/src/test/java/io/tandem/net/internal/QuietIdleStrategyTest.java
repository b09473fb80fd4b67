package io.tandem.net.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;

class QuietIdleStrategyTest {

    /** the configured strategy, recording what it is asked */
    private static final class Recording implements IdleStrategy {
        final List<String> calls = new ArrayList<>();

        @Override
        public void idle(int workCount) {
            calls.add("idle(" + workCount + ")");
        }

        @Override
        public void idle() {
            calls.add("idle");
        }

        @Override
        public void reset() {
            calls.add("reset");
        }
    }

    private long nowNs = 1_000_000_000L;
    private final Recording delegate = new Recording();
    private final QuietIdleStrategy quiet = new QuietIdleStrategy(delegate, () -> nowNs);

    @Test
    void idle_noQuietPeriod_idlesAsTheConfiguredStrategy() {
        quiet.idle(0);
        quiet.idle(3);
        assertThat(delegate.calls).containsExactly("idle", "reset");
    }

    @Test
    void idle_duringAQuietPeriod_parksWithoutTheConfiguredStrategy_thenRestartsItFromSpinning() {
        quiet.quietFor(1_000);
        // 1 us left: a real park of at most 1 us, and nothing of the back-off
        quiet.idle(0);
        quiet.idle();
        assertThat(delegate.calls).isEmpty();
        nowNs += 1_000;
        quiet.idle(0);
        quiet.idle(0);
        // the end of the period resets the back-off once (the answer is due), then idles as usual
        assertThat(delegate.calls).containsExactly("reset", "idle", "idle");
    }

    @Test
    void quietFor_zero_endsTheQuietPeriod() {
        quiet.quietFor(60_000_000_000L);
        quiet.quietFor(0);
        quiet.idle(0);
        assertThat(delegate.calls).containsExactly("idle");
    }

    @Test
    void idle_workDuringAQuietPeriod_resetsTheConfiguredStrategy() {
        quiet.quietFor(60_000_000_000L);
        quiet.idle(1);
        assertThat(delegate.calls).containsExactly("reset");
    }

    @Test
    void idle_participantThreadPolling_parksWithoutTheBackOff_untilTheParticipantParks() {
        quiet.participantAwake();
        quiet.idle(0);
        quiet.idle();
        // the participant thread polls on every turn: this thread only parks (up to 1 ms each)
        assertThat(delegate.calls).isEmpty();
        quiet.participantParking();
        quiet.idle(0);
        quiet.idle(0);
        assertThat(delegate.calls).containsExactly("idle", "idle");
    }
}
