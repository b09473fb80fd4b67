package io.tandem.world.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tandem.cosim.Participant;
import io.tandem.cosim.Registry;
import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.PubSubSpec;
import io.tandem.physics.SolverSettings;
import io.tandem.world.GazeboWorlds;
import io.tandem.world.Pose;
import io.tandem.world.PoseRecorder;
import io.tandem.world.World;
import io.tandem.world.WorldRunner;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Distributed runs in one process (in-process transport, one thread per secondary): the primary's
 * recording must be bitwise the standalone runner's, with and without handovers; failures end
 * the run with the peer and the iteration named. The multi-process cases are in tandem-cli.
 */
class DistributedWorldTest {
    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final long S = 1_000_000_000L;
    private static final SolverSettings SOLVER = SolverSettings.subAdmm(10);

    static World example(String name) {
        return GazeboWorlds.example(name);
    }

    static String standalone(World w, long iterations) {
        StringWriter out = new StringWriter();
        try (WorldRunner r = new WorldRunner(w, SOLVER, true)) {
            r.addListener(new PoseRecorder(out, PoseRecorder.Format.CSV));
            while (r.iteration() < iterations) {
                r.step();
            }
        }
        return out.toString();
    }

    record Run(String record, long handovers, List<DistributedSecondary.Result> secondaries, List<String> names) {
    }

    static Run distributed(World w, int secondaries, long iterations) throws Exception {
        return distributed(w, secondaries, iterations, false);
    }

    /** @param free run freely ({@link DistributedPrimary#runUntil}, the lockstep on the participant's thread) */
    static Run distributed(World w, int secondaries, long iterations, boolean free) throws Exception {
        return distributed(w, secondaries, iterations, free, true);
    }

    static Run distributed(World w, int secondaries, long iterations, boolean free, boolean allStates) throws Exception {
        try (Registry reg = Registry.start("tandem+inproc://dw-" + RUNS.incrementAndGet())) {
            List<CompletableFuture<DistributedSecondary.Result>> futures = new ArrayList<>();
            for (int i = 1; i <= secondaries; i++) {
                futures.add(startSecondary(reg.uri(), w, "secondary-" + i));
            }
            StringWriter out = new StringWriter();
            try (Participant p = Participant.connect(reg.uri(), "world", DistributedPrimary.NAME)) {
                DistributedPrimary primary = new DistributedPrimary(w, p, secondaries, 30 * S, System::nanoTime);
                primary.addListener(new PoseRecorder(out, PoseRecorder.Format.CSV));
                primary.reportAllStates(allStates);
                List<String> names = primary.awaitSecondaries(30 * S);
                try {
                    while (primary.iteration() < iterations) {
                        if (free) {
                            // short slices, so a run goes through many hand-backs to the caller's thread
                            primary.runUntil(iterations, 20_000_000L);
                        } else {
                            primary.advance();
                        }
                    }
                } catch (DistributedRunException e) {
                    // a lost secondary: say why it ended
                    for (CompletableFuture<DistributedSecondary.Result> f : futures) {
                        try {
                            f.get(5, TimeUnit.SECONDS);
                        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException why) {
                            e.addSuppressed(why.getCause() != null ? why.getCause() : why);
                        }
                    }
                    throw e;
                }
                assertThat(primary.iteration()).isEqualTo(iterations);
                primary.finish("done");
                List<DistributedSecondary.Result> results = new ArrayList<>();
                for (CompletableFuture<DistributedSecondary.Result> f : futures) {
                    results.add(f.get(30, TimeUnit.SECONDS));
                }
                return new Run(out.toString(), primary.handovers(), results, names);
            }
        }
    }

    static CompletableFuture<DistributedSecondary.Result> startSecondary(String uri, World w, String name) {
        CompletableFuture<DistributedSecondary.Result> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (Participant p = Participant.connect(uri, "world", name);
                 DistributedSecondary s = new DistributedSecondary(w, p, SOLVER, System::nanoTime)) {
                f.complete(s.run(30 * S));
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return f;
    }

    /** Equal records; otherwise fails at the first differing line. */
    static void assertSameRecord(String distributed, String standalone) {
        String[] d = distributed.split("\n");
        String[] a = standalone.split("\n");
        for (int i = 0; i < Math.min(d.length, a.length); i++) {
            assertThat(d[i]).as("line %d of the distributed record vs the standalone one", i + 1).isEqualTo(a[i]);
        }
        assertThat(d.length).as("lines").isEqualTo(a.length);
    }

    @Test
    void distributedFreeRun_relayWithHandover_bitwiseEqualToStandalone() throws Exception {
        World w = example("relay.sdf");
        String alone = standalone(w, 2600);
        Run run = distributed(w, 2, 2600, true);
        assertThat(run.handovers()).as("rover_b moves to rover_a's secondary").isEqualTo(1);
        assertThat(run.secondaries().get(0).handoversIn()).isEqualTo(1);
        assertThat(run.secondaries().get(1).handoversOut()).isEqualTo(1);
        assertThat(alone).contains("Loaded level [a3]");
        assertSameRecord(run.record(), alone);
    }

    @Test
    void distributedRun_performersOnly_performersBitwiseOthersAsInTheFile() throws Exception {
        World w = example("relay.sdf");
        String alone = standalone(w, 2600);
        Run run = distributed(w, 2, 2600, true, false);
        assertThat(run.handovers()).isEqualTo(1);
        List<String> performers = alone.lines().filter(l -> l.contains(",rover_")).toList();
        // rover_a's row, and rover_b's with a row for each of its two links (rover_b::base, rover_b::arm)
        // and for its revolute joint
        assertThat(performers).hasSize(5 * 2601);
        assertThat(run.record().lines().filter(l -> l.contains(",rover_")).toList()).isEqualTo(performers);
        // the crates' state was never reported: the record shows them where the file put them
        assertThat(run.record()).contains("2600,5.2,crate_2,42.5,3.0,-8.0,0.0,0.0,0.0,1.0,");
        assertThat(alone).doesNotContain("2600,5.2,crate_2,42.5,3.0,-8.0,");
    }

    /**
     * tandem world-control's twist reaches the secondary that simulates the vehicle: the DiffDrive
     * cart driven from iteration 20 on is bitwise the standalone run driven the same.
     */
    @Test
    void worldControlTwist_diffDriveCart_drivesOnItsSecondaryBitwiseAsStandalone() throws Exception {
        World w = example("diff_drive.sdf");
        long iterations = 600;
        StringWriter standalone = new StringWriter();
        try (WorldRunner r = new WorldRunner(w, SOLVER, true)) {
            r.addListener(new PoseRecorder(standalone, PoseRecorder.Format.CSV));
            while (r.iteration() < iterations) {
                if (r.iteration() == 20) {
                    r.setTwist("cart", 2.0, 0.4);
                }
                r.step();
            }
        }
        String distributed;
        try (Registry reg = Registry.start("tandem+inproc://dw-" + RUNS.incrementAndGet())) {
            List<CompletableFuture<DistributedSecondary.Result>> futures = new ArrayList<>();
            for (int i = 1; i <= 2; i++) {
                futures.add(startSecondary(reg.uri(), w, "secondary-" + i));
            }
            StringWriter out = new StringWriter();
            try (Participant p = Participant.connect(reg.uri(), "world", DistributedPrimary.NAME)) {
                DistributedPrimary primary = new DistributedPrimary(w, p, 2, 30 * S, System::nanoTime);
                // (two secondaries: the cart's and one without it, which must leave the command alone)
                primary.addListener(new PoseRecorder(out, PoseRecorder.Format.CSV));
                primary.reportAllStates(true);
                primary.awaitSecondaries(30 * S);
                assertThatThrownBy(() -> primary.command("twist", "ground 1 0")).hasMessageContaining("no DiffDrive");
                assertThatThrownBy(() -> primary.command("twist", "cart 1")).hasMessageContaining("usage: twist");
                while (primary.iteration() < iterations) {
                    if (primary.iteration() == 20) {
                        primary.command("twist", "cart 2.0 0.4");
                    }
                    primary.advance();
                }
                primary.finish("done");
                for (CompletableFuture<DistributedSecondary.Result> f : futures) {
                    f.get(30, TimeUnit.SECONDS);
                }
            }
            distributed = out.toString();
        }
        String last = standalone.toString().lines().filter(l -> l.startsWith(iterations + ",") && l.contains(",cart,"))
                .findFirst().orElseThrow();
        assertThat(Double.parseDouble(last.split(",")[3])).as("the cart drove forward, m").isGreaterThan(0.5);
        assertSameRecord(distributed, standalone.toString());
    }

    /** A robot in joint coordinates: its link and joint rows (computed from the link poses) bitwise the standalone ones. */
    @Test
    void distributedRun_pandaInJointCoordinates_bitwiseEqualToStandalone() throws Exception {
        World w = io.tandem.world.urdf.UrdfLoader.load(java.nio.file.Path.of("../examples/robots/panda/panda.urdf"), x -> { });
        Run run = distributed(w, 1, 300);
        assertThat(run.record()).contains(",panda::joint4,");
        assertSameRecord(run.record(), standalone(w, 300));
    }

    @Test
    void distributedRun_twinDropsNoHandover_bitwiseEqualToStandalone() throws Exception {
        World w = example("twin_drops.sdf");
        String alone = standalone(w, 1500);
        Run run = distributed(w, 2, 1500);
        assertThat(run.handovers()).isZero();
        assertThat(alone).contains("Loaded level [ground_left]").contains("Unloaded level [sky_right]");
        assertSameRecord(run.record(), alone);
    }

    @Test
    void distributedRun_gazeboPerformersWorld_bitwiseEqualToStandalone() throws Exception {
        World w = GazeboWorlds.load("test/performers.sdf");
        String alone = standalone(w, 500);
        Run run = distributed(w, 2, 500);
        assertSameRecord(run.record(), alone);
    }

    @Test
    void distributedRun_gazeboDistributedExamples_runWithTheirSecondaries() throws Exception {
        // the primary and the secondaries load different files of one world (other plugins)
        World primaryWorld = GazeboWorlds.load("examples/distributed/primary.sdf");
        World secondaryWorld = GazeboWorlds.load("examples/distributed/secondary.sdf");
        assertThat(WorldDigest.of(secondaryWorld)).isEqualTo(WorldDigest.of(primaryWorld));
        Run three = distributed(primaryWorld, 3, 300);
        assertThat(three.names()).hasSize(3);
        assertSameRecord(three.record(), standalone(GazeboWorlds.load("examples/distributed/standalone.sdf"), 300));
        World levels = GazeboWorlds.load("examples/distributed_levels/primary.sdf");
        Run two = distributed(levels, 2, 300);
        assertSameRecord(two.record(), standalone(GazeboWorlds.load("examples/distributed_levels/standalone.sdf"), 300));
    }

    @Test
    void secondaryLost_primaryStopsNamingPeerAndIteration_otherSecondaryStopsToo() throws Exception {
        World w = example("twin_drops.sdf");
        try (Registry reg = Registry.start("tandem+inproc://dw-" + RUNS.incrementAndGet())) {
            CompletableFuture<DistributedSecondary.Result> first = startSecondary(reg.uri(), w, "secondary-1");
            // a secondary that says hello and acks until its participant is closed
            Participant victim = Participant.connect(reg.uri(), "world", "secondary-2");
            DistributedSecondary doomed = new DistributedSecondary(w, victim, SOLVER, System::nanoTime);
            Thread doomedRun = new Thread(() -> {
                try {
                    doomed.run(30 * S);
                } catch (DistributedRunException expected) {
                    // interrupted at the end of the test
                }
            }, "doomed");
            doomedRun.setDaemon(true);
            doomedRun.start();
            try (Participant p = Participant.connect(reg.uri(), "world", DistributedPrimary.NAME)) {
                DistributedPrimary primary = new DistributedPrimary(w, p, 2, 30 * S, System::nanoTime);
                primary.awaitSecondaries(30 * S);
                while (primary.iteration() < 20) {
                    primary.advance();
                }
                // the process of secondary-2 vanishes: its participant leaves without a word
                victim.close();
                assertThatThrownBy(() -> {
                    while (true) {
                        primary.advance();
                    }
                }).isInstanceOf(DistributedRunException.class).hasMessageContaining("secondary 'secondary-2' was lost at iteration")
                        .satisfies(e -> assertThat(((DistributedRunException) e).peer()).isEqualTo("secondary-2"));
                ExecutionException ex = catchThrowableOfType(() -> first.get(10, TimeUnit.SECONDS), ExecutionException.class);
                assertThat(ex.getCause()).isInstanceOf(DistributedRunException.class)
                        .hasMessageContaining("the primary stopped the run at iteration")
                        .hasMessageContaining("secondary 'secondary-2' was lost");
            } finally {
                doomedRun.interrupt();
            }
        }
    }

    @Test
    void ackMissing_primaryStopsAfterTimeout_namingTheSilentSecondary() throws Exception {
        World w = example("twin_drops.sdf");
        try (Registry reg = Registry.start("tandem+inproc://dw-" + RUNS.incrementAndGet())) {
            CompletableFuture<DistributedSecondary.Result> good = startSecondary(reg.uri(), w, "secondary-1");
            // a hung secondary: it says hello and never acks
            try (Participant silent = Participant.connect(reg.uri(), "world", "secondary-2");
                 Participant p = Participant.connect(reg.uri(), "world", DistributedPrimary.NAME)) {
                DataPublisher hello = silent.createDataPublisher("announce",
                        PubSubSpec.of(DistributedPrimary.topic(w, "announce"), ""), 1);
                hello.publish(DistributedMessages.encode(new DistributedMessages.Hello("secondary-2", w.name(), WorldDigest.of(w))));
                DistributedPrimary primary = new DistributedPrimary(w, p, 2, 300_000_000L, System::nanoTime);
                primary.awaitSecondaries(30 * S);
                assertThatThrownBy(primary::advance).isInstanceOf(DistributedRunException.class)
                        .hasMessageContaining("no step_ack from secondary [secondary-2] for iteration 1 within 300.0 ms");
                assertThatThrownBy(() -> good.get(10, TimeUnit.SECONDS)).hasMessageContaining("no step_ack from secondary");
            }
        }
    }

    @Test
    void lateSecondary_refusedWithTheRunsSecondariesNamed() throws Exception {
        World w = example("twin_drops.sdf");
        try (Registry reg = Registry.start("tandem+inproc://dw-" + RUNS.incrementAndGet())) {
            CompletableFuture<DistributedSecondary.Result> first = startSecondary(reg.uri(), w, "secondary-1");
            try (Participant p = Participant.connect(reg.uri(), "world", DistributedPrimary.NAME)) {
                DistributedPrimary primary = new DistributedPrimary(w, p, 1, 30 * S, System::nanoTime);
                primary.awaitSecondaries(30 * S);
                while (primary.iteration() < 10) {
                    primary.advance();
                }
                CompletableFuture<DistributedSecondary.Result> late = startSecondary(reg.uri(), w, "secondary-9");
                while (!late.isDone()) {
                    primary.advance();
                }
                assertThatThrownBy(late::get).hasMessageContaining("secondary 'secondary-9'")
                        .hasMessageContaining("[secondary-1]").hasMessageContaining("--network-secondaries 2");
                long at = primary.iteration();
                primary.advance();
                assertThat(primary.iteration()).as("the run goes on").isEqualTo(at + 1);
                primary.finish("done");
                assertThat(first.get(10, TimeUnit.SECONDS).iterations()).isEqualTo(at + 1);
            }
        }
    }

    @Test
    void otherWorld_secondaryRefusedNamingBothDigests() throws Exception {
        World w = example("twin_drops.sdf");
        World other = example("relay.sdf");
        try (Registry reg = Registry.start("tandem+inproc://dw-" + RUNS.incrementAndGet())) {
            try (Participant p = Participant.connect(reg.uri(), "world", DistributedPrimary.NAME)) {
                DistributedPrimary primary = new DistributedPrimary(w, p, 1, 30 * S, System::nanoTime);
                // a secondary of another world publishes on that world's topics: give it this one's
                Participant wrong = Participant.connect(reg.uri(), "world", "secondary-x");
                DataPublisher hello = wrong.createDataPublisher("announce", PubSubSpec.of(DistributedPrimary.topic(w, "announce"), ""), 1);
                CompletableFuture<String> refused = new CompletableFuture<>();
                wrong.createDataSubscriber("step", PubSubSpec.of(DistributedPrimary.topic(w, "step"), ""), e -> {
                    if (DistributedMessages.decode(e.data()) instanceof DistributedMessages.Refuse r) {
                        refused.complete(r.reason());
                    }
                });
                hello.publish(DistributedMessages.encode(new DistributedMessages.Hello("secondary-x", w.name(), WorldDigest.of(other))));
                // the run ends at once (it waited out the start timeout)
                long t0 = System.nanoTime();
                assertThatThrownBy(() -> primary.awaitSecondaries(30 * S)).isInstanceOf(DistributedRunException.class)
                        .hasMessageContaining("secondary 'secondary-x' loaded world").hasMessageEndingWith("; the run does not start");
                assertThat(System.nanoTime() - t0).as("ns until the run ended").isLessThan(10 * S);
                assertThat(refused.get(10, TimeUnit.SECONDS)).contains(WorldDigest.of(other)).contains(WorldDigest.of(w))
                        .contains("every process must load the same world");
                wrong.close();
            }
        }
    }

    @Test
    void pauseResumeAndSingleStep_reachEverySecondary() throws Exception {
        World w = example("twin_drops.sdf");
        try (Registry reg = Registry.start("tandem+inproc://dw-" + RUNS.incrementAndGet())) {
            CompletableFuture<DistributedSecondary.Result> s1 = startSecondary(reg.uri(), w, "secondary-1");
            CompletableFuture<DistributedSecondary.Result> s2 = startSecondary(reg.uri(), w, "secondary-2");
            try (Participant p = Participant.connect(reg.uri(), "world", DistributedPrimary.NAME);
                 Participant tool = Participant.connect(reg.uri(), "world", "controller")) {
                DistributedPrimary primary = new DistributedPrimary(w, p, 2, 30 * S, System::nanoTime);
                primary.awaitSecondaries(30 * S);
                while (primary.iteration() < 5) {
                    primary.advance();
                }
                // over the network, as 'tandem world-control' sends it
                DataPublisher control = tool.createDataPublisher("control", PubSubSpec.of(DistributedPrimary.topic(w, "control"), ""), 0);
                control.publish(DistributedMessages.encode(new DistributedMessages.Control(DistributedMessages.Command.PAUSE, 0)));
                while (!primary.isPaused()) {
                    primary.advance();
                }
                long at = primary.iteration();
                for (int i = 0; i < 20; i++) {
                    assertThat(primary.advance()).isFalse();
                }
                assertThat(primary.iteration()).isEqualTo(at);
                primary.stepWhilePaused(3);
                int stepped = 0;
                for (int i = 0; i < 20; i++) {
                    stepped += primary.advance() ? 1 : 0;
                }
                assertThat(stepped).isEqualTo(3);
                assertThat(primary.iteration()).isEqualTo(at + 3);
                primary.resume();
                primary.advance();
                assertThat(primary.advance()).isTrue();
                primary.finish("done");
                assertThat(s1.get(10, TimeUnit.SECONDS).iterations()).isEqualTo(primary.iteration());
                assertThat(s2.get(10, TimeUnit.SECONDS).iterations()).isEqualTo(primary.iteration());
            }
        }
    }

    @Test
    void sceneTopic_performersOnlyAcks_everyPublishedSceneBitwiseTheStandaloneIteration() throws Exception {
        World w = example("relay.sdf");
        String alone = standalone(w, 2600);
        java.util.concurrent.BlockingQueue<ScenePoses> arrived = new java.util.concurrent.LinkedBlockingQueue<>();
        List<ScenePoses> scenes = new ArrayList<>();
        try (Registry reg = Registry.start("tandem+inproc://dw-" + RUNS.incrementAndGet())) {
            CompletableFuture<DistributedSecondary.Result> s1 = startSecondary(reg.uri(), w, "secondary-1");
            CompletableFuture<DistributedSecondary.Result> s2 = startSecondary(reg.uri(), w, "secondary-2");
            try (Participant p = Participant.connect(reg.uri(), "world", DistributedPrimary.NAME);
                 Participant viewer = Participant.connect(reg.uri(), "world", "viewer")) {
                ScenePoses.subscribe(viewer, w.name(), arrived::add);
                DistributedPrimary primary = new DistributedPrimary(w, p, 2, 30 * S, System::nanoTime);
                // acks carry only the performers' models, but every scene iteration asks for all of them
                primary.reportAllStates(false);
                primary.publishSceneEvery(100);
                primary.awaitSecondaries(30 * S);
                while (primary.iteration() < 2600) {
                    primary.runUntil(2600, 20_000_000L);
                }
                primary.finish("done");
                s1.get(30, TimeUnit.SECONDS);
                s2.get(30, TimeUnit.SECONDS);
                // iterations 0, 100, ..., 2600 (the last may reach the viewer after the run ended)
                for (int i = 0; i < 27; i++) {
                    ScenePoses scene = arrived.poll(30, TimeUnit.SECONDS);
                    assertThat(scene).as("scene %d", i).isNotNull();
                    scenes.add(scene);
                }
                assertThat(arrived).isEmpty();
            }
        }
        assertThat(scenes).extracting(ScenePoses::iteration)
                .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(0, 26).map(i -> 100 * i).boxed().toList());
        for (ScenePoses scene : scenes) {
            String prefix = scene.iteration() + ",";
            // the standalone record's model pose rows of that iteration (not its level events, nor the
            // rows of a model's links, MODEL::LINK, which the scene does not carry)
            List<String> expected = alone.lines().filter(l -> l.startsWith(prefix) && !l.split(",", -1)[2].isEmpty()
                    && !l.split(",", -1)[2].contains("::")).toList();
            StringBuilder rows = new StringBuilder();
            for (int i = 0; i < scene.models().size(); i++) {
                rows.append(PoseRecorder.csvRow(scene.iteration(), scene.simTimeNs() / 1e9, scene.models().get(i), scene.pose(i)));
            }
            assertThat(rows.toString().lines().toList()).as("scene of iteration %d", scene.iteration()).isEqualTo(expected);
        }
        // the crates moved in the standalone run: the scenes show their real poses, not the file's
        assertThat(scenes.get(26).pose("crate_2")).isNotEqualTo(new Pose(42.5, 3.0, -8.0, 1, 0, 0, 0));
        assertThat(scenes.get(26).loadedLevels()).isNotEmpty();
    }

    /** A distributed run with set_performer(model) before iteration at, and the standalone run with the same request. */
    record RuntimeRun(String distributed, String standalone, Map<String, String> assignmentAfterCreation, long handovers,
                      long handoversIn) {
    }

    static RuntimeRun runtimePerformerRun(World w, String model, long at, long iterations) throws Exception {
        StringWriter alone = new StringWriter();
        try (WorldRunner r = new WorldRunner(w, SOLVER, true)) {
            r.addListener(new PoseRecorder(alone, PoseRecorder.Format.CSV));
            while (r.iteration() < iterations) {
                if (r.iteration() == at - 1) {
                    r.levels().setPerformer(model);
                }
                r.step();
            }
            assertThat(r.levels().performerModels()).containsEntry("perf_" + model, model);
        }
        StringWriter out = new StringWriter();
        try (Registry reg = Registry.start("tandem+inproc://dw-" + RUNS.incrementAndGet())) {
            CompletableFuture<DistributedSecondary.Result> s1 = startSecondary(reg.uri(), w, "secondary-1");
            CompletableFuture<DistributedSecondary.Result> s2 = startSecondary(reg.uri(), w, "secondary-2");
            try (Participant p = Participant.connect(reg.uri(), "world", DistributedPrimary.NAME)) {
                DistributedPrimary primary = new DistributedPrimary(w, p, 2, 30 * S, System::nanoTime);
                primary.addListener(new PoseRecorder(out, PoseRecorder.Format.CSV));
                primary.awaitSecondaries(30 * S);
                while (primary.iteration() < at - 1) {
                    primary.advance();
                }
                primary.setPerformer(model);
                primary.advance();
                Map<String, String> assigned = primary.assignment();
                while (primary.iteration() < iterations) {
                    primary.runUntil(iterations, 20_000_000L);
                }
                long handovers = primary.handovers();
                primary.finish("done");
                long in = s1.get(30, TimeUnit.SECONDS).handoversIn() + s2.get(30, TimeUnit.SECONDS).handoversIn();
                return new RuntimeRun(out.toString(), alone.toString(), assigned, handovers, in);
            }
        }
    }

    @Test
    void runtimePerformer_setWhileRunning_goesToTheSecondaryOfItsModel_runBitwiseEqualToStandalone() throws Exception {
        World w = example("relay.sdf");
        RuntimeRun run = runtimePerformerRun(w, "crate_2", 200, 2600);
        // crate_2 is in level b0, which perf_b loads on its secondary: the new performer starts there
        assertThat(run.assignmentAfterCreation()).containsEntry("perf_crate_2", run.assignmentAfterCreation().get("perf_b"));
        assertThat(run.handovers()).as("the performers meet: a handover").isPositive();
        assertThat(run.handoversIn()).isEqualTo(run.handovers());
        assertSameRecord(run.distributed(), run.standalone());
    }

    @Test
    void runtimePerformer_gazeboWorldWithoutPerformers_createdOnASecondary_runBitwiseEqualToStandalone() throws Exception {
        World w = GazeboWorlds.load("test/levels_no_performers.sdf");
        RuntimeRun run = runtimePerformerRun(w, "box", 5, 50);
        // the only performer: no first-step assignment happened, the first secondary simulates the default level
        assertThat(run.assignmentAfterCreation()).containsExactly(Map.entry("perf_box", "secondary-1"));
        assertSameRecord(run.distributed(), run.standalone());
    }

    @Test
    void setPerformer_unknownModel_refusedNamingTheWorldsModels() throws Exception {
        World w = example("relay.sdf");
        try (Registry reg = Registry.start("tandem+inproc://dw-" + RUNS.incrementAndGet());
             Participant p = Participant.connect(reg.uri(), "world", DistributedPrimary.NAME)) {
            DistributedPrimary primary = new DistributedPrimary(w, p, 2, 30 * S, System::nanoTime);
            assertThatThrownBy(() -> primary.setPerformer("crate_9")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no model named 'crate_9'").hasMessageContaining("crate_2");
        }
    }
}
