package io.tandem.world.distributed;

import io.tandem.cosim.Participant;
import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.PubSubSpec;
import io.tandem.world.LevelManager;
import io.tandem.world.Pose;
import io.tandem.world.World;
import io.tandem.world.WorldView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/*
 * Implementation notes.
 *
 * Gazebo's primary (shared/specs/gazebo.md 1.3-1.8) over Tandem pub/sub, with its gaps closed.
 *
 * Discovery: secondaries publish a hello (name, world, world digest) on the announce topic with
 * history 1; the primary counts distinct hellos of the same world until it has the expected
 * number (Gazebo's exact-count readiness). A hello of another world is refused at once; a hello
 * after the start is refused with the run's secondaries named (Gazebo counted a late joiner's ack
 * as a real one). Membership (join, leave, kill -9) comes from the participant's connect and
 * disconnect handlers, which over tandem:// see a crashed process within a second.
 *
 * One iteration k, in the standalone runner's order so that a distributed run records what a
 * standalone one does: (1) the level manager on the poses after k - 1 (the secondaries' acks);
 * (2) affinities: the first step assigns (Gazebo's rule); later changes take effect one step
 * after they are decided: step k names the performers to release, their owner reports their
 * full state (contact warm starts too) in its ack of k, and step k + 1 carries the changes and
 * those states, so old and new owner never wait for each other; (3) publish step k; (4) wait for
 * an ack of iteration k from every secondary, matched by name and iteration, within the ack
 * timeout; (5) apply the states in secondary order (a model two secondaries report: the first
 * wins); (6) listeners. The primary runs no physics.
 *
 * Commands (pause, resume, step N) come as control messages on a topic or as calls of the
 * control function (answered "accepted: ..." once taken); a pause takes effect after the iteration
 * in flight.
 *
 * Pause: the primary sends one step with paused set (the iteration does not advance) and waits
 * for its acks, so every secondary knows; then it sends nothing until resumed or asked to step.
 * Failures end the run for everyone: the primary publishes stop with the reason (the lost peer
 * and the iteration), waits briefly for the secondaries to leave, and throws.
 *
 * Threads: one monitor (this object) guards all state. The participant's handlers (acks, hellos,
 * commands, losses) take it and act at once; the caller's thread takes it to step and waits on it
 * (Object.wait releases it) for acks. In a free run (runUntil) the handler that receives the last
 * ack of an iteration completes it and publishes the next step itself, so no thread hand-off lies
 * on the lockstep path; the caller's thread only watches the ack timeout and takes back control at
 * the end of a slice, at a pause or on a failure. A failure found by a handler is recorded, the stop
 * published, and thrown on the caller's thread. Listeners run on whichever thread completes the
 * iteration, always under the monitor.
 */

/**
 * The primary of a distributed world (Gazebo's {@code --network-role primary}): discovers its
 * secondaries, assigns performers to them, steps them in lockstep and shows their state as a
 * {@link WorldView}. Driven by one thread ({@link #awaitSecondaries}, {@link #advance},
 * {@link #runUntil}, {@link #finish}); every method is safe from any thread (one monitor).
 * Allocates per iteration (messages, the scene's updates).
 */
public final class DistributedPrimary implements WorldView {
    private static final Logger LOG = LoggerFactory.getLogger(DistributedPrimary.class);
    /** the primary's participant name */
    public static final String NAME = "primary";
    private static final long LEAVE_WAIT_NS = 1_500_000_000L;
    /**
     * Steps at least this long are waited for quietly: for three quarters of the shorter of the
     * last two slowest steps the primary's participant neither polls nor spins (see
     * {@link Participant#expectQuietFor}), leaving both CPUs of a 2-core host to the secondaries;
     * shorter steps are waited for by spinning, for latency.
     */
    static final long QUIET_MIN_NS = 1_000_000;

    private final World world;
    private final Participant participant;
    private final int expected;
    private final long ackTimeoutNs;
    private final LongSupplier clock;
    private final String digest;
    private final LevelManager levels;
    private final DistributedScene scene;
    private final DataPublisher stepPublisher;
    private final DataPublisher scenePublisher;
    /** publish the scene every this many iterations; 0: never */
    private long sceneEvery;
    private final List<WorldView.Listener> listeners = new ArrayList<>();
    private static final String SAME_WORLD = ": every process must load the same world (models, levels, performers, step size)";
    /** a secondary refused before the start for loading another world: awaitSecondaries throws it */
    private DistributedRunException refusedWorld;
    private final Set<String> joined = new LinkedHashSet<>();
    private List<String> secondaries = List.of();
    private Affinities affinities;
    private List<Affinities.Change> pending = List.of();
    private Map<String, DistributedMessages.Handover> released = new LinkedHashMap<>();
    /** models to make performers at the next iteration (setPerformer) */
    private final List<String> requestedPerformers = new ArrayList<>();
    /** robot commands (twists, joint targets) for the next step's secondaries */
    private final List<DistributedMessages.Control> robotCommands = new ArrayList<>();
    private LevelManager.Changes initialChanges;
    private boolean paused;
    private boolean pauseAnnounced;
    private long stepsWhilePaused;
    private long iteration;
    private long simTimeNs;
    private long handovers;
    /** per world model: its state was taken from an ack this iteration (the first secondary wins) */
    private final boolean[] taken;
    /** lockstep overhead: sum over iterations of (round trip - slowest secondary's step), ns */
    private long overheadNs;
    private long overheadSamples;
    private long slowestStepNs;
    /** the slowest secondary's step in the last two iterations, ns (the quiet hint) */
    private long lastSlowestNs;
    private long previousSlowestNs;
    /** the iteration whose acks are awaited (-1: none), whether it is a pause announcement, and the acks */
    private long awaiting = -1;
    private boolean awaitingPause;
    private long sentAtNs;
    private final Map<String, DistributedMessages.Ack> acks = new LinkedHashMap<>();
    /** the level changes of the iteration in flight */
    private LevelManager.Changes inFlightChanges;
    /** a failure found by a handler, thrown on the caller's thread */
    private RuntimeException failure;
    /** finish was called: secondaries leaving is the expected end */
    private boolean finished;
    /** a free run: handlers step on until autoUntil or autoDeadlineNs */
    private boolean auto;
    private boolean allStates = true;
    private long autoUntil;
    private long autoDeadlineNs;

    /**
     * @param world        the world (the secondaries load the same one)
     * @param participant  this process's participant, named {@link #NAME}; the caller closes it
     *                     after {@link #finish}
     * @param secondaries  how many secondaries to wait for (Gazebo's --network-secondaries), at least 1
     * @param ackTimeoutNs how long to wait for a step_ack before stopping the run, ns
     * @param clock        a monotonic clock, ns (System::nanoTime; tests may pass their own)
     * @throws IllegalArgumentException for a bad count or timeout, or a world that cannot run
     *                                  distributed ({@link #unsupported})
     */
    public DistributedPrimary(World world, Participant participant, int secondaries, long ackTimeoutNs, LongSupplier clock) {
        String unsupported = unsupported(world);
        if (unsupported != null) {
            throw new IllegalArgumentException(unsupported);
        }
        if (secondaries < 1) {
            throw new IllegalArgumentException("--network-secondaries must be at least 1, got " + secondaries);
        }
        if (ackTimeoutNs <= 0) {
            throw new IllegalArgumentException("the ack timeout must be positive, got " + ackTimeoutNs + " ns");
        }
        this.world = world;
        this.participant = participant;
        this.expected = secondaries;
        this.ackTimeoutNs = ackTimeoutNs;
        this.clock = clock;
        this.digest = WorldDigest.of(world);
        this.levels = new LevelManager(world, true);
        this.scene = new DistributedScene(world);
        this.taken = new boolean[world.models().size()];
        participant.addParticipantDisconnectedHandler(this::onLost);
        stepPublisher = participant.createDataPublisher("step", PubSubSpec.of(topic(world, "step"), ""), 1);
        scenePublisher = participant.createDataPublisher("scene", PubSubSpec.of(ScenePoses.topic(world.name()), ""), 1);
        participant.createDataSubscriber("step_ack", PubSubSpec.of(topic(world, "step_ack"), ""), e -> onFrame(e.data()));
        participant.createDataSubscriber("announce", PubSubSpec.of(topic(world, "announce"), ""), e -> onFrame(e.data()));
        participant.createDataSubscriber("control", PubSubSpec.of(topic(world, "control"), ""), e -> onFrame(e.data()));
        // the same commands as a call, answered once queued (tandem world-control)
        io.tandem.cosim.rpc.RpcServer[] server = new io.tandem.cosim.rpc.RpcServer[1];
        server[0] = participant.createRpcServer("control", io.tandem.cosim.rpc.RpcSpec.of(topic(world, "control"), ""), call -> {
            String reply;
            try {
                DistributedMessages.Message m = DistributedMessages.decode(call.argumentData());
                String refused = m instanceof DistributedMessages.Control c ? refusal(c) : null;
                if (refused != null) {
                    reply = "error: " + refused;
                } else if (m instanceof DistributedMessages.Control c) {
                    onFrame(call.argumentData());
                    reply = "accepted: " + c.command().name().toLowerCase(java.util.Locale.ROOT)
                            + (c.command() == DistributedMessages.Command.STEP ? " " + c.count() : "")
                            + (c.command() == DistributedMessages.Command.SET_PERFORMER ? " " + c.model() : "")
                            + (c.command() == DistributedMessages.Command.TWIST || c.command() == DistributedMessages.Command.JOINT_TARGET
                            ? " " + c.model() + " " + c.a() + " " + c.b() : "");
                } else {
                    reply = "error: not a control command";
                }
            } catch (IllegalArgumentException e) {
                reply = "error: " + e.getMessage();
            }
            server[0].submitResult(call, reply.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        });
        initialChanges = levels.update(0, scene::position);
    }

    /** Why a command cannot be carried out in this world (a model or joint it lacks), or null. */
    private String refusal(DistributedMessages.Control c) {
        switch (c.command()) {
            case SET_PERFORMER -> {
                return world.model(c.model()).isEmpty() ? "set_performer: world '" + world.name() + "' has no model named '"
                        + c.model() + "'; its models are " + modelNames() : null;
            }
            case TWIST -> {
                World.Model m = world.model(c.model()).orElse(null);
                if (m == null) {
                    return "twist: world '" + world.name() + "' has no model named '" + c.model() + "'; its models are " + modelNames();
                }
                boolean drives = m.coordinates() == World.Coordinates.PLANAR
                        || m.controllers().stream().anyMatch(x -> x instanceof World.DiffDrive);
                return drives ? null : "twist: model '" + c.model() + "' has no DiffDrive plugin and is not a planar base";
            }
            case JOINT_TARGET -> {
                int cut = c.model().indexOf("::");
                World.Model m = cut < 0 ? null : world.model(c.model().substring(0, cut)).orElse(null);
                String joint = cut < 0 ? "" : c.model().substring(cut + 2);
                if (m == null || m.joints().stream().noneMatch(j -> j.name().equals(joint))) {
                    return "joint-target: world '" + world.name() + "' has no joint '" + c.model() + "' (joints are named"
                            + " model::joint)";
                }
                return null;
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * Says why a world cannot run distributed, before anything starts: its cables and deformable
     * bodies ({@code <tandem:cable>}, {@code <tandem:deformable>}) are not distributed yet.
     *
     * @param world a loaded world
     * @return one line naming the first such body's file:line and what to do, or null when the
     *         world can run distributed
     */
    public static String unsupported(World world) {
        int count = world.cables().size() + world.deformables().size();
        if (count == 0) {
            return null;
        }
        String first;
        int line;
        if (world.cables().isEmpty()) {
            first = "deformable body '" + world.deformables().get(0).name() + "'";
            line = world.deformables().get(0).line();
        } else {
            first = "cable '" + world.cables().get(0).name() + "'";
            line = world.cables().get(0).line();
        }
        return world.source() + ":" + line + ": world '" + world.name() + "' has " + first
                + (count > 1 ? " and " + (count - 1) + " more cables or deformable bodies" : "")
                + ": cables and deformable bodies do not run distributed yet; run the world standalone (without"
                + " --network-role)";
    }

    static String topic(World w, String what) {
        return topic(w.name(), what);
    }

    static String topic(String worldName, String what) {
        return "tandem/world/" + worldName + "/" + what;
    }

    /** @return the name of the control function of a world's primary (an {@link io.tandem.cosim.rpc.RpcSpec}'s) */
    public static String controlFunction(String worldName) {
        return topic(worldName, "control");
    }

    /**
     * Encodes a command for the control function.
     *
     * @param command  pause, resume, step, set-performer, twist or joint-target (case-insensitive;
     *                 also with underscores)
     * @param argument step: how many iterations (at least 1; null for 1); set-performer: the
     *                 model's name; twist: "MODEL FORWARD YAW_RATE"; joint-target:
     *                 "MODEL::JOINT POSITION [VELOCITY]"; ignored otherwise
     * @return the call's argument
     * @throws IllegalArgumentException for another command or a bad argument, naming the fix
     */
    public static byte[] encodeControl(String command, String argument) {
        DistributedMessages.Command c;
        try {
            c = DistributedMessages.Command.valueOf(command.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown command '" + command + "': use pause, resume, step N, set-performer"
                    + " MODEL, twist MODEL FORWARD YAW_RATE or joint-target MODEL::JOINT POSITION [VELOCITY]", e);
        }
        if (c == DistributedMessages.Command.TWIST || c == DistributedMessages.Command.JOINT_TARGET) {
            String usage = c == DistributedMessages.Command.TWIST ? "twist MODEL FORWARD_M_PER_S YAW_RATE_RAD_PER_S"
                    : "joint-target MODEL::JOINT POSITION [VELOCITY]";
            String[] w = argument == null ? new String[0] : argument.trim().split("\\s+");
            int need = c == DistributedMessages.Command.TWIST ? 3 : 2;
            if (w.length < need || w.length > 3 || w[0].isEmpty()) {
                throw new IllegalArgumentException("usage: " + usage);
            }
            double[] v = new double[2];
            for (int i = 1; i < w.length; i++) {
                try {
                    v[i - 1] = Double.parseDouble(w[i]);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + w[i] + "' is not a number; usage: " + usage, e);
                }
                if (!Double.isFinite(v[i - 1])) {
                    throw new IllegalArgumentException("'" + w[i] + "' is not finite; usage: " + usage);
                }
            }
            return DistributedMessages.encode(new DistributedMessages.Control(c, 0, w[0], v[0], v[1]));
        }
        if (c == DistributedMessages.Command.STEP) {
            long count;
            try {
                count = argument == null ? 1 : Long.parseLong(argument.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("step needs a whole number of iterations, got '" + argument + "'", e);
            }
            if (count < 1) {
                throw new IllegalArgumentException("step needs a count of at least 1, got " + count);
            }
            return DistributedMessages.encode(new DistributedMessages.Control(c, count));
        }
        if (c == DistributedMessages.Command.SET_PERFORMER) {
            if (argument == null || argument.isBlank()) {
                throw new IllegalArgumentException("set-performer needs the model's name: set-performer MODEL");
            }
            return DistributedMessages.encode(new DistributedMessages.Control(c, 0, argument.trim()));
        }
        return DistributedMessages.encode(new DistributedMessages.Control(c, 0));
    }

    /** @param l called after every iteration, in the order added (iteration 0 before the first) */
    public void addListener(WorldView.Listener l) {
        listeners.add(l);
    }

    /**
     * Waits until the expected number of secondaries said hello.
     *
     * @param timeoutNs how long to wait, ns
     * @return the secondaries, in name order
     * @throws DistributedRunException when they do not all come in time
     */
    public synchronized List<String> awaitSecondaries(long timeoutNs) {
        return awaitSecondaries(timeoutNs, () -> null);
    }

    /**
     * {@link #awaitSecondaries(long)} that also ends the wait at once when {@code abort} gives a
     * reason (polled about every 100 ms): a local secondary's process that exited, a Ctrl-C, the
     * registry lost. A secondary refused for loading another world ends it at once too.
     *
     * @param timeoutNs how long to wait, ns
     * @param abort     why to stop waiting, or null to go on
     * @return the secondaries' names, sorted
     * @throws DistributedRunException when they did not all join in time, or abort gave a reason
     */
    public synchronized List<String> awaitSecondaries(long timeoutNs, java.util.function.Supplier<String> abort) {
        long deadline = clock.getAsLong() + timeoutNs;
        while (joined.size() < expected) {
            if (refusedWorld != null) {
                throw refusedWorld;
            }
            String why = abort.get();
            if (why != null) {
                throw new DistributedRunException("", 0, why + " (" + joined.size() + " of " + expected
                        + " secondaries had joined: " + joined + ")");
            }
            long left = deadline - clock.getAsLong();
            if (left <= 0) {
                throw new DistributedRunException("", 0, "only " + joined.size() + " of " + expected + " secondaries "
                        + joined + " joined world '" + world.name() + "' within " + timeoutNs / 1_000_000_000.0 + " s: start "
                        + expected + " with 'tandem sim " + world.source() + " --network-role secondary' on the same registry"
                        + " and partition" + (joined.isEmpty() ? "" : ", or give --network-secondaries " + joined.size()));
            }
            waitNs(Math.min(left, 100_000_000L));
        }
        List<String> sorted = new ArrayList<>(joined);
        sorted.sort(null);
        secondaries = List.copyOf(sorted);
        affinities = new Affinities(world, secondaries);
        LOG.info("Distributed world '{}': {} secondaries {}", world.name(), secondaries.size(), secondaries);
        return secondaries;
    }

    /**
     * Runs one iteration, or while paused announces the pause once and then waits a little for
     * commands.
     *
     * @return whether an iteration ran
     * @throws DistributedRunException when a secondary is lost or late: the run is over
     * @throws IllegalStateException   before {@link #awaitSecondaries}
     */
    public synchronized boolean advance() {
        if (affinities == null) {
            throw new IllegalStateException("call awaitSecondaries first");
        }
        throwIfFailed();
        if (paused && stepsWhilePaused == 0 && iteration > 0) {
            if (!pauseAnnounced) {
                awaiting = iteration;
                awaitingPause = true;
                acks.clear();
                sentAtNs = clock.getAsLong();
                publish(new DistributedMessages.Step(iteration, simTimeNs, world.stepSizeNs(), true, allStates, secondaries, List.of(),
                        List.of(), List.of(), List.of()));
                awaitAcks();
                awaiting = -1;
                awaitingPause = false;
                pauseAnnounced = true;
                LOG.info("Paused at iteration {}", iteration);
            } else {
                waitNs(10_000_000L);
                throwIfFailed();
            }
            return false;
        }
        if (paused && stepsWhilePaused > 0) {
            stepsWhilePaused--;
        }
        pauseAnnounced = false;
        begin();
        awaitAcks();
        complete();
        throwIfFailed();
        return true;
    }

    /**
     * Runs iterations freely (as fast as the secondaries go) until the given iteration, for at most
     * a slice of wall time, or until paused; the lockstep runs on the participant's thread meanwhile.
     *
     * @param untilIteration the iteration to stop at
     * @param sliceNs        the longest this call runs, ns (the caller prints progress between slices)
     * @return whether an iteration ran
     * @throws DistributedRunException when a secondary is lost or late: the run is over
     */
    public synchronized boolean runUntil(long untilIteration, long sliceNs) {
        if (affinities == null) {
            throw new IllegalStateException("call awaitSecondaries first");
        }
        throwIfFailed();
        if (paused || iteration == 0 || iteration >= untilIteration) {
            // a paused run, and the first iteration (its listeners report iteration 0), go step by step
            return iteration < untilIteration && advance();
        }
        long before = iteration;
        auto = true;
        autoUntil = untilIteration;
        autoDeadlineNs = clock.getAsLong() + sliceNs;
        begin();
        while (auto && failure == null) {
            long left = sentAtNs + ackTimeoutNs - clock.getAsLong();
            if (left <= 0) {
                ackTimeout();
                break;
            }
            waitNs(left);
        }
        auto = false;
        if (awaiting >= 0 && failure == null) {
            // the slice ended while an iteration was in flight (the timeout check woke us): finish it here
            awaitAcks();
            complete();
        }
        throwIfFailed();
        return iteration > before;
    }

    /** Prepares and publishes the next iteration's step (under the monitor). */
    private void begin() {
        if (initialChanges != null) {
            LevelManager.Changes c = initialChanges;
            initialChanges = null;
            if (sceneEvery > 0) {
                publishScene();
            }
            for (WorldView.Listener l : listeners) {
                l.stepped(this, 0, c);
            }
        }
        long it = iteration + 1;
        for (String model : requestedPerformers) {
            levels.setPerformer(model);
        }
        requestedPerformers.clear();
        LevelManager.Changes changes = levels.update(it, scene::position);
        // runtime performers created by this update: once the run is under way, each goes to the
        // secondary that simulates its model (nothing to hand over); at the first step the
        // first-step rule assigns them with the others (every model is at its file state then)
        List<String> runtimeModels = new ArrayList<>();
        List<Affinities.Change> created = new ArrayList<>();
        Map<String, String> performerModels = changes.newPerformers().isEmpty() ? Map.of() : levels.performerModels();
        for (String performer : changes.newPerformers()) {
            String model = performerModels.get(performer);
            runtimeModels.add(model);
            if (!affinities.assignment().isEmpty()) {
                created.add(affinities.assign(performer, simulatorOf(model)));
            }
        }
        List<Affinities.Change> decided = new ArrayList<>(created);
        decided.addAll(affinities.update(levels.performerLevels()));
        List<Affinities.Change> effective = new ArrayList<>();
        List<String> release = new ArrayList<>();
        List<DistributedMessages.Handover> carried = new ArrayList<>();
        for (Affinities.Change c : pending) {
            effective.add(c);
            DistributedMessages.Handover h = released.get(c.performer());
            if (h != null) {
                carried.add(h);
            }
            handovers++;
            LOG.info("Performer [{}] moves from secondary [{}] to [{}] at iteration {}", c.performer(), c.from(), c.to(), it);
        }
        List<Affinities.Change> next = new ArrayList<>();
        for (Affinities.Change c : decided) {
            if (c.from() == null) {
                effective.add(c);
                LOG.info("Performer [{}] assigned to secondary [{}]", c.performer(), c.to());
            } else {
                next.add(c);
                release.add(c.performer());
            }
        }
        pending = next;
        released = new LinkedHashMap<>();
        inFlightChanges = changes;
        awaiting = it;
        acks.clear();
        sentAtNs = clock.getAsLong();
        // a scene iteration: every dynamic model is reported, so every pose published is this iteration's
        publish(new DistributedMessages.Step(it, simTimeNs + world.stepSizeNs(), world.stepSizeNs(), false,
                allStates || sceneDue(it), secondaries, effective, release, carried, runtimeModels, List.copyOf(robotCommands)));
        robotCommands.clear();
        participant.expectQuietFor(quietNs(Math.min(lastSlowestNs, previousSlowestNs)));
    }

    /** @return how long to expect no message while steps of about stepNs run: 0 below {@link #QUIET_MIN_NS} */
    static long quietNs(long stepNs) {
        return stepNs < QUIET_MIN_NS ? 0 : stepNs - stepNs / 4;
    }

    /** Takes the acks of the iteration in flight into the scene and reports it (under the monitor). */
    private void complete() {
        long slowest = 0;
        java.util.Arrays.fill(taken, false);
        for (String name : secondaries) {
            DistributedMessages.Ack a = acks.get(name);
            slowest = Math.max(slowest, a.stepNs());
            try {
                scene.apply(a.models(), a.values(), taken, a.secondary());
            } catch (IllegalArgumentException e) {
                failLater(a.secondary(), e.getMessage());
                return;
            }
            for (DistributedMessages.Handover h : a.released()) {
                released.put(h.performer(), h);
            }
        }
        overheadNs += Math.max(0, clock.getAsLong() - sentAtNs - slowest);
        slowestStepNs += slowest;
        previousSlowestNs = lastSlowestNs;
        lastSlowestNs = slowest;
        overheadSamples++;
        iteration = awaiting;
        simTimeNs += world.stepSizeNs();
        awaiting = -1;
        acks.clear();
        if (sceneDue(iteration)) {
            publishScene();
        }
        for (WorldView.Listener l : listeners) {
            l.stepped(this, iteration, inFlightChanges);
        }
    }

    /** Waits (the monitor released) until every ack of the iteration in flight is in, or fails. */
    private void awaitAcks() {
        while (failure == null && acks.size() < secondaries.size()) {
            long left = sentAtNs + ackTimeoutNs - clock.getAsLong();
            if (left <= 0) {
                ackTimeout();
                break;
            }
            waitNs(left);
        }
        throwIfFailed();
    }

    private void ackTimeout() {
        List<String> missing = new ArrayList<>(secondaries);
        missing.removeAll(acks.keySet());
        failLater(missing.get(0), "no step_ack from secondary" + (missing.size() > 1 ? "s " : " ") + missing
                + " for iteration " + awaiting + " within " + ackTimeoutNs / 1_000_000.0 + " ms: it is hung or too slow"
                + " (raise --ack-timeout-ms if its steps are that long); stopping the run");
    }

    /** Object.wait for up to ns (the monitor is held); an interrupt fails the run. */
    private void waitNs(long ns) {
        try {
            long ms = ns / 1_000_000;
            wait(Math.max(0, ms), (int) Math.max(ms == 0 ? 1 : 0, ns % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failLater("", "interrupted at iteration " + iteration);
        }
    }

    /** A participant left (on the participant's thread). */
    private synchronized void onLost(String name) {
        if (finished) {
            // told to stop: the secondaries leave
        } else if (secondaries.contains(name)) {
            failLater(name, "secondary '" + name + "' was lost at iteration " + iteration
                    + " (its process ended or stopped answering); stopping the run");
        } else if (affinities == null && joined.remove(name)) {
            LOG.warn("Secondary [{}] left before the run started", name);
        }
        notifyAll();
    }

    /** A message (on the participant's thread). */
    private synchronized void onFrame(byte[] frame) {
        try {
            DistributedMessages.Message m;
            try {
                m = DistributedMessages.decode(frame);
            } catch (IllegalArgumentException e) {
                failLater("", "a malformed message reached the primary of world '" + world.name() + "': " + e.getMessage());
                return;
            }
            if (m instanceof DistributedMessages.Hello h) {
                hello(h);
            } else if (m instanceof DistributedMessages.Ack a) {
                ack(a);
            } else if (m instanceof DistributedMessages.Control c) {
                control(c);
            }
        } catch (RuntimeException e) {
            // a listener failed in a free run: the caller's thread throws it
            if (failure == null) {
                failure = e;
                auto = false;
                publish(new DistributedMessages.Stop(iteration, true, "the primary failed: " + e));
            }
        } finally {
            notifyAll();
        }
    }

    private void ack(DistributedMessages.Ack a) {
        if (!secondaries.contains(a.secondary())) {
            LOG.warn("Ignored a step_ack from [{}], which is not a secondary of this run", a.secondary());
            return;
        }
        if (a.iteration() != awaiting) {
            if (awaiting >= 0 && a.iteration() > awaiting) {
                failLater(a.secondary(), "secondary '" + a.secondary() + "' acked iteration " + a.iteration() + " while the"
                        + " primary waits for " + awaiting + ": the protocol is out of step; stopping the run");
            }
            return;
        }
        acks.put(a.secondary(), a);
        if (acks.size() == secondaries.size() && auto && !awaitingPause && failure == null) {
            // a free run: complete the iteration and publish the next step right here
            complete();
            if (failure == null && iteration < autoUntil && !paused && clock.getAsLong() < autoDeadlineNs) {
                begin();
            } else {
                auto = false;
            }
        }
    }

    private void hello(DistributedMessages.Hello h) {
        String refusal = null;
        if (!h.world().equals(world.name()) || !h.worldDigest().equals(digest)) {
            refusal = "secondary '" + h.secondary() + "' loaded world '" + h.world() + "' (digest " + h.worldDigest()
                    + ") but the primary runs '" + world.name() + "' (digest " + digest + ") from " + world.source()
                    + SAME_WORLD;
        } else if (affinities != null && !secondaries.contains(h.secondary())) {
            refusal = "secondary '" + h.secondary() + "' joined after the run started (iteration " + iteration
                    + ", secondaries " + secondaries + "); a run's secondaries are fixed at its start: restart it with"
                    + " --network-secondaries " + (secondaries.size() + 1);
        } else if (affinities == null && joined.size() >= expected && !joined.contains(h.secondary())) {
            refusal = "secondary '" + h.secondary() + "' is one more than the " + expected + " expected ("
                    + joined + "); give --network-secondaries " + (expected + 1) + " to use it";
        }
        if (refusal != null) {
            LOG.warn("Refused: {}", refusal);
            publish(new DistributedMessages.Refuse(h.secondary(), refusal));
            if (affinities == null && refusedWorld == null && refusal.endsWith(SAME_WORLD)) {
                // before the start, a secondary of another world means a run set up wrong: end it now
                refusedWorld = new DistributedRunException(h.secondary(), 0, refusal + "; the run does not start");
                notifyAll();
            }
            return;
        }
        if (affinities == null && joined.add(h.secondary())) {
            LOG.info("Secondary [{}] joined ({} of {})", h.secondary(), joined.size(), expected);
        }
    }

    private void control(DistributedMessages.Control c) {
        switch (c.command()) {
            case PAUSE -> paused = true;
            case RESUME -> {
                paused = false;
                stepsWhilePaused = 0;
                LOG.info("Resumed at iteration {}", iteration);
            }
            case STEP -> {
                if (paused) {
                    stepsWhilePaused += Math.max(0, c.count());
                }
            }
            case SET_PERFORMER -> {
                if (world.model(c.model()).isPresent()) {
                    requestedPerformers.add(c.model());
                } else {
                    LOG.error("set_performer: world '{}' has no model named '{}'", world.name(), c.model());
                }
            }
            case TWIST, JOINT_TARGET -> {
                String refused = refusal(c);
                if (refused == null) {
                    robotCommands.add(c);
                } else {
                    LOG.error("{}", refused);
                }
            }
        }
    }

    /**
     * Queues a command as {@code tandem world-control} sends it (safe from any thread): a twist or
     * joint target reaches the secondary simulating its model with the next step.
     *
     * @param command  as {@link #encodeControl}
     * @param argument as {@link #encodeControl}
     * @throws IllegalArgumentException for a bad command, or a model or joint the world lacks
     */
    public synchronized void command(String command, String argument) {
        DistributedMessages.Control c = (DistributedMessages.Control) DistributedMessages.decode(encodeControl(command, argument));
        String refused = refusal(c);
        if (refused != null) {
            throw new IllegalArgumentException(refused);
        }
        control(c);
        notifyAll();
    }

    /** Pauses the run after the current iteration (safe from any thread). */
    public synchronized void pause() {
        control(new DistributedMessages.Control(DistributedMessages.Command.PAUSE, 0));
        notifyAll();
    }

    /** Resumes a paused run (safe from any thread). */
    public synchronized void resume() {
        control(new DistributedMessages.Control(DistributedMessages.Command.RESUME, 0));
        notifyAll();
    }

    /** @param n iterations to run while paused (safe from any thread; ignored when not paused) */
    public synchronized void stepWhilePaused(long n) {
        control(new DistributedMessages.Control(DistributedMessages.Command.STEP, n));
        notifyAll();
    }

    /**
     * Chooses what the secondaries report each iteration: every dynamic model they simulate (the
     * default: the whole scene, for recording and listeners) or only their performers' models,
     * which is all the level manager needs (Gazebo's acks carry no more); then the poses of other
     * dynamic models in this view stay those of the world file. A secondary of a heavy world
     * reports thousands of models otherwise.
     *
     * @param all whether to report every dynamic model
     */
    public synchronized void reportAllStates(boolean all) {
        allStates = all;
    }

    /** @return whether the run is paused */
    public synchronized boolean isPaused() {
        return paused;
    }

    /**
     * Ends the run: tells every secondary to stop cleanly and waits (bounded) until they left.
     *
     * @param reason why, for the secondaries' logs
     */
    public synchronized void finish(String reason) {
        finished = true;
        publish(new DistributedMessages.Stop(iteration, false, reason));
        awaitLeave();
    }

    /** Records a failure and tells the secondaries (under the monitor; any thread). */
    private void failLater(String peer, String message) {
        if (failure != null) {
            return;
        }
        LOG.error("{}", message);
        failure = new DistributedRunException(peer, iteration, message);
        auto = false;
        publish(new DistributedMessages.Stop(iteration, true, message));
        notifyAll();
    }

    /** On the caller's thread: after a failure, waits for the secondaries to leave and throws it. */
    private void throwIfFailed() {
        if (failure != null) {
            awaitLeave();
            throw failure;
        }
    }

    /** Waits until the secondaries left (they do on stop), at most LEAVE_WAIT_NS. */
    private void awaitLeave() {
        long deadline = clock.getAsLong() + LEAVE_WAIT_NS;
        while (clock.getAsLong() < deadline) {
            boolean any = false;
            for (String s : secondaries) {
                any |= participant.isParticipantConnected(s);
            }
            if (!any) {
                return;
            }
            try {
                wait(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * @return the secondary simulating a model now: the first secondary for the default level's
     *         models, else the secondary of the first performer (world order) in one of the
     *         model's levels
     */
    private String simulatorOf(String model) {
        if (!levels.isDefault(model)) {
            Map<String, List<String>> performerLevels = levels.performerLevels();
            for (World.Level l : world.levels()) {
                if (!l.refs().contains(model)) {
                    continue;
                }
                for (Map.Entry<String, List<String>> p : performerLevels.entrySet()) {
                    String s = affinities.secondaryOf(p.getKey());
                    if (s != null && p.getValue().contains(l.name())) {
                        return s;
                    }
                }
            }
        }
        return secondaries.get(0);
    }

    /**
     * Makes a model a performer from the next iteration on (Gazebo's {@code level/set_performer},
     * a 2 x 2 x 2 m box named {@code perf_MODEL}): it is created by the first update in which the
     * model is loaded, and goes to the secondary that simulates the model; from then on it moves
     * like any performer. Thread-safe.
     *
     * @param model the model's name
     * @throws IllegalArgumentException for a name the world has no model of (names close ones)
     */
    public synchronized void setPerformer(String model) {
        if (model == null || world.model(model).isEmpty()) {
            throw new IllegalArgumentException("set_performer: world '" + world.name() + "' has no model named '" + model
                    + "'; its models are " + modelNames());
        }
        requestedPerformers.add(model);
    }

    /** @return the world's model names for a message: the first ten, and how many there are */
    private String modelNames() {
        List<String> names = world.models().stream().map(World.Model::name).toList();
        return names.size() <= 10 ? names.toString()
                : names.subList(0, 10).toString().replace("]", ", ...] (" + names.size() + " in all)");
    }

    private boolean sceneDue(long it) {
        return sceneEvery > 0 && it % sceneEvery == 0;
    }

    /** Publishes the loaded models' poses (under the monitor; allocates). */
    private void publishScene() {
        List<String> loaded = levels.loadedModels();
        List<String> models = new ArrayList<>(loaded.size());
        double[] poses = new double[ScenePoses.POSE_VALUES * loaded.size()];
        for (String m : loaded) {
            Pose p = scene.modelPose(m);
            if (p != null) {
                int o = ScenePoses.POSE_VALUES * models.size();
                poses[o] = p.x();
                poses[o + 1] = p.y();
                poses[o + 2] = p.z();
                poses[o + 3] = p.qw();
                poses[o + 4] = p.qx();
                poses[o + 5] = p.qy();
                poses[o + 6] = p.qz();
                models.add(m);
            }
        }
        scenePublisher.publish(new ScenePoses(world.name(), iteration, simTimeNs, models,
                java.util.Arrays.copyOf(poses, ScenePoses.POSE_VALUES * models.size()), levels.activeLevels()).encode());
    }

    /**
     * Publishes the scene ({@link ScenePoses}, on {@link ScenePoses#topic}) every {@code iterations}
     * iterations, and the initial scene if the run has not started; 0 (the default) turns it off.
     * In those iterations the secondaries report every dynamic model (as with
     * {@link #reportAllStates}), which costs a little lockstep time.
     *
     * @param iterations every how many iterations, {@code >= 0}
     * @throws IllegalArgumentException if negative
     */
    public synchronized void publishSceneEvery(long iterations) {
        if (iterations < 0) {
            throw new IllegalArgumentException("the scene period must be >= 0 iterations (0: off), got " + iterations);
        }
        sceneEvery = iterations;
    }

    private void publish(DistributedMessages.Message m) {
        stepPublisher.publish(DistributedMessages.encode(m));
    }

    /** @return the secondaries of the run, in name order (empty before the start) */
    public List<String> secondaries() {
        return secondaries;
    }

    /** @return how many performers changed secondary */
    public synchronized long handovers() {
        return handovers;
    }

    /**
     * @return the mean lockstep overhead per iteration since the start or {@link #resetOverhead},
     *         ns: the time from publishing a step to holding every ack, less the slowest
     *         secondary's own step (messages, encoding, scheduling); 0 before the first iteration
     */
    public synchronized double meanOverheadNs() {
        return overheadSamples == 0 ? 0 : overheadNs / (double) overheadSamples;
    }

    /**
     * @return the mean over iterations (since the start or {@link #resetOverhead}) of the slowest
     *         secondary's own step, ns
     */
    public synchronized double meanSlowestStepNs() {
        return overheadSamples == 0 ? 0 : slowestStepNs / (double) overheadSamples;
    }

    /** Restarts {@link #meanOverheadNs} and {@link #meanSlowestStepNs} (e.g. after the JIT warm-up). */
    public synchronized void resetOverhead() {
        slowestStepNs = 0;
        overheadNs = 0;
        overheadSamples = 0;
    }

    /** @return the current assignment, performer to secondary */
    public Map<String, String> assignment() {
        return affinities == null ? Map.of() : affinities.assignment();
    }

    @Override
    public World world() {
        return world;
    }

    @Override
    public synchronized long iteration() {
        return iteration;
    }

    @Override
    public synchronized long simTimeNs() {
        return simTimeNs;
    }

    @Override
    public List<String> loadedModels() {
        return levels.loadedModels();
    }

    @Override
    public Pose modelPose(String model) {
        return levels.isLoaded(model) ? scene.modelPose(model) : null;
    }

    @Override
    public Pose linkPose(String model, int link) {
        return levels.isLoaded(model) ? scene.linkPose(model, link) : null;
    }

    @Override
    public double jointPosition(String model, int joint) {
        if (!levels.isLoaded(model)) {
            return Double.NaN;
        }
        return world.model(model).map(m -> scene.jointPosition(m, joint)).orElse(Double.NaN);
    }
}
