package io.tandem.cosim;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.PubSubSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Virtual-time synchronization (SIL Kit ITest_DeterministicSimVAsio, ITest_AsyncSimTask,
 * ITest_SimTask, ITest_Orchestration, ITest_HopOnHopOff, ITest_SingleParticipant) and the
 * conservative-advance property with random step sizes.
 */
public abstract class TimeSyncContract extends ContractBase {
    private static final long MS = 1_000_000;

    /** A coordinated, time-synced participant with a blocking step handler. */
    private LifecycleService synced(Participant p, long stepNs, SimulationStepHandler h) {
        LifecycleService lc = p.createLifecycleService(OperationMode.COORDINATED);
        lc.createTimeSyncService().setSimulationStepHandler(h, stepNs);
        return lc;
    }

    @Test
    void lockstep_threePublishersOneSubscriber_receivedAtSendTickOrOneBefore_inOrder_allArrive() {
        int steps = 2000;
        controller("pub0", "pub1", "pub2", "sub");
        Participant sub = connect("sub");
        LifecycleService subLc = sub.createLifecycleService(OperationMode.COORDINATED);
        TimeSyncService subTs = subLc.createTimeSyncService();
        subTs.setSimulationStepHandler((now, d) -> { }, MS);
        List<String> violations = new CopyOnWriteArrayList<>();
        long[] lastIndex = {-1, -1, -1};
        AtomicLong received = new AtomicLong();
        sub.createDataSubscriber("s", PubSubSpec.of("lockstep", ""), e -> {
            int pub = (int) longAt(e.data(), 0);
            long sentNow = longAt(e.data(), 1);
            long index = longAt(e.data(), 2);
            long subNow = subTs.now();
            boolean ok = subNow == sentNow || subNow == sentNow - MS
                    || (sentNow == 0 && subNow == VirtualTime.INVALID_NS);
            if (!ok) {
                violations.add("pub" + pub + " sent at " + sentNow + " received at " + subNow);
            }
            if (e.timestampNs() != sentNow) {
                violations.add("timestamp " + e.timestampNs() + " != send time " + sentNow);
            }
            if (index != lastIndex[pub] + 1) {
                violations.add("pub" + pub + " index " + index + " after " + lastIndex[pub]);
            }
            lastIndex[pub] = index;
            received.incrementAndGet();
        });
        List<CompletableFuture<ParticipantState>> done = new ArrayList<>();
        AtomicLong sent = new AtomicLong();
        for (int i = 0; i < 3; i++) {
            Participant p = connect("pub" + i);
            DataPublisher pub = p.createDataPublisher("p", PubSubSpec.of("lockstep", "m"), 0);
            int id = i;
            long[] index = {0};
            LifecycleService[] lc = new LifecycleService[1];
            lc[0] = synced(p, MS, (now, d) -> {
                pub.publish(longs(id, now, index[0]++));
                sent.incrementAndGet();
                if (id == 0 && now == (steps - 1) * MS) {
                    lc[0].stop("done");
                }
            });
            done.add(lc[0].startLifecycle());
        }
        done.add(subLc.startLifecycle());
        for (CompletableFuture<ParticipantState> f : done) {
            assertThat(await(f)).isEqualTo(ParticipantState.SHUTDOWN);
        }
        assertThat(violations).isEmpty();
        assertThat(received.get()).isEqualTo(sent.get()).isGreaterThanOrEqualTo(3L * (steps - 1));
    }

    @Test
    void asyncHandler_notInvokedAgainBeforeComplete_atMostOneActiveStep() throws Exception {
        controller("async", "peer");
        Participant a = connect("async");
        LifecycleService lc = a.createLifecycleService(OperationMode.COORDINATED);
        TimeSyncService ts = lc.createTimeSyncService();
        AtomicInteger active = new AtomicInteger();
        AtomicInteger maxActive = new AtomicInteger();
        List<Long> nows = new CopyOnWriteArrayList<>();
        ExecutorService completer = Executors.newSingleThreadExecutor();
        try {
            ts.setSimulationStepHandlerAsync((now, d) -> {
                maxActive.accumulateAndGet(active.incrementAndGet(), Math::max);
                nows.add(now);
                completer.execute(() -> {
                    active.decrementAndGet();
                    if (now == 200 * MS) {
                        lc.stop("done");
                    }
                    ts.completeSimulationStep();
                });
            }, MS);
            CompletableFuture<ParticipantState> peerDone = synced(connect("peer"), MS, (now, d) -> { }).startLifecycle();
            assertThat(await(lc.startLifecycle())).isEqualTo(ParticipantState.SHUTDOWN);
            await(peerDone);
        } finally {
            completer.shutdownNow();
        }
        assertThat(maxActive.get()).isEqualTo(1);
        for (int i = 0; i < nows.size(); i++) {
            assertThat(nows.get(i)).isEqualTo(i * MS);
        }
        assertThat(nows).hasSize(201);
    }

    @Test
    void asyncHandler_extraCompletionCalls_harmless() {
        Participant p = connect("alone");
        LifecycleService lc = p.createLifecycleService(OperationMode.AUTONOMOUS);
        TimeSyncService ts = lc.createTimeSyncService();
        // before any step: ignored
        ts.completeSimulationStep();
        List<Long> nows = new CopyOnWriteArrayList<>();
        ts.setSimulationStepHandlerAsync((now, d) -> {
            nows.add(now);
            if (now == 50 * MS) {
                lc.stop("done");
            }
            // repeated calls before the participant acts on them coalesce into one completion
            ts.completeSimulationStep();
            ts.completeSimulationStep();
            ts.completeSimulationStep();
        }, MS);
        assertThat(await(lc.startLifecycle())).isEqualTo(ParticipantState.SHUTDOWN);
        assertThat(nows).hasSize(51);
        for (int i = 0; i < nows.size(); i++) {
            assertThat(nows.get(i)).isEqualTo(i * MS);
        }
    }

    @Test
    void asyncStopsAtTenMs_syncPeerLastNowWithinOneStep_noDeadlock() {
        controller("async", "sync");
        Participant a = connect("async");
        LifecycleService alc = a.createLifecycleService(OperationMode.COORDINATED);
        TimeSyncService ats = alc.createTimeSyncService();
        ExecutorService completer = Executors.newSingleThreadExecutor();
        AtomicLong syncLast = new AtomicLong(-1);
        try {
            ats.setSimulationStepHandlerAsync((now, d) -> completer.execute(() -> {
                if (now == 10 * MS) {
                    alc.stop("stop at 10 ms");
                }
                ats.completeSimulationStep();
            }), MS);
            CompletableFuture<ParticipantState> syncDone = synced(connect("sync"), MS, (now, d) -> syncLast.set(now)).startLifecycle();
            CompletableFuture<ParticipantState> asyncDone = alc.startLifecycle();
            assertThat(await(asyncDone)).isEqualTo(ParticipantState.SHUTDOWN);
            assertThat(await(syncDone)).isEqualTo(ParticipantState.SHUTDOWN);
        } finally {
            completer.shutdownNow();
        }
        assertThat(syncLast.get()).isBetween(9 * MS, 11 * MS);
    }

    @Test
    void timestamps_followSilKitsFourRules() {
        controller("syncA", "syncB");
        Participant syncA = connect("syncA");
        Participant syncB = connect("syncB");
        Participant plainC = connect("plainC");
        Participant plainD = connect("plainD");
        Map<String, List<String>> bad = new ConcurrentHashMap<>();
        CompletableFuture<Void> seenSyncToSync = new CompletableFuture<>();
        CompletableFuture<Void> seenPlainToSync = new CompletableFuture<>();
        CompletableFuture<Void> seenSyncToPlain = new CompletableFuture<>();
        CompletableFuture<Void> seenPlainToPlain = new CompletableFuture<>();
        LifecycleService bLc = syncB.createLifecycleService(OperationMode.COORDINATED);
        TimeSyncService bTs = bLc.createTimeSyncService();
        bTs.setSimulationStepHandler((now, d) -> { }, MS);
        // sync -> sync keeps the send time
        syncB.createDataSubscriber("fromA", PubSubSpec.of("fromA", ""), e -> {
            if (e.timestampNs() != longAt(e.data(), 0)) {
                bad.computeIfAbsent("sync->sync", k -> new CopyOnWriteArrayList<>()).add(e.timestampNs() + "");
            }
            seenSyncToSync.complete(null);
        });
        // unsynced -> sync is stamped with the receiver's current step time
        syncB.createDataSubscriber("fromC", PubSubSpec.of("fromC", ""), e -> {
            if (e.timestampNs() != bTs.now()) {
                bad.computeIfAbsent("plain->sync", k -> new CopyOnWriteArrayList<>()).add(e.timestampNs() + " vs " + bTs.now());
            }
            if (bTs.now() != VirtualTime.INVALID_NS) {
                seenPlainToSync.complete(null);
            }
        });
        // sync -> unsynced keeps the send time
        plainD.createDataSubscriber("fromA", PubSubSpec.of("fromA", ""), e -> {
            if (e.timestampNs() != longAt(e.data(), 0)) {
                bad.computeIfAbsent("sync->plain", k -> new CopyOnWriteArrayList<>()).add(e.timestampNs() + "");
            }
            seenSyncToPlain.complete(null);
        });
        // unsynced -> unsynced is the invalid time
        plainD.createDataSubscriber("fromC", PubSubSpec.of("fromC", ""), e -> {
            if (e.timestampNs() != VirtualTime.INVALID_NS) {
                bad.computeIfAbsent("plain->plain", k -> new CopyOnWriteArrayList<>()).add(e.timestampNs() + "");
            }
            seenPlainToPlain.complete(null);
        });
        DataPublisher fromC = plainC.createDataPublisher("c", PubSubSpec.of("fromC", "m"), 0);
        plainC.createDataSubscriber("echo", PubSubSpec.of("fromA", ""), e -> fromC.publish(new byte[1]));
        DataPublisher fromA = syncA.createDataPublisher("a", PubSubSpec.of("fromA", "m"), 0);
        LifecycleService aLc = synced(syncA, MS, (now, d) -> {
            fromA.publish(longs(now));
        });
        aLc.startLifecycle();
        bLc.startLifecycle();
        await(CompletableFuture.allOf(seenSyncToSync, seenPlainToSync, seenSyncToPlain, seenPlainToPlain));
        aLc.stop("done");
        assertThat(bad).isEmpty();
    }

    @Test
    void publishesFromHandlerAndOtherThread_arriveInPublishCallOrder() {
        controller("sender", "receiver");
        Participant sender = connect("sender");
        Participant receiver = connect("receiver");
        List<Long> got = new CopyOnWriteArrayList<>();
        receiver.createDataSubscriber("s", PubSubSpec.of("order", ""), e -> got.add(longAt(e.data(), 0) * 10 + longAt(e.data(), 1)));
        DataPublisher pub = sender.createDataPublisher("p", PubSubSpec.of("order", "m"), 0);
        ExecutorService other = Executors.newSingleThreadExecutor();
        int steps = 150;
        try {
            LifecycleService[] lc = new LifecycleService[1];
            lc[0] = synced(sender, MS, (now, d) -> {
                long major = now / MS;
                pub.publish(longs(major, 0));
                // another thread publishes while the blocking handler waits for it
                try {
                    other.submit(() -> pub.publish(longs(major, 1))).get();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                pub.publish(longs(major, 2));
                if (major == steps - 1) {
                    lc[0].stop("done");
                }
            });
            CompletableFuture<ParticipantState> r = synced(receiver, MS, (now, d) -> { }).startLifecycle();
            assertThat(await(lc[0].startLifecycle())).isEqualTo(ParticipantState.SHUTDOWN);
            await(r);
        } finally {
            other.shutdownNow();
        }
        assertThat(got).hasSize(steps * 3);
        for (int i = 0; i < got.size(); i++) {
            assertThat(got.get(i)).isEqualTo((i / 3) * 10L + i % 3);
        }
    }

    @Test
    void stopInStep_noFurtherStep_evenWithElevenBusyPeers() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            names.add("p" + i);
        }
        controller(names.toArray(new String[0]));
        AtomicLong stopperLast = new AtomicLong(-1);
        List<CompletableFuture<ParticipantState>> done = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            Participant p = connect("p" + i);
            boolean stopper = i == 0;
            LifecycleService[] lc = new LifecycleService[1];
            lc[0] = synced(p, MS, (now, d) -> {
                if (stopper) {
                    stopperLast.set(now);
                    if (now == 5 * MS) {
                        lc[0].stop("stop at 5 ms");
                    }
                } else {
                    busy(2_000);
                }
            });
            done.add(lc[0].startLifecycle());
        }
        for (CompletableFuture<ParticipantState> f : done) {
            assertThat(await(f)).isEqualTo(ParticipantState.SHUTDOWN);
        }
        assertThat(stopperLast.get()).isEqualTo(5 * MS);
    }

    @Test
    void singleParticipant_advancesAlone_runningInsideHandler() {
        Participant p = connect("alone");
        LifecycleService lc = p.createLifecycleService(OperationMode.AUTONOMOUS);
        TimeSyncService ts = lc.createTimeSyncService();
        List<ParticipantState> statesInHandler = new CopyOnWriteArrayList<>();
        AtomicLong last = new AtomicLong();
        ts.setSimulationStepHandler((now, d) -> {
            statesInHandler.add(lc.state());
            last.set(now);
            assertThat(ts.now()).isEqualTo(now);
            if (now == 100 * MS) {
                lc.stop("done");
            }
        }, MS);
        assertThat(ts.now()).isEqualTo(VirtualTime.INVALID_NS);
        assertThat(await(lc.startLifecycle())).isEqualTo(ParticipantState.SHUTDOWN);
        assertThat(last.get()).isEqualTo(100 * MS);
        assertThat(statesInHandler).hasSize(101).containsOnly(ParticipantState.RUNNING);
    }

    @Test
    void differentStepSizes_nowIsMultipleOfOwnStep_slowWaitsForFast() {
        controller("fast", "slow");
        List<Long> fast = new CopyOnWriteArrayList<>();
        List<Long> slow = new CopyOnWriteArrayList<>();
        AtomicLong fastNowWhenSlowSteps = new AtomicLong();
        List<String> bad = new CopyOnWriteArrayList<>();
        TimeSyncService[] fastTs = new TimeSyncService[1];
        Participant pf = connect("fast");
        LifecycleService flc = pf.createLifecycleService(OperationMode.COORDINATED);
        fastTs[0] = flc.createTimeSyncService();
        fastTs[0].setSimulationStepHandler((now, d) -> fast.add(now), MS);
        LifecycleService[] slc = new LifecycleService[1];
        slc[0] = synced(connect("slow"), 3 * MS, (now, d) -> {
            slow.add(now);
            long fastNow = fastTs[0].now();
            // every fast step that started before now has completed: fast is at >= now - 1 ms
            if (now > 0 && fastNow < now - MS) {
                bad.add("slow at " + now + " but fast only at " + fastNow);
            }
            fastNowWhenSlowSteps.set(fastNow);
            if (now == 30 * MS) {
                slc[0].stop("done");
            }
        });
        CompletableFuture<ParticipantState> f = flc.startLifecycle();
        assertThat(await(slc[0].startLifecycle())).isEqualTo(ParticipantState.SHUTDOWN);
        await(f);
        assertThat(bad).isEmpty();
        for (int i = 0; i < slow.size(); i++) {
            assertThat(slow.get(i)).isEqualTo(i * 3 * MS);
        }
        for (int i = 0; i < fast.size(); i++) {
            assertThat(fast.get(i)).isEqualTo(i * MS);
        }
        assertThat(slow).hasSize(11);
        assertThat(fast.size()).isBetween(31, 33);
    }

    @Test
    void hopOnHopOff_unsyncedParticipants_joinAndLeaveRunningSimulationThreeTimes() throws Exception {
        controller("synced");
        Participant synced = connect("synced");
        LifecycleService lc = synced.createLifecycleService(OperationMode.COORDINATED);
        TimeSyncService ts = lc.createTimeSyncService();
        DataPublisher tick = synced.createDataPublisher("tick", PubSubSpec.of("tick", "m"), 0);
        List<String> chronology = new CopyOnWriteArrayList<>();
        BlockingQueue<String> fromGuests = new LinkedBlockingQueue<>();
        synced.createDataSubscriber("guest", PubSubSpec.of("guest", ""), e -> {
            if (ts.now() - e.timestampNs() > MS) {
                chronology.add("now " + ts.now() + " ts " + e.timestampNs());
            }
            fromGuests.add(new String(e.data(), StandardCharsets.UTF_8));
        });
        ts.setSimulationStepHandler((now, d) -> tick.publish(longs(now)), MS);
        CompletableFuture<ParticipantState> done = lc.startLifecycle();
        for (int round = 0; round < 3; round++) {
            try (Participant guest = Participant.connect(registry.uri(), "sim", "guest")) {
                BlockingQueue<Long> ticks = new LinkedBlockingQueue<>();
                guest.createDataSubscriber("tick", PubSubSpec.of("tick", ""), e -> ticks.add(e.timestampNs()));
                DataPublisher back = guest.createDataPublisher("back", PubSubSpec.of("guest", "m"), 0);
                Long t = ticks.poll(WAIT_S, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(t).as("guest receives the running simulation's ticks").isNotNull();
                back.publish(("round" + round).getBytes(StandardCharsets.UTF_8));
                assertThat(fromGuests.poll(WAIT_S, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("round" + round);
            }
        }
        lc.stop("done");
        assertThat(await(done)).isEqualTo(ParticipantState.SHUTDOWN);
        assertThat(chronology).isEmpty();
    }

    @Test
    void hopOnHopOff_autonomousSynced_joinAdvancedTime_exchange_leave_othersKeepAdvancing() throws Exception {
        controller("base");
        Participant base = connect("base");
        LifecycleService lc = base.createLifecycleService(OperationMode.COORDINATED);
        TimeSyncService ts = lc.createTimeSyncService();
        AtomicLong baseNow = new AtomicLong();
        DataPublisher fromBase = base.createDataPublisher("b", PubSubSpec.of("fromBase", "m"), 0);
        ts.setSimulationStepHandler((now, d) -> {
            baseNow.set(now);
            fromBase.publish(longs(now));
        }, MS);
        BlockingQueue<String> fromJoiners = new LinkedBlockingQueue<>();
        base.createDataSubscriber("j", PubSubSpec.of("fromJoiner", ""), e -> fromJoiners.add(new String(e.data(), StandardCharsets.UTF_8)));
        CompletableFuture<ParticipantState> baseDone = lc.startLifecycle();
        // hop-on needs a simulation whose time has advanced: a joiner arriving before the base's
        // first step correctly starts at 0
        awaitTime(baseNow, 10 * MS);
        for (int round = 0; round < 3; round++) {
            long before = baseNow.get();
            List<CompletableFuture<ParticipantState>> joinersDone = new ArrayList<>();
            List<Long> firstNows = new CopyOnWriteArrayList<>();
            for (int j = 0; j < 3; j++) {
                Participant joiner = connect("joiner" + round + "-" + j);
                CompletableFuture<Void> gotBase = new CompletableFuture<>();
                joiner.createDataSubscriber("b", PubSubSpec.of("fromBase", ""), e -> gotBase.complete(null));
                DataPublisher out = joiner.createDataPublisher("o", PubSubSpec.of("fromJoiner", "m"), 0);
                LifecycleService jl = joiner.createLifecycleService(OperationMode.AUTONOMOUS);
                TimeSyncService jts = jl.createTimeSyncService();
                long[] first = {-1};
                String name = joiner.name();
                jts.setSimulationStepHandler((now, d) -> {
                    if (first[0] < 0) {
                        first[0] = now;
                        firstNows.add(now);
                    }
                    if (gotBase.isDone() && now >= first[0] + 3 * MS) {
                        out.publish(name.getBytes(StandardCharsets.UTF_8));
                        jl.stop("leaving");
                    }
                }, MS);
                joinersDone.add(jl.startLifecycle());
            }
            for (CompletableFuture<ParticipantState> f : joinersDone) {
                assertThat(await(f)).isEqualTo(ParticipantState.SHUTDOWN);
            }
            List<String> names = new ArrayList<>();
            for (int j = 0; j < 3; j++) {
                names.add(fromJoiners.poll(WAIT_S, java.util.concurrent.TimeUnit.SECONDS));
            }
            assertThat(names).containsExactlyInAnyOrder("joiner" + round + "-0", "joiner" + round + "-1", "joiner" + round + "-2");
            assertThat(firstNows).allSatisfy(t -> assertThat(t).as("hop-on starts after time 0").isGreaterThan(0));
            // leave: close the joiners; the base keeps advancing afterwards
            for (int j = 0; j < 3; j++) {
                closeParticipant("joiner" + round + "-" + j);
            }
            long afterLeave = baseNow.get();
            assertThat(afterLeave).isGreaterThan(before);
            awaitTime(baseNow, afterLeave + 5 * MS);
        }
        lc.stop("done");
        assertThat(await(baseDone)).isEqualTo(ParticipantState.SHUTDOWN);
    }

    private void closeParticipant(String name) {
        // participants are closed by the base class too; closing twice is allowed
        for (Participant p : participantsNamed(name)) {
            p.close();
        }
    }

    private void awaitTime(AtomicLong now, long target) {
        CompletableFuture<Void> f = CompletableFuture.runAsync(() -> {
            while (now.get() < target) {
                Thread.onSpinWait();
            }
        });
        await(f);
    }

    /** Random step sizes and handler durations; checks the conservative-advance invariants. */
    static List<Long> seeds() {
        long base = Long.getLong("tandem.test.seed", 20261122L);
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            out.add(base + i);
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void property_randomStepSizes_noStepBeforePeersFinishEarlierSteps(long seed) {
        Random rnd = new Random(seed);
        int n = 2 + rnd.nextInt(5);
        long[] step = new long[n];
        int[] work = new int[n];
        String[] names = new String[n];
        for (int i = 0; i < n; i++) {
            step[i] = 1 + rnd.nextInt(20);
            work[i] = rnd.nextInt(3000);
            names[i] = "p" + i;
        }
        long horizon = 400;
        controller(names);
        // global event log: (sequence, participant, start?, now)
        AtomicLong seq = new AtomicLong();
        List<long[]> log = new CopyOnWriteArrayList<>();
        List<String> bad = new CopyOnWriteArrayList<>();
        List<CompletableFuture<ParticipantState>> done = new ArrayList<>();
        TimeSyncService[] tss = new TimeSyncService[n];
        for (int i = 0; i < n; i++) {
            Participant p = connect(names[i]);
            int id = i;
            DataPublisher pub = p.createDataPublisher("p", PubSubSpec.of("all", "m"), 0);
            LifecycleService lc = p.createLifecycleService(OperationMode.COORDINATED);
            TimeSyncService ts = tss[i] = lc.createTimeSyncService();
            p.createDataSubscriber("s", PubSubSpec.of("all", ""), e -> {
                long mine = ts.now();
                if (mine != VirtualTime.INVALID_NS && e.timestampNs() < mine) {
                    bad.add(names[id] + " at " + mine + " received timestamp " + e.timestampNs());
                }
            });
            Random local = new Random(seed * 31 + i);
            ts.setSimulationStepHandler((now, d) -> {
                log.add(new long[] {seq.incrementAndGet(), id, 1, now});
                if (now % step[id] != 0) {
                    bad.add(names[id] + " now " + now + " not a multiple of " + step[id]);
                }
                busy(local.nextInt(work[id] + 1));
                pub.publish(longs(now));
                log.add(new long[] {seq.incrementAndGet(), id, 0, now});
                if (id == 0 && now + step[0] > horizon) {
                    lc.stop("horizon");
                }
            }, step[i]);
            done.add(lc.startLifecycle());
        }
        for (CompletableFuture<ParticipantState> f : done) {
            assertThat(await(f)).isEqualTo(ParticipantState.SHUTDOWN);
        }
        // every start of P at t comes after the end of every step of Q that started before t
        Map<String, Long> endSeq = new ConcurrentHashMap<>();
        for (long[] e : log) {
            if (e[2] == 0) {
                endSeq.put(e[1] + "@" + e[3], e[0]);
            }
        }
        for (long[] s : log) {
            if (s[2] != 1) {
                continue;
            }
            for (long[] q : log) {
                if (q[2] == 1 && q[1] != s[1] && q[3] < s[3]) {
                    Long end = endSeq.get(q[1] + "@" + q[3]);
                    if (end == null || end > s[0]) {
                        bad.add("p" + s[1] + " started " + s[3] + " before p" + q[1] + " finished its step at " + q[3]);
                    }
                }
            }
        }
        assertThat(bad).as("seed %d, n=%d, steps=%s", seed, n, java.util.Arrays.toString(step)).isEmpty();
        assertThat(log).isNotEmpty();
    }

    /** Burns roughly {@code iterations} short spins (no sleeping). */
    static void busy(int iterations) {
        for (int i = 0; i < iterations; i++) {
            Thread.onSpinWait();
        }
    }

    @Test
    void systemError_coordinatedParticipantsStopAdvancing() {
        controller("a", "b", "watchdog");
        LifecycleService watchdog = connect("watchdog").createLifecycleService(OperationMode.COORDINATED);
        List<String> stepsAfterError = new CopyOnWriteArrayList<>();
        List<LifecycleService> lcs = new ArrayList<>();
        List<CompletableFuture<ParticipantState>> done = new ArrayList<>();
        CompletableFuture<Void> bothSawError = new CompletableFuture<>();
        AtomicInteger sawError = new AtomicInteger();
        for (String n : List.of("a", "b")) {
            Participant p = connect(n);
            boolean[] errorSeen = {false};
            // the monitor handler and the step handler run on the same thread: no step may follow
            p.createSystemMonitor().addSystemStateHandler(s -> {
                if (s == SystemState.ERROR && !errorSeen[0]) {
                    errorSeen[0] = true;
                    if (sawError.incrementAndGet() == 2) {
                        bothSawError.complete(null);
                    }
                }
            });
            LifecycleService lc = synced(p, MS, (now, d) -> {
                if (errorSeen[0]) {
                    stepsAfterError.add(n + "@" + now);
                }
                if (n.equals("a") && now == 20 * MS) {
                    watchdog.reportError("watchdog tripped");
                }
            });
            lcs.add(lc);
            done.add(lc.startLifecycle());
        }
        watchdog.startLifecycle();
        await(bothSawError);
        for (LifecycleService lc : lcs) {
            lc.stop("after error");
        }
        for (CompletableFuture<ParticipantState> f : done) {
            assertThat(await(f)).isEqualTo(ParticipantState.SHUTDOWN);
        }
        assertThat(stepsAfterError).isEmpty();
    }
}
