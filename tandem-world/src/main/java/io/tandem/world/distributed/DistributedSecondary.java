package io.tandem.world.distributed;

import io.tandem.cosim.Participant;
import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.PubSubSpec;
import io.tandem.physics.SolverSettings;
import io.tandem.world.LevelManager;
import io.tandem.world.ModelState;
import io.tandem.world.World;
import io.tandem.world.WorldRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Implementation notes.
 *
 * Gazebo's secondary (shared/specs/gazebo.md 1.5), with what it lacked. It says hello (name,
 * world, digest) and then serves steps until the primary says stop. Its world runner is built at
 * the first step, from the first assignment: it owns the performers given to it, loads their
 * models and the levels they touch (its own level manager), and the default level (the default
 * level's dynamic models only on the first secondary in name order, so no model is simulated
 * twice). Each later step: (1) the affinity changes (release: the performer's model and the levels
 * it alone kept go at the level update; adopt: its model and levels come back with the handed-over
 * state instead of the file's); (2) the runner's iteration, which must be the step's; (3) the ack:
 * every dynamic model it simulates (13 values per link; for the primary's scene and recording),
 * or only its performers' models when the step says so, and, for each performer the step asked it
 * to release, the full state of its model and of the dynamic models of its levels, contact warm
 * starts included.
 *
 * Paused steps are acked without stepping. The primary lost (kill -9, a crash, the network), a
 * refusal, a step that does not name this secondary (it joined late) or a failure stop ends the
 * run with a DistributedRunException naming the peer and the iteration.
 */

/**
 * A secondary of a distributed world (Gazebo's {@code --network-role secondary}): simulates the
 * performers the primary assigns to it. {@link #run} blocks the calling thread until the run
 * ends; the steps run on the participant's thread, in its data handler (as Gazebo's OnStep runs
 * on a transport callback), which saves a thread hand-off per step. Allocates per step (messages).
 */
public final class DistributedSecondary implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DistributedSecondary.class);

    private record Frame(byte[] data) {
    }

    private record Lost(String name) {
    }

    /** How the run ended for a secondary that was told to stop cleanly. */
    public record Result(long iterations, String reason, long handoversIn, long handoversOut) {
    }

    private final World world;
    private final Participant participant;
    private final SolverSettings solver;
    private final LongSupplier clock;
    private final String name;
    private final CompletableFuture<Result> done = new CompletableFuture<>();
    private volatile boolean started;
    /** when the last message from the primary arrived (clock), for the silence timeout */
    private volatile long lastHeardNs;
    private final DataPublisher ackPublisher;
    private final DataPublisher helloPublisher;
    private WorldRunner runner;
    private boolean pausedLogged;
    private long handoversIn;
    private long handoversOut;
    private long lastStepNs;

    /**
     * @param world       the world (the primary's)
     * @param participant this process's participant (its name is the secondary's); the caller
     *                    closes it after {@link #run}
     * @param solver      the physics solver
     * @param clock       a monotonic clock, ns
     * @throws IllegalArgumentException for a world that cannot run distributed ({@link DistributedPrimary#unsupported})
     */
    public DistributedSecondary(World world, Participant participant, SolverSettings solver, LongSupplier clock) {
        String unsupported = DistributedPrimary.unsupported(world);
        if (unsupported != null) {
            throw new IllegalArgumentException(unsupported);
        }
        this.world = world;
        this.participant = participant;
        this.solver = solver;
        this.clock = clock;
        this.name = participant.name();
        participant.addParticipantDisconnectedHandler(n -> onEvent(new Lost(n)));
        participant.createDataSubscriber("step", PubSubSpec.of(DistributedPrimary.topic(world, "step"), ""),
                e -> onEvent(new Frame(e.data())));
        ackPublisher = participant.createDataPublisher("step_ack", PubSubSpec.of(DistributedPrimary.topic(world, "step_ack"), ""), 1);
        helloPublisher = participant.createDataPublisher("announce", PubSubSpec.of(DistributedPrimary.topic(world, "announce"), ""), 1);
    }

    /**
     * Says hello and serves steps until the primary stops the run.
     *
     * @param startTimeoutNs how long to wait for the primary's first step, ns
     * @return how the run ended
     * @throws DistributedRunException on a failure: the primary lost, a refusal, a failure stop
     */
    public Result run(long startTimeoutNs) {
        return run(startTimeoutNs, Long.MAX_VALUE);
    }

    /**
     * {@link #run(long)} that also ends when nothing has come from the primary for
     * {@code silenceTimeoutNs} once the run started (its steps come all the time, paused ones
     * included): so a secondary that was stopped (SIGSTOP) or cut off long enough to be dropped by
     * the others does not wait forever when it resumes.
     *
     * @param startTimeoutNs   how long to wait for the primary's first step, ns
     * @param silenceTimeoutNs the longest the primary may be silent after its first step, ns
     * @return how the run ended
     * @throws DistributedRunException on a failure: the primary lost or silent, a refusal, a failure stop
     */
    public Result run(long startTimeoutNs, long silenceTimeoutNs) {
        helloPublisher.publish(DistributedMessages.encode(new DistributedMessages.Hello(name, world.name(), WorldDigest.of(world))));
        LOG.info("Secondary [{}] waiting for the primary of world '{}'", name, world.name());
        try {
            long begin = clock.getAsLong();
            long check = Math.max(1_000_000L, Math.min(silenceTimeoutNs / 4, 250_000_000L));
            while (true) {
                try {
                    return done.get(check, TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    long now = clock.getAsLong();
                    if (!started && now - begin > startTimeoutNs) {
                        done.completeExceptionally(new DistributedRunException(DistributedPrimary.NAME, 0, "secondary '" + name
                                + "': no primary started world '" + world.name() + "' within " + startTimeoutNs / 1_000_000_000.0
                                + " s: start 'tandem sim " + world.source() + " --network-role primary' on the same registry"
                                + " and partition"));
                    } else if (started && now - lastHeardNs > silenceTimeoutNs) {
                        done.completeExceptionally(new DistributedRunException(DistributedPrimary.NAME, iteration(),
                                "secondary '" + name + "': nothing from the primary for " + (now - lastHeardNs) / 1_000_000
                                        + " ms since iteration " + iteration() + " (the limit, --ack-timeout-ms, is "
                                        + silenceTimeoutNs / 1_000_000 + " ms): this process was stopped or cut off and the"
                                        + " run went on or ended without it; stopping"));
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DistributedRunException("", iteration(), "secondary '" + name + "' interrupted");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Every event, on the participant's thread: steps are served right here (no thread hand-off). */
    private void onEvent(Object ev) {
        if (done.isDone()) {
            return;
        }
        if (ev instanceof Frame) {
            lastHeardNs = clock.getAsLong();
        }
        try {
            handle(ev);
        } catch (RuntimeException e) {
            done.completeExceptionally(e);
        }
    }

    private void handle(Object ev) {
        if (ev instanceof Lost lost) {
            if (lost.name().equals(DistributedPrimary.NAME)) {
                throw new DistributedRunException(DistributedPrimary.NAME, iteration(), "secondary '" + name
                        + "' lost the primary at iteration " + iteration() + " (its process ended or stopped"
                        + " answering); stopping");
            }
            return;
        }
        DistributedMessages.Message m;
        try {
            m = DistributedMessages.decode(((Frame) ev).data());
        } catch (IllegalArgumentException e) {
            throw new DistributedRunException(DistributedPrimary.NAME, iteration(), "secondary '" + name
                    + "' got a malformed message from the primary: " + e.getMessage());
        }
        if (m instanceof DistributedMessages.Stop stop) {
            if (stop.failed()) {
                throw new DistributedRunException(DistributedPrimary.NAME, stop.iteration(), "the primary stopped the run"
                        + " at iteration " + stop.iteration() + ": " + stop.reason());
            }
            LOG.info("Secondary [{}] stopped by the primary at iteration {}: {}", name, stop.iteration(), stop.reason());
            done.complete(new Result(iteration(), stop.reason(), handoversIn, handoversOut));
            return;
        }
        if (m instanceof DistributedMessages.Refuse r && r.secondary().equals(name)) {
            throw new DistributedRunException(DistributedPrimary.NAME, iteration(), "the primary refused secondary '"
                    + name + "': " + r.reason());
        }
        if (m instanceof DistributedMessages.Step st) {
            if (!st.secondaries().contains(name)) {
                throw new DistributedRunException(DistributedPrimary.NAME, st.iteration(), "secondary '" + name
                        + "' is not part of the run of world '" + world.name() + "', which started with secondaries "
                        + st.secondaries() + " and is at iteration " + st.iteration() + "; a run's secondaries are fixed"
                        + " at its start: restart it with --network-secondaries " + (st.secondaries().size() + 1));
            }
            started = true;
            step(st);
        }
    }

    private long iteration() {
        return runner == null ? 0 : runner.iteration();
    }

    private void step(DistributedMessages.Step s) {
        if (s.paused()) {
            if (!pausedLogged) {
                LOG.info("Paused at iteration {}", s.iteration());
                pausedLogged = true;
            }
            ackPublisher.publish(DistributedMessages.encode(new DistributedMessages.Ack(name, s.iteration(), 0, new int[0],
                    new double[0], List.of())));
            return;
        }
        pausedLogged = false;
        if (runner == null) {
            List<String> mine = new ArrayList<>();
            for (Affinities.Change c : s.affinity()) {
                if (c.to().equals(name)) {
                    mine.add(c.performer());
                }
            }
            LOG.info("Secondary [{}] runs performers {}", name, mine);
            runner = new WorldRunner(world, solver, new LevelManager(world, true, mine,
                    name.equals(s.secondaries().get(0))));
            registerRuntimePerformers(s);
        } else {
            registerRuntimePerformers(s);
            for (Affinities.Change c : s.affinity()) {
                if (c.to().equals(name) && !runner.levels().owns(c.performer())) {
                    List<String> inLevels = List.of();
                    for (DistributedMessages.Handover h : s.handovers()) {
                        if (h.performer().equals(c.performer())) {
                            inLevels = h.levels();
                            for (ModelState st : h.models()) {
                                runner.importState(st);
                            }
                        }
                    }
                    runner.levels().adopt(c.performer(), inLevels);
                    handoversIn++;
                    LOG.info("Secondary [{}] takes performer [{}] from [{}] at iteration {}", name, c.performer(), c.from(),
                            s.iteration());
                } else if (!c.to().equals(name) && runner.levels().owns(c.performer())) {
                    runner.levels().release(c.performer());
                    handoversOut++;
                    LOG.info("Secondary [{}] hands performer [{}] to [{}] at iteration {}", name, c.performer(), c.to(),
                            s.iteration());
                }
            }
        }
        if (runner.iteration() + 1 != s.iteration()) {
            throw new DistributedRunException(DistributedPrimary.NAME, runner.iteration(), "secondary '" + name + "' is at"
                    + " iteration " + runner.iteration() + " but the primary sent step " + s.iteration()
                    + ": the protocol is out of step; stopping");
        }
        applyRobotCommands(s);
        // a long step: this process expects no message while it runs (its transport stops polling)
        participant.expectQuietFor(DistributedPrimary.quietNs(lastStepNs));
        long t0 = clock.getAsLong();
        runner.step();
        long stepNs = clock.getAsLong() - t0;
        lastStepNs = stepNs;
        participant.expectQuietFor(0);
        // the ack: the dynamic models simulated here (or only the performers' models, as the step
        // asks), and the full state of released performers
        WorldRunner.StateBlock states = s.allStates() ? runner.exportDynamicStates(m -> true)
                : runner.exportDynamicStates(runner.levels().performerModelsOwned()::contains);
        List<DistributedMessages.Handover> released = new ArrayList<>();
        for (String p : s.release()) {
            if (runner.levels().owns(p)) {
                released.add(handover(p));
            }
        }
        ackPublisher.publish(DistributedMessages.encode(new DistributedMessages.Ack(name, s.iteration(), stepNs, states.models(), states.values(), released)));
    }

    /**
     * The step's robot commands (tandem world-control twist, joint-target) for the models this
     * secondary simulates now, before it steps; the others simulate the rest.
     */
    private void applyRobotCommands(DistributedMessages.Step s) {
        for (DistributedMessages.Control c : s.robotCommands()) {
            try {
                if (c.command() == DistributedMessages.Command.TWIST) {
                    if (runner.levels().isLoaded(c.model()) && !runner.world().model(c.model()).orElseThrow().isStatic()) {
                        runner.setTwist(c.model(), c.a(), c.b());
                        LOG.info("Secondary [{}] drives [{}] at {} m/s, {} rad/s from iteration {}", name, c.model(), c.a(), c.b(),
                                s.iteration());
                    }
                } else if (c.command() == DistributedMessages.Command.JOINT_TARGET) {
                    String model = c.model().substring(0, c.model().indexOf("::"));
                    if (runner.levels().isLoaded(model)) {
                        runner.setJointTarget(runner.jointHandle(c.model()), c.a(), c.b());
                        LOG.info("Secondary [{}] sets [{}] to {} from iteration {}", name, c.model(), c.a(), s.iteration());
                    }
                }
            } catch (IllegalArgumentException | IllegalStateException e) {
                LOG.warn("Secondary [{}] cannot apply {} {}: {}", name, c.command().name().toLowerCase(java.util.Locale.ROOT),
                        c.model(), e.getMessage());
            }
        }
    }

    /** Every secondary registers the step's new runtime performers; the one they are assigned to evaluates them. */
    private void registerRuntimePerformers(DistributedMessages.Step s) {
        for (String model : s.runtimePerformers()) {
            String performer = LevelManager.runtimePerformerName(model);
            boolean mine = false;
            for (Affinities.Change c : s.affinity()) {
                mine |= c.performer().equals(performer) && c.to().equals(name);
            }
            runner.levels().addRuntimePerformer(model, mine);
            if (mine) {
                LOG.info("Secondary [{}] runs runtime performer [{}] from iteration {}", name, performer, s.iteration());
            }
        }
    }

    /** A released performer's model and the dynamic models of its levels, with contact warm starts. */
    private DistributedMessages.Handover handover(String performer) {
        List<String> inLevels = runner.levels().performerLevels().getOrDefault(performer, List.of());
        List<String> models = new ArrayList<>();
        models.add(runner.levels().performerModels().get(performer));
        for (World.Level l : world.levels()) {
            if (inLevels.contains(l.name())) {
                for (String ref : l.refs()) {
                    if (!models.contains(ref) && runner.levels().isLoaded(ref) && !runner.levels().isDefault(ref)) {
                        models.add(ref);
                    }
                }
            }
        }
        List<ModelState> states = new ArrayList<>();
        for (String model : models) {
            World.Model m = world.model(model).orElse(null);
            if (m != null && !m.isStatic()) {
                ModelState st = runner.exportState(model);
                if (st != null) {
                    states.add(st);
                }
            }
        }
        return new DistributedMessages.Handover(performer, inLevels, states);
    }

    /** @return the runner (null before the first step), for tests */
    WorldRunner runner() {
        return runner;
    }

    @Override
    public void close() {
        if (runner != null) {
            runner.close();
        }
    }
}
