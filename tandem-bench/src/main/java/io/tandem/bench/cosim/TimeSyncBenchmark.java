package io.tandem.bench.cosim;

import io.tandem.cosim.LifecycleService;
import io.tandem.cosim.OperationMode;
import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.Registry;
import io.tandem.cosim.TimeSyncService;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/*
 * Implementation notes.
 *
 * One operation is one system-wide lockstep step. Participant 0 (the driver) has an asynchronous
 * step handler that only counts started steps; the benchmark thread completes the driver's open
 * step and spins until the driver's next step has started. That step starts only after every
 * other participant (blocking, empty handlers) has finished the current one and announced the
 * next, so each operation covers a full round of NextSimTask announcements.
 *
 * JMH's GC profiler sums allocation over all threads, so gc.alloc.rate.norm includes the
 * participants' threads: it is the allocation of one whole step.
 *
 * The benchmark thread spins, then yields: with 8 participants on 2 cores a pure spin left runnable
 * participants waiting for the spinner's time slice (308 ops/s against about 50k with 100 spins).
 * Spin limits of 1,000 and more helped N = 2 at times and hurt N = 8 badly; results at N = 2 are
 * bimodal on 2 cores either way (three busy threads on two cores).
 */

/**
 * JMH benchmark of virtual-time synchronization: throughput of lockstep steps of N in-process,
 * coordinated, time-synchronized participants with 1 ms steps and no payload. Run with
 * {@code -prof gc}: {@code java -cp tandem-bench/target/tandem.jar org.openjdk.jmh.Main TimeSyncBenchmark -prof gc}.
 *
 * <p>JMH drives it from one benchmark thread; not for other use.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 2, timeUnit = TimeUnit.SECONDS)
@Threads(1)
public class TimeSyncBenchmark {
    private static final long STEP_SIZE_NS = 1_000_000;
    /** spins before the waiting benchmark thread starts to yield */
    private static final int SPIN_LIMIT = 100;
    private static final long START_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);
    private static final AtomicInteger REGISTRIES = new AtomicInteger();

    /** Number of time-synchronized participants. */
    @Param({"2", "4", "8"})
    public int participants;

    private Registry registry;
    private Participant controller;
    private Participant[] members;
    private LifecycleService[] lifecycles;
    private final List<CompletableFuture<ParticipantState>> finished = new ArrayList<>();
    private TimeSyncService driver;
    /** steps the driver has started; written only by the driver's thread */
    private volatile long started;
    /** steps the benchmark thread has seen start (benchmark thread) */
    private long seen;

    /** Used by JMH. */
    public TimeSyncBenchmark() {
    }

    /**
     * Connects the participants, starts their lifecycles and waits for the driver's first step.
     *
     * @throws IllegalStateException if the first step does not start within 60 s
     */
    @Setup
    public void setUp() {
        registry = Registry.start("tandem+inproc://jmh-timesync-" + REGISTRIES.incrementAndGet());
        // connect everyone before any service exists (see TimeSyncScenario)
        controller = Participant.connect(registry.uri(), "bench", "controller");
        List<String> names = new ArrayList<>();
        members = new Participant[participants];
        for (int i = 0; i < participants; i++) {
            names.add("p" + i);
            members[i] = Participant.connect(registry.uri(), "bench", names.get(i));
        }
        controller.createSystemController().setWorkflowConfiguration(names);
        lifecycles = new LifecycleService[participants];
        for (int i = 0; i < participants; i++) {
            lifecycles[i] = members[i].createLifecycleService(OperationMode.COORDINATED);
            TimeSyncService ts = lifecycles[i].createTimeSyncService();
            if (i == 0) {
                ts.setSimulationStepHandlerAsync(this::onDriverStep, STEP_SIZE_NS);
                driver = ts;
            } else {
                ts.setSimulationStepHandler(TimeSyncBenchmark::onStep, STEP_SIZE_NS);
            }
        }
        for (LifecycleService lc : lifecycles) {
            finished.add(lc.startLifecycle());
        }
        long deadline = System.nanoTime() + START_TIMEOUT_NS;
        while (started < 1) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the first step did not start within 60 s; driver state "
                        + lifecycles[0].state());
            }
            Thread.yield();
        }
        seen = started;
    }

    /**
     * One lockstep step of the whole system.
     *
     * @return the number of steps started so far (consumed by JMH)
     */
    @Benchmark
    public long lockstepStep() {
        long target = seen + 1;
        driver.completeSimulationStep();
        int spins = 0;
        while (started < target) {
            if (lifecycles[0].state() != ParticipantState.RUNNING) {
                throw new IllegalStateException("driver left RUNNING: " + lifecycles[0].state());
            }
            // spin briefly, then yield: a pure spin starves participants that share its core
            if (++spins < SPIN_LIMIT) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
        seen = target;
        return target;
    }

    /**
     * Stops the simulation, waits for every participant to shut down, and closes everything.
     *
     * @throws Exception if a participant does not shut down within 30 s
     */
    @TearDown
    public void tearDown() throws Exception {
        try {
            lifecycles[0].stop("benchmark done");
            driver.completeSimulationStep();
            CompletableFuture.allOf(finished.toArray(new CompletableFuture<?>[0])).get(30, TimeUnit.SECONDS);
        } finally {
            for (Participant p : members) {
                p.close();
            }
            controller.close();
            registry.close();
            finished.clear();
        }
    }

    private void onDriverStep(long nowNs, long durationNs) {
        started = started + 1;
    }

    private static void onStep(long nowNs, long durationNs) {
        // no work: the benchmark measures synchronization only
    }
}
