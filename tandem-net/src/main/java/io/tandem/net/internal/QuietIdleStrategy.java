package io.tandem.net.internal;

import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

/**
 * An idle strategy that parks through a quiet period its participant announced
 * ({@code Participant.expectQuietFor}) and otherwise idles as the configured strategy does.
 *
 * <p>Why: in a lockstep whose steps take milliseconds (a distributed world of thousands of
 * bodies), a waiting process's agent thread otherwise wakes every longest park (tens of us) for
 * the whole step, taking a share of the CPUs from the processes that step. Parking through most
 * of the step and polling as usual for the rest keeps the latency of the answer that ends the
 * wait.
 *
 * <p>Thread: {@link #quietFor} from any thread; the idle methods from the agent's thread only.
 * Allocates nothing.
 */
final class QuietIdleStrategy implements IdleStrategy {
    /** the longest single park, so a closing runner is never held up long */
    static final long MAX_PARK_NS = 20_000_000;

    private final IdleStrategy delegate;
    private final NanoClock clock;
    private volatile long quietUntilNs;
    /** agent thread: the quiet period whose end was handled (the back-off restarted from spinning) */
    private long endedUntilNs;

    QuietIdleStrategy(IdleStrategy delegate, NanoClock clock) {
        this.delegate = delegate;
        this.clock = clock;
    }

    /**
     * @param durationNs park through the next durationNs (0: stop parking through a quiet period)
     */
    void quietFor(long durationNs) {
        quietUntilNs = durationNs <= 0 ? 0 : clock.nanoTime() + durationNs;
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            delegate.reset();
        } else {
            idle();
        }
    }

    @Override
    public void idle() {
        long until = quietUntilNs;
        if (until != 0 && until != endedUntilNs) {
            long left = until - clock.nanoTime();
            if (left > 0) {
                LockSupport.parkNanos(Math.min(left, MAX_PARK_NS));
                return;
            }
            // the answer is due: poll eagerly again (spin, yield) rather than from the longest park
            endedUntilNs = until;
            delegate.reset();
        }
        delegate.idle();
    }

    @Override
    public void reset() {
        delegate.reset();
    }

    @Override
    public String alias() {
        return "quiet-" + delegate.alias();
    }
}
