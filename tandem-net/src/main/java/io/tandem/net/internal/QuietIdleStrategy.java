package io.tandem.net.internal;

import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

/**
 * An idle strategy that parks through a quiet period its participant announced
 * ({@code Participant.expectQuietFor}), parks long while the participant's own thread polls (that
 * thread unparks it when it parks itself), and otherwise idles as the configured strategy does.
 *
 * <p>Why: in a lockstep whose steps take milliseconds (a distributed world of thousands of
 * bodies), a waiting process's agent thread otherwise wakes every longest park (tens of us) for
 * the whole step, taking a share of the CPUs from the processes that step. Parking through most
 * of the step and polling as usual for the rest keeps the latency of the answer that ends the
 * wait. Likewise, while the participant thread is awake it polls on every turn of its loop, so the
 * agent thread's short parks (tens of us, for the hand-off when the participant parks) were only
 * wake-ups: three processes of a distributed light world on 2 cores went from 42 to 32 us of
 * lockstep overhead per iteration (bench world --world light, median of 5 runs).
 *
 * <p>Thread: {@link #quietFor} from any thread; the idle methods from the agent's thread only.
 * Allocates nothing.
 */
final class QuietIdleStrategy implements IdleStrategy {
    /** the longest single park, so a closing runner is never held up long */
    static final long MAX_PARK_NS = 20_000_000;
    /** the park while the participant thread polls (it unparks this thread when it parks itself) */
    static final long AWAKE_PARK_NS = 1_000_000;

    private final IdleStrategy delegate;
    private final NanoClock clock;
    private volatile long quietUntilNs;
    /** the participant thread polls on every turn of its loop: this thread may park long */
    private volatile boolean participantAwake;
    /** the agent thread, once it idled (to wake it when the participant thread parks) */
    private volatile Thread agentThread;
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

    /** The participant thread polled (it is awake); cheap when already known. Any thread. */
    void participantAwake() {
        if (!participantAwake) {
            participantAwake = true;
        }
    }

    /** The participant thread parks: this thread polls for it again at once. Any thread. */
    void participantParking() {
        participantAwake = false;
        Thread t = agentThread;
        if (t != null) {
            LockSupport.unpark(t);
        }
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
        if (participantAwake) {
            // the participant thread polls on every turn of its loop; when it parks it unparks us
            if (agentThread == null) {
                agentThread = Thread.currentThread();
            }
            LockSupport.parkNanos(AWAKE_PARK_NS);
            if (!participantAwake) {
                delegate.reset();
            }
            return;
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
