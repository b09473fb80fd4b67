package io.tandem.cosim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.cosim.pubsub.DataPublisher;
import io.tandem.cosim.pubsub.PubSubSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Lifecycle, system state, controller and monitor behaviour (SIL Kit ITest_Orchestration,
 * ITest_CommunicationGuarantees, ITest_Internals_ParticipantModes, Test_LifecycleService).
 * Everything is awaited through futures and handlers; nothing sleeps.
 */
public abstract class LifecycleContract extends ContractBase {

    /** Completes when the participant named {@code who} reaches {@code state}, seen by {@code observer}. */
    private static CompletableFuture<ParticipantStatus> when(Participant observer, String who, ParticipantState state) {
        CompletableFuture<ParticipantStatus> f = new CompletableFuture<>();
        observer.createSystemMonitor().addParticipantStatusHandler(s -> {
            if (s.participantName().equals(who) && s.state() == state) {
                f.complete(s);
            }
        });
        return f;
    }

    private static CompletableFuture<SystemState> whenSystem(Participant observer, SystemState state) {
        CompletableFuture<SystemState> f = new CompletableFuture<>();
        observer.createSystemMonitor().addSystemStateHandler(s -> {
            if (s == state) {
                f.complete(s);
            }
        });
        return f;
    }

    @Test
    void coordinated_fullLifecycle_walksEveryStateInOrder() {
        Participant ctl = controller("a", "b");
        Map<String, List<ParticipantState>> seen = new ConcurrentHashMap<>();
        List<SystemState> system = new CopyOnWriteArrayList<>();
        SystemMonitor mon = ctl.createSystemMonitor();
        mon.addParticipantStatusHandler(s -> seen.computeIfAbsent(s.participantName(), k -> new CopyOnWriteArrayList<>()).add(s.state()));
        mon.addSystemStateHandler(system::add);
        List<String> handlers = new CopyOnWriteArrayList<>();
        List<CompletableFuture<ParticipantState>> done = new ArrayList<>();
        LifecycleService[] lcs = new LifecycleService[2];
        for (int i = 0; i < 2; i++) {
            String name = i == 0 ? "a" : "b";
            Participant p = connect(name);
            LifecycleService lc = lcs[i] = p.createLifecycleService(OperationMode.COORDINATED);
            lc.setCommunicationReadyHandler(() -> handlers.add(name + ":commReady:" + lc.state()));
            lc.setStartingHandler(() -> handlers.add(name + ":starting:" + lc.state()));
            lc.setStopHandler(() -> handlers.add(name + ":stop:" + lc.state()));
            lc.setShutdownHandler(() -> handlers.add(name + ":shutdown:" + lc.state()));
            done.add(lc.startLifecycle());
        }
        await(when(ctl, "a", ParticipantState.RUNNING));
        await(when(ctl, "b", ParticipantState.RUNNING));
        await(whenSystem(ctl, SystemState.RUNNING));
        lcs[1].stop("test over");
        for (CompletableFuture<ParticipantState> f : done) {
            assertThat(await(f)).isEqualTo(ParticipantState.SHUTDOWN);
        }
        await(whenSystem(ctl, SystemState.SHUTDOWN));
        List<ParticipantState> expected = List.of(ParticipantState.SERVICES_CREATED,
                ParticipantState.COMMUNICATION_INITIALIZING, ParticipantState.COMMUNICATION_INITIALIZED,
                ParticipantState.READY_TO_RUN, ParticipantState.RUNNING, ParticipantState.STOPPING,
                ParticipantState.STOPPED, ParticipantState.SHUTTING_DOWN, ParticipantState.SHUTDOWN);
        assertThat(seen.get("a")).isEqualTo(expected);
        assertThat(seen.get("b")).isEqualTo(expected);
        assertThat(system).startsWith(SystemState.INVALID);
        assertThat(system).containsSubsequence(SystemState.SERVICES_CREATED, SystemState.COMMUNICATION_INITIALIZED,
                SystemState.READY_TO_RUN, SystemState.RUNNING, SystemState.STOPPING, SystemState.SHUTDOWN);
        for (String n : List.of("a", "b")) {
            assertThat(handlers).containsSubsequence(n + ":commReady:COMMUNICATION_INITIALIZED",
                    n + ":starting:READY_TO_RUN", n + ":stop:STOPPING", n + ":shutdown:SHUTTING_DOWN");
        }
    }

    @Test
    void coordinated_withoutWorkflowConfiguration_staysInServicesCreated() {
        Participant p = connect("lonely");
        LifecycleService lc = p.createLifecycleService(OperationMode.COORDINATED);
        Participant observer = connect("observer");
        CompletableFuture<ParticipantStatus> created = when(observer, "lonely", ParticipantState.SERVICES_CREATED);
        lc.startLifecycle();
        await(created);
        // a later configuration naming it lets it proceed: the state was waiting, not stuck
        CompletableFuture<ParticipantStatus> running = when(observer, "lonely", ParticipantState.RUNNING);
        assertThat(lc.state()).isEqualTo(ParticipantState.SERVICES_CREATED);
        observer.createSystemController().setWorkflowConfiguration(List.of("lonely"));
        await(running);
    }

    @Test
    void coordinated_notRequired_entersError() {
        Participant ctl = controller("someoneElse");
        Participant p = connect("p");
        LifecycleService lc = p.createLifecycleService(OperationMode.COORDINATED);
        CompletableFuture<ParticipantStatus> error = when(ctl, "p", ParticipantState.ERROR);
        lc.startLifecycle();
        assertThat(await(error).reason()).contains("not in the required participants");
    }

    @Test
    void nullOperationMode_throwsConfigurationError() {
        Participant p = connect("p");
        assertThatThrownBy(() -> p.createLifecycleService(null)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("operation mode");
    }

    @Test
    void createLifecycleServiceTwice_throws() {
        Participant p = connect("p");
        p.createLifecycleService(OperationMode.AUTONOMOUS);
        assertThatThrownBy(() -> p.createLifecycleService(OperationMode.AUTONOMOUS)).isInstanceOf(ConfigurationException.class);
    }

    @Test
    void createTimeSyncServiceTwice_throws() {
        LifecycleService lc = connect("p").createLifecycleService(OperationMode.AUTONOMOUS);
        lc.createTimeSyncService();
        assertThatThrownBy(lc::createTimeSyncService).isInstanceOf(ConfigurationException.class);
    }

    @Test
    void startLifecycleTwice_throwsIllegalState() {
        LifecycleService lc = connect("p").createLifecycleService(OperationMode.AUTONOMOUS);
        lc.startLifecycle();
        assertThatThrownBy(lc::startLifecycle).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("startLifecycle").hasMessageContaining("'p'");
    }

    @Test
    void stepSizeNotPositive_throws() {
        TimeSyncService ts = connect("p").createLifecycleService(OperationMode.AUTONOMOUS).createTimeSyncService();
        assertThatThrownBy(() -> ts.setSimulationStepHandler((n, d) -> { }, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("step size");
        assertThatThrownBy(() -> ts.setSimulationStepHandlerAsync((n, d) -> { }, -5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-5");
    }

    @Test
    void pause_outsideRunning_throwsAndEntersError() {
        Participant observer = connect("observer");
        LifecycleService lc = connect("p").createLifecycleService(OperationMode.AUTONOMOUS);
        assertThatThrownBy(() -> lc.pause("too early")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("RUNNING");
        assertThatThrownBy(lc::continueSimulation).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("PAUSED");
        CompletableFuture<ParticipantStatus> running = when(observer, "p", ParticipantState.RUNNING);
        lc.startLifecycle();
        await(running);
        CompletableFuture<ParticipantStatus> paused = when(observer, "p", ParticipantState.PAUSED);
        CompletableFuture<ParticipantStatus> error = when(observer, "p", ParticipantState.ERROR);
        lc.pause("first");
        await(paused);
        assertThatThrownBy(() -> lc.pause("second")).isInstanceOf(IllegalStateException.class);
        assertThat(await(error).reason()).contains("pause");
    }

    @Test
    void pauseAndContinue_timeStopsAndResumes() {
        Participant observer = connect("observer");
        Participant p = connect("p");
        LifecycleService lc = p.createLifecycleService(OperationMode.AUTONOMOUS);
        TimeSyncService ts = lc.createTimeSyncService();
        CompletableFuture<Long> pausedAt = new CompletableFuture<>();
        List<Long> nows = new CopyOnWriteArrayList<>();
        ts.setSimulationStepHandler((now, d) -> {
            nows.add(now);
            if (now == 3_000_000) {
                lc.pause("inspect");
                pausedAt.complete(now);
            }
            if (now == 6_000_000) {
                lc.stop("done");
            }
        }, 1_000_000);
        CompletableFuture<ParticipantStatus> paused = when(observer, "p", ParticipantState.PAUSED);
        CompletableFuture<ParticipantState> done = lc.startLifecycle();
        await(paused);
        assertThat(await(pausedAt)).isEqualTo(3_000_000L);
        assertThat(nows).containsExactly(0L, 1_000_000L, 2_000_000L, 3_000_000L);
        lc.continueSimulation();
        assertThat(await(done)).isEqualTo(ParticipantState.SHUTDOWN);
        assertThat(nows).containsExactly(0L, 1_000_000L, 2_000_000L, 3_000_000L, 4_000_000L, 5_000_000L, 6_000_000L);
    }

    @Test
    void autonomous_ignoresSystemState_runsWithoutConfigurationAndKeepsRunningWhenOthersStop() {
        Participant ctl = controller("coord");
        LifecycleService auto = connect("auto").createLifecycleService(OperationMode.AUTONOMOUS);
        CompletableFuture<ParticipantStatus> autoRunning = when(ctl, "auto", ParticipantState.RUNNING);
        auto.startLifecycle();
        await(autoRunning);
        LifecycleService coord = connect("coord").createLifecycleService(OperationMode.COORDINATED);
        CompletableFuture<ParticipantStatus> coordRunning = when(ctl, "coord", ParticipantState.RUNNING);
        CompletableFuture<ParticipantState> coordDone = coord.startLifecycle();
        await(coordRunning);
        coord.stop("coordinated part done");
        await(coordDone);
        await(whenSystem(ctl, SystemState.SHUTDOWN));
        assertThat(auto.state()).isEqualTo(ParticipantState.RUNNING);
    }

    @Test
    void errorFromHandler_entersError_thenStopShutsDown() {
        Participant observer = connect("observer");
        LifecycleService lc = connect("p").createLifecycleService(OperationMode.AUTONOMOUS);
        lc.setCommunicationReadyHandler(() -> {
            throw new IllegalStateException("cannot open device");
        });
        CompletableFuture<ParticipantStatus> error = when(observer, "p", ParticipantState.ERROR);
        CompletableFuture<ParticipantState> done = lc.startLifecycle();
        assertThat(await(error).reason()).contains("cannot open device");
        lc.stop("give up");
        assertThat(await(done)).isEqualTo(ParticipantState.SHUTDOWN);
    }

    @Test
    void reportError_beforeStart_ignored_afterStart_entersError() {
        Participant observer = connect("observer");
        LifecycleService lc = connect("p").createLifecycleService(OperationMode.AUTONOMOUS);
        lc.reportError("early");
        CompletableFuture<ParticipantStatus> running = when(observer, "p", ParticipantState.RUNNING);
        lc.startLifecycle();
        await(running);
        CompletableFuture<ParticipantStatus> error = when(observer, "p", ParticipantState.ERROR);
        lc.reportError("sensor failed");
        assertThat(await(error).reason()).isEqualTo("sensor failed");
    }

    @Test
    void requiredParticipantError_systemStateError() {
        Participant ctl = controller("a", "b");
        LifecycleService a = connect("a").createLifecycleService(OperationMode.COORDINATED);
        connect("b").createLifecycleService(OperationMode.COORDINATED).startLifecycle();
        a.startLifecycle();
        await(whenSystem(ctl, SystemState.RUNNING));
        CompletableFuture<SystemState> error = whenSystem(ctl, SystemState.ERROR);
        a.reportError("broken");
        await(error);
    }

    @Test
    void requiredParticipantDisconnects_systemStateErrorWithConnectionLost() {
        Participant ctl = controller("a", "b");
        Participant pa = connect("a");
        pa.createLifecycleService(OperationMode.COORDINATED).startLifecycle();
        connect("b").createLifecycleService(OperationMode.COORDINATED).startLifecycle();
        await(whenSystem(ctl, SystemState.RUNNING));
        CompletableFuture<SystemState> error = whenSystem(ctl, SystemState.ERROR);
        CompletableFuture<ParticipantStatus> lost = when(ctl, "a", ParticipantState.ERROR);
        pa.close();
        await(error);
        assertThat(await(lost).reason()).isEqualTo("Connection Lost");
    }

    /** Where the surviving coordinated participants are when a required participant is lost. */
    enum LossPoint { SERVICES_CREATED, RUNNING, PAUSED, ERROR }

    /**
     * Issue 4: a lost required participant (here closed before Shutdown, which every transport
     * reports as "Connection Lost") ends every coordinated lifecycle in a defined way instead of
     * leaving it waiting with virtual time halted: Error naming the lost participant, then
     * ShuttingDown (shutdown handler, no stop handler) and Shutdown, where the future completes.
     */
    @ParameterizedTest
    @EnumSource(LossPoint.class)
    void requiredParticipantLost_coordinatedParticipantsEnterErrorNamingItAndShutDown(LossPoint point) {
        // "absent" never connects, so the system state stays Invalid and everyone waits in ServicesCreated
        Participant ctl = point == LossPoint.SERVICES_CREATED ? controller("a", "b", "lost", "absent")
                : controller("a", "b", "lost");
        Map<String, List<ParticipantStatus>> seen = new ConcurrentHashMap<>();
        List<SystemState> system = new CopyOnWriteArrayList<>();
        ctl.createSystemMonitor().addParticipantStatusHandler(
                s -> seen.computeIfAbsent(s.participantName(), k -> new CopyOnWriteArrayList<>()).add(s));
        ctl.createSystemMonitor().addSystemStateHandler(system::add);
        List<String> handlers = new CopyOnWriteArrayList<>();
        Map<String, LifecycleService> lcs = new ConcurrentHashMap<>();
        Map<String, CompletableFuture<ParticipantState>> done = new ConcurrentHashMap<>();
        Participant lost = null;
        for (String n : List.of("a", "b", "lost")) {
            Participant p = connect(n);
            LifecycleService lc = p.createLifecycleService(OperationMode.COORDINATED);
            lc.createTimeSyncService().setSimulationStepHandler((now, d) -> { }, 1_000_000);
            lc.setStopHandler(() -> handlers.add(n + ":stop"));
            lc.setShutdownHandler(() -> handlers.add(n + ":shutdown:" + lc.state()));
            lcs.put(n, lc);
            if (n.equals("lost")) {
                lost = p;
            }
        }
        ParticipantState reached = point == LossPoint.SERVICES_CREATED ? ParticipantState.SERVICES_CREATED
                : ParticipantState.RUNNING;
        List<CompletableFuture<ParticipantStatus>> there = new ArrayList<>();
        for (String n : List.of("a", "b", "lost")) {
            there.add(when(ctl, n, reached));
        }
        for (String n : List.of("a", "b", "lost")) {
            done.put(n, lcs.get(n).startLifecycle());
        }
        there.forEach(this::await);
        if (point == LossPoint.PAUSED) {
            CompletableFuture<ParticipantStatus> paused = when(ctl, "a", ParticipantState.PAUSED);
            lcs.get("a").pause("hold");
            await(paused);
        } else if (point == LossPoint.ERROR) {
            CompletableFuture<ParticipantStatus> failed = when(ctl, "a", ParticipantState.ERROR);
            lcs.get("a").reportError("sensor failed");
            await(failed);
        }
        CompletableFuture<SystemState> systemError = whenSystem(ctl, SystemState.ERROR);
        lost.close();

        await(systemError);
        for (String n : List.of("a", "b")) {
            assertThat(await(done.get(n))).as(n).isEqualTo(ParticipantState.SHUTDOWN);
            assertThat(lcs.get(n).state()).isEqualTo(ParticipantState.SHUTDOWN);
        }
        await(when(ctl, "a", ParticipantState.SHUTDOWN));
        await(when(ctl, "b", ParticipantState.SHUTDOWN));
        assertThat(seen.get("lost")).extracting(ParticipantStatus::state).last().isEqualTo(ParticipantState.ERROR);
        assertThat(seen.get("lost").get(seen.get("lost").size() - 1).reason()).isEqualTo("Connection Lost");
        for (String n : List.of("a", "b")) {
            List<ParticipantStatus> statuses = seen.get(n);
            assertThat(statuses).extracting(ParticipantStatus::state).as(n).endsWith(ParticipantState.ERROR,
                    ParticipantState.SHUTTING_DOWN, ParticipantState.SHUTDOWN);
            ParticipantStatus error = statuses.get(statuses.size() - 3);
            if (point == LossPoint.ERROR && n.equals("a")) {
                // already in Error: it keeps its reason and shuts down, naming the loss there
                assertThat(error.reason()).isEqualTo("sensor failed");
                assertThat(statuses.get(statuses.size() - 2).reason()).contains("participant 'lost' lost its connection");
            } else {
                assertThat(error.reason()).as(n).startsWith("participant 'lost' lost its connection");
            }
            assertThat(handlers).as("the shutdown handler runs in ShuttingDown, the stop handler not at all")
                    .contains(n + ":shutdown:SHUTTING_DOWN").doesNotContain(n + ":stop");
        }
        assertThat(system).as("the system state stays Error").last().isEqualTo(SystemState.ERROR);
    }

    @Test
    void requiredParticipantLost_autonomousParticipantKeepsRunning() {
        Participant ctl = controller("a", "lost");
        LifecycleService a = connect("a").createLifecycleService(OperationMode.COORDINATED);
        Participant lost = connect("lost");
        LifecycleService lostLc = lost.createLifecycleService(OperationMode.COORDINATED);
        LifecycleService auto = connect("auto").createLifecycleService(OperationMode.AUTONOMOUS);
        AtomicLong autoNow = new AtomicLong(-1);
        auto.createTimeSyncService().setSimulationStepHandler((now, d) -> autoNow.set(now), 1_000_000);
        CompletableFuture<SystemState> running = whenSystem(ctl, SystemState.RUNNING);
        CompletableFuture<ParticipantStatus> autoRunning = when(ctl, "auto", ParticipantState.RUNNING);
        CompletableFuture<ParticipantState> aDone = a.startLifecycle();
        lostLc.startLifecycle();
        CompletableFuture<ParticipantState> autoDone = auto.startLifecycle();
        await(running);
        await(autoRunning);
        CompletableFuture<SystemState> systemError = whenSystem(ctl, SystemState.ERROR);
        lost.close();

        await(systemError);
        assertThat(await(aDone)).isEqualTo(ParticipantState.SHUTDOWN);
        long before = autoNow.get();
        awaitValue(autoNow, before + 5_000_000);
        assertThat(auto.state()).isEqualTo(ParticipantState.RUNNING);
        auto.stop("done");
        assertThat(await(autoDone)).isEqualTo(ParticipantState.SHUTDOWN);
    }

    @Test
    void nonRequiredParticipantLost_coordinatedParticipantsKeepRunning() {
        Participant ctl = controller("a", "b");
        LifecycleService a = connect("a").createLifecycleService(OperationMode.COORDINATED);
        LifecycleService b = connect("b").createLifecycleService(OperationMode.COORDINATED);
        AtomicLong aNow = new AtomicLong(-1);
        a.createTimeSyncService().setSimulationStepHandler((now, d) -> aNow.set(now), 1_000_000);
        b.createTimeSyncService().setSimulationStepHandler((now, d) -> { }, 1_000_000);
        Participant guest = connect("guest");
        guest.createLifecycleService(OperationMode.AUTONOMOUS).startLifecycle();
        List<SystemState> system = new CopyOnWriteArrayList<>();
        ctl.createSystemMonitor().addSystemStateHandler(system::add);
        CompletableFuture<SystemState> running = whenSystem(ctl, SystemState.RUNNING);
        CompletableFuture<ParticipantStatus> guestRunning = when(ctl, "guest", ParticipantState.RUNNING);
        CompletableFuture<ParticipantState> aDone = a.startLifecycle();
        CompletableFuture<ParticipantState> bDone = b.startLifecycle();
        await(running);
        await(guestRunning);
        CompletableFuture<ParticipantStatus> guestLost = when(ctl, "guest", ParticipantState.ERROR);
        guest.close();

        assertThat(await(guestLost).reason()).isEqualTo("Connection Lost");
        long before = aNow.get();
        awaitValue(aNow, before + 5_000_000);
        assertThat(a.state()).isEqualTo(ParticipantState.RUNNING);
        assertThat(b.state()).isEqualTo(ParticipantState.RUNNING);
        assertThat(system).doesNotContain(SystemState.ERROR);
        b.stop("done");
        assertThat(await(aDone)).isEqualTo(ParticipantState.SHUTDOWN);
        assertThat(await(bDone)).isEqualTo(ParticipantState.SHUTDOWN);
    }

    @Test
    void reportError_whileShuttingDown_ignoredAndLifecycleReachesShutdown() {
        Participant ctl = connect("controller");
        LifecycleService lc = connect("p").createLifecycleService(OperationMode.AUTONOMOUS);
        lc.setShutdownHandler(() -> lc.reportError("too late"));
        List<ParticipantState> seen = new CopyOnWriteArrayList<>();
        ctl.createSystemMonitor().addParticipantStatusHandler(s -> {
            if (s.participantName().equals("p")) {
                seen.add(s.state());
            }
        });
        CompletableFuture<ParticipantStatus> running = when(ctl, "p", ParticipantState.RUNNING);
        CompletableFuture<ParticipantState> done = lc.startLifecycle();
        await(running);
        lc.stop("done");
        assertThat(await(done)).isEqualTo(ParticipantState.SHUTDOWN);
        await(when(ctl, "p", ParticipantState.SHUTDOWN));
        assertThat(seen).doesNotContain(ParticipantState.ERROR);
    }

    /** Waits (spinning, no sleep) until {@code value} reaches {@code target}. */
    private void awaitValue(AtomicLong value, long target) {
        await(CompletableFuture.runAsync(() -> {
            while (value.get() < target) {
                Thread.onSpinWait();
            }
        }));
    }

    /** Where a participant is held when the abort comes. */
    enum AbortPoint { BEFORE_START, SERVICES_CREATED, COMMUNICATION_INITIALIZED, READY_TO_RUN, RUNNING, PAUSED, ERROR }

    @ParameterizedTest
    @EnumSource(AbortPoint.class)
    void abort_inEachState_abortHandlerSeesStateAndParticipantShutsDown(AbortPoint point) {
        Participant ctl = connect("controller");
        Participant p = connect("p");
        LifecycleService lc = p.createLifecycleService(
                point == AbortPoint.SERVICES_CREATED || point == AbortPoint.READY_TO_RUN
                        ? OperationMode.COORDINATED : OperationMode.AUTONOMOUS);
        CompletableFuture<ParticipantState> abortedFrom = new CompletableFuture<>();
        List<String> shutdownHandlerCalls = new CopyOnWriteArrayList<>();
        lc.setAbortHandler(abortedFrom::complete);
        lc.setShutdownHandler(() -> shutdownHandlerCalls.add("called"));
        ParticipantState expected;
        CompletableFuture<ParticipantState> done;
        switch (point) {
            case BEFORE_START -> {
                ctl.createSystemController().abortSimulation();
                // the abort reaches p before it starts; it is remembered
                connect("probe").close();
                done = lc.startLifecycle();
                expected = ParticipantState.INVALID;
            }
            case SERVICES_CREATED -> {
                CompletableFuture<ParticipantStatus> at = when(ctl, "p", ParticipantState.SERVICES_CREATED);
                done = lc.startLifecycle();
                await(at);
                expected = ParticipantState.SERVICES_CREATED;
            }
            case COMMUNICATION_INITIALIZED -> {
                lc.setCommunicationReadyHandlerAsync(() -> { });
                CompletableFuture<ParticipantStatus> at = when(ctl, "p", ParticipantState.COMMUNICATION_INITIALIZED);
                done = lc.startLifecycle();
                await(at);
                expected = ParticipantState.COMMUNICATION_INITIALIZED;
            }
            case READY_TO_RUN -> {
                // "other" never completes its async communication-ready handler, so the system
                // state stays below ReadyToRun and p waits in ReadyToRun
                ctl.createSystemController().setWorkflowConfiguration(List.of("p", "other"));
                LifecycleService other = connect("other").createLifecycleService(OperationMode.COORDINATED);
                other.setCommunicationReadyHandlerAsync(() -> { });
                other.startLifecycle();
                CompletableFuture<ParticipantStatus> at = when(ctl, "p", ParticipantState.READY_TO_RUN);
                done = lc.startLifecycle();
                await(at);
                expected = ParticipantState.READY_TO_RUN;
            }
            case RUNNING, PAUSED, ERROR -> {
                CompletableFuture<ParticipantStatus> at = when(ctl, "p", ParticipantState.RUNNING);
                done = lc.startLifecycle();
                await(at);
                if (point == AbortPoint.PAUSED) {
                    CompletableFuture<ParticipantStatus> paused = when(ctl, "p", ParticipantState.PAUSED);
                    lc.pause("hold");
                    await(paused);
                    expected = ParticipantState.PAUSED;
                } else if (point == AbortPoint.ERROR) {
                    CompletableFuture<ParticipantStatus> err = when(ctl, "p", ParticipantState.ERROR);
                    lc.reportError("failure");
                    await(err);
                    expected = ParticipantState.ERROR;
                } else {
                    expected = ParticipantState.RUNNING;
                }
            }
            default -> throw new AssertionError(point);
        }
        if (point != AbortPoint.BEFORE_START) {
            ctl.createSystemController().abortSimulation();
        }
        assertThat(await(done)).isEqualTo(ParticipantState.SHUTDOWN);
        assertThat(await(abortedFrom)).isEqualTo(expected);
        assertThat(shutdownHandlerCalls).as("abort skips ShuttingDown and the shutdown handler").isEmpty();
    }

    @Test
    void controllerParticipantStops_allCoordinatedShutDown_seenByAutonomousMonitor() {
        Participant ctlP = connect("controller");
        ctlP.createSystemController().setWorkflowConfiguration(List.of("controller", "a", "b"));
        LifecycleService ctlLc = ctlP.createLifecycleService(OperationMode.COORDINATED);
        Participant monitor = connect("monitor");
        monitor.createLifecycleService(OperationMode.AUTONOMOUS).startLifecycle();
        CompletableFuture<ParticipantStatus> aDown = when(monitor, "a", ParticipantState.SHUTDOWN);
        CompletableFuture<ParticipantStatus> bDown = when(monitor, "b", ParticipantState.SHUTDOWN);
        CompletableFuture<SystemState> sysDown = whenSystem(monitor, SystemState.SHUTDOWN);
        List<CompletableFuture<ParticipantState>> done = new ArrayList<>();
        for (String n : List.of("a", "b")) {
            LifecycleService lc = connect(n).createLifecycleService(OperationMode.COORDINATED);
            lc.createTimeSyncService().setSimulationStepHandler((now, d) -> { }, 1_000_000);
            done.add(lc.startLifecycle());
        }
        done.add(ctlLc.startLifecycle());
        await(whenSystem(monitor, SystemState.RUNNING));
        ctlLc.stop("user pressed stop");
        for (CompletableFuture<ParticipantState> f : done) {
            assertThat(await(f)).isEqualTo(ParticipantState.SHUTDOWN);
        }
        await(aDown);
        await(bDown);
        await(sysDown);
    }

    @Test
    void systemStateHandler_calledAtOnceWithCurrentState() {
        Participant p = connect("p");
        BlockingQueue<SystemState> q = new LinkedBlockingQueue<>();
        p.createSystemMonitor().addSystemStateHandler(q::add);
        assertThat(q.poll()).isEqualTo(SystemState.INVALID);
    }

    @Test
    void statusHandler_replaysKnownStatusesOnRegistration() {
        Participant ctl = connect("observer");
        LifecycleService lc = connect("p").createLifecycleService(OperationMode.AUTONOMOUS);
        CompletableFuture<ParticipantStatus> running = when(ctl, "p", ParticipantState.RUNNING);
        lc.startLifecycle();
        await(running);
        List<ParticipantStatus> replayed = new ArrayList<>();
        ctl.createSystemMonitor().addParticipantStatusHandler(replayed::add);
        assertThat(replayed).extracting(ParticipantStatus::participantName, ParticipantStatus::state)
                .contains(org.assertj.core.groups.Tuple.tuple("p", ParticipantState.RUNNING));
        assertThat(ctl.createSystemMonitor().participantStatus("p").state()).isEqualTo(ParticipantState.RUNNING);
    }

    // ---------------------------------------------------------------- communication guarantees

    /** Subscriber that completes once it has {@code n} messages. */
    private static CompletableFuture<List<String>> collect(Participant p, String topic, int n) {
        CompletableFuture<List<String>> f = new CompletableFuture<>();
        List<String> got = new CopyOnWriteArrayList<>();
        p.createDataSubscriber("sub-" + topic, PubSubSpec.of(topic, ""), e -> {
            got.add(new String(e.data(), StandardCharsets.UTF_8));
            if (got.size() == n) {
                f.complete(got);
            }
        });
        return f;
    }

    @Test
    void communicationReady_coordinated_publicationsReachEarlierSubscribers() {
        controller("pub");
        CompletableFuture<List<String>> a = collect(connect("subA"), "t", 1);
        CompletableFuture<List<String>> b = collect(connect("subB"), "t", 1);
        Participant pub = connect("pub");
        DataPublisher p = pub.createDataPublisher("p", PubSubSpec.of("t", "m"), 0);
        LifecycleService lc = pub.createLifecycleService(OperationMode.COORDINATED);
        lc.setCommunicationReadyHandler(() -> p.publish("ready".getBytes(StandardCharsets.UTF_8)));
        lc.startLifecycle();
        assertThat(await(a)).containsExactly("ready");
        assertThat(await(b)).containsExactly("ready");
    }

    @Test
    void communicationReady_asyncAutonomousAfterSubscriber_publicationsArrive() {
        CompletableFuture<List<String>> got = collect(connect("sub"), "t", 1);
        Participant pub = connect("pub");
        DataPublisher p = pub.createDataPublisher("p", PubSubSpec.of("t", "m"), 0);
        LifecycleService lc = pub.createLifecycleService(OperationMode.AUTONOMOUS);
        lc.setCommunicationReadyHandlerAsync(() -> {
            p.publish("async-ready".getBytes(StandardCharsets.UTF_8));
            lc.completeCommunicationReadyHandlerAsync();
        });
        lc.startLifecycle();
        assertThat(await(got)).containsExactly("async-ready");
    }

    @Test
    void communicationReady_autonomousLateJoinerIntoRunningCoordinatedSim_publicationsArrive() {
        Participant ctl = controller("coord");
        Participant coordP = connect("coord");
        CompletableFuture<List<String>> got = collect(coordP, "late", 1);
        LifecycleService coord = coordP.createLifecycleService(OperationMode.COORDINATED);
        coord.createTimeSyncService().setSimulationStepHandler((now, d) -> { }, 1_000_000);
        coord.startLifecycle();
        await(whenSystem(ctl, SystemState.RUNNING));
        Participant late = connect("late");
        DataPublisher p = late.createDataPublisher("p", PubSubSpec.of("late", "m"), 0);
        LifecycleService lc = late.createLifecycleService(OperationMode.AUTONOMOUS);
        lc.setCommunicationReadyHandler(() -> p.publish("hello from late".getBytes(StandardCharsets.UTF_8)));
        lc.startLifecycle();
        assertThat(await(got)).containsExactly("hello from late");
    }

    @Test
    void communicationReady_hundredPublishersPerSide_allMessagesArrive() {
        controller("left", "right");
        Participant left = connect("left");
        Participant right = connect("right");
        Map<String, Integer> counts = new ConcurrentHashMap<>();
        List<CompletableFuture<?>> all = new ArrayList<>();
        for (Participant[] pair : new Participant[][] {{left, right}, {right, left}}) {
            Participant from = pair[0];
            Participant to = pair[1];
            all.add(collect(to, from.name() + "-topic", 100));
            to.createDataSubscriber("count", PubSubSpec.of(from.name() + "-topic", ""),
                    e -> counts.merge(to.name(), 1, Integer::sum));
        }
        List<CompletableFuture<ParticipantState>> done = new ArrayList<>();
        for (Participant from : List.of(left, right)) {
            List<DataPublisher> pubs = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                pubs.add(from.createDataPublisher("p" + i, PubSubSpec.of(from.name() + "-topic", "m"), 0));
            }
            LifecycleService lc = from.createLifecycleService(OperationMode.COORDINATED);
            lc.setCommunicationReadyHandler(() -> {
                for (int i = 0; i < 100; i++) {
                    pubs.get(i).publish(("m" + i).getBytes(StandardCharsets.UTF_8));
                }
            });
            done.add(lc.startLifecycle());
        }
        try {
            CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0])).get(WAIT_S, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("not all arrived: " + left.name() + "=" + counts.get(left.name()) + ", "
                    + right.name() + "=" + counts.get(right.name()), e);
        }
    }

    /** Which final handler publishes. */
    enum FinalHandler { STOP, SHUTDOWN, ABORT }

    @ParameterizedTest
    @EnumSource(FinalHandler.class)
    void finalHandlers_messagePublishedThere_receivedBeforeFinalState(FinalHandler which) {
        Participant receiver = connect("receiver");
        CompletableFuture<byte[]> got = new CompletableFuture<>();
        receiver.createDataSubscriber("s", PubSubSpec.of("last-words", ""), e -> got.complete(e.data()));
        Participant pub = connect("pub");
        DataPublisher p = pub.createDataPublisher("p", PubSubSpec.of("last-words", "m"), 0);
        LifecycleService lc = pub.createLifecycleService(OperationMode.AUTONOMOUS);
        byte[] big = new byte[10 * 1024 * 1024];
        big[big.length - 1] = 42;
        Runnable send = () -> p.publish(big);
        switch (which) {
            case STOP -> lc.setStopHandler(send);
            case SHUTDOWN -> lc.setShutdownHandler(send);
            case ABORT -> lc.setAbortHandler(s -> send.run());
        }
        CompletableFuture<ParticipantStatus> running = when(receiver, "pub", ParticipantState.RUNNING);
        CompletableFuture<Boolean> receivedWhenFinal = new CompletableFuture<>();
        receiver.createSystemMonitor().addParticipantStatusHandler(s -> {
            if (s.participantName().equals("pub") && s.state() == ParticipantState.SHUTDOWN) {
                receivedWhenFinal.complete(got.isDone());
            }
        });
        CompletableFuture<ParticipantState> done = lc.startLifecycle();
        await(running);
        if (which == FinalHandler.ABORT) {
            receiver.createSystemController().abortSimulation();
        } else {
            lc.stop("done");
        }
        assertThat(await(done)).isEqualTo(ParticipantState.SHUTDOWN);
        assertThat(got).as("the message arrived before the final state").isDone();
        assertThat(await(got)).hasSize(big.length);
        assertThat(await(receivedWhenFinal)).isTrue();
    }

    // ---------------------------------------------------------------- mode combinations

    /** How a participant takes part. */
    enum Kind { NONE, AUTONOMOUS, AUTONOMOUS_SYNC, COORDINATED, COORDINATED_SYNC }

    static List<Kind[]> modePairs() {
        List<Kind[]> out = new ArrayList<>();
        for (Kind a : Kind.values()) {
            for (Kind b : Kind.values()) {
                boolean mixedSync = (a == Kind.AUTONOMOUS_SYNC && b == Kind.COORDINATED_SYNC)
                        || (a == Kind.COORDINATED_SYNC && b == Kind.AUTONOMOUS_SYNC);
                if (!mixedSync) {
                    out.add(new Kind[] {a, b});
                }
            }
        }
        return out;
    }

    @Test
    void allModeCombinations_communicateBothWays() {
        for (Kind[] pair : modePairs()) {
            closeEverything();
            startTestRegistry();
            List<String> required = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                if (pair[i] == Kind.COORDINATED || pair[i] == Kind.COORDINATED_SYNC) {
                    required.add("p" + i);
                }
            }
            if (!required.isEmpty()) {
                controller(required.toArray(new String[0]));
            }
            Participant[] ps = {connect("p0"), connect("p1")};
            List<CompletableFuture<List<String>>> got = new ArrayList<>();
            DataPublisher[] pubs = new DataPublisher[2];
            for (int i = 0; i < 2; i++) {
                got.add(collect(ps[i], "to-p" + i, 1));
            }
            for (int i = 0; i < 2; i++) {
                pubs[i] = ps[i].createDataPublisher("p", PubSubSpec.of("to-p" + (1 - i), "m"), 1);
            }
            for (int i = 0; i < 2; i++) {
                start(pair[i], ps[i], pubs[i]);
            }
            for (int i = 0; i < 2; i++) {
                try {
                    assertThat(got.get(i).get(WAIT_S, TimeUnit.SECONDS)).hasSize(1);
                } catch (Exception e) {
                    throw new AssertionError(pair[1 - i] + " -> " + pair[i] + ": nothing received; " + List.of(ps), e);
                }
            }
        }
    }

    private static void start(Kind kind, Participant p, DataPublisher pub) {
        byte[] hello = ("hello from " + p.name()).getBytes(StandardCharsets.UTF_8);
        switch (kind) {
            case NONE -> pub.publish(hello);
            case AUTONOMOUS, COORDINATED -> {
                LifecycleService lc = p.createLifecycleService(
                        kind == Kind.AUTONOMOUS ? OperationMode.AUTONOMOUS : OperationMode.COORDINATED);
                lc.setStartingHandler(() -> pub.publish(hello));
                lc.startLifecycle();
            }
            case AUTONOMOUS_SYNC, COORDINATED_SYNC -> {
                LifecycleService lc = p.createLifecycleService(
                        kind == Kind.AUTONOMOUS_SYNC ? OperationMode.AUTONOMOUS : OperationMode.COORDINATED);
                TimeSyncService ts = lc.createTimeSyncService();
                // the first step, not "now == 0": an autonomous participant may hop on later in time
                boolean[] sent = {false};
                ts.setSimulationStepHandler((now, d) -> {
                    if (!sent[0]) {
                        sent[0] = true;
                        pub.publish(hello);
                    }
                }, 1_000_000);
                lc.startLifecycle();
            }
        }
    }

    @Test
    void handlers_allRunOnTheParticipantsOwnThread_oneAtATime() {
        Participant p = connect("p");
        Participant other = connect("other");
        DataPublisher toP = other.createDataPublisher("o", PubSubSpec.of("toP", "m"), 0);
        java.util.Set<Thread> threads = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.concurrent.atomic.AtomicInteger inside = new java.util.concurrent.atomic.AtomicInteger();
        List<String> overlaps = new CopyOnWriteArrayList<>();
        Runnable enter = () -> {
            threads.add(Thread.currentThread());
            if (inside.incrementAndGet() != 1) {
                overlaps.add("two handlers at once");
            }
            for (int i = 0; i < 200; i++) {
                Thread.onSpinWait();
            }
            inside.decrementAndGet();
        };
        p.createDataSubscriber("s", PubSubSpec.of("toP", ""), e -> enter.run());
        p.createSystemMonitor().addParticipantStatusHandler(s -> enter.run());
        LifecycleService lc = p.createLifecycleService(OperationMode.AUTONOMOUS);
        lc.setCommunicationReadyHandler(enter);
        lc.setStopHandler(enter);
        lc.setShutdownHandler(enter);
        lc.createTimeSyncService().setSimulationStepHandler((now, d) -> {
            enter.run();
            if (now == 50 * 1_000_000L) {
                lc.stop("done");
            }
        }, 1_000_000);
        CompletableFuture<ParticipantState> done = lc.startLifecycle();
        // another participant floods p with messages while it steps
        CompletableFuture<Void> flood = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < 2000 && !done.isDone(); i++) {
                toP.publish(new byte[8]);
            }
        });
        assertThat(await(done)).isEqualTo(ParticipantState.SHUTDOWN);
        await(flood);
        assertThat(overlaps).isEmpty();
        assertThat(threads).hasSize(1);
        assertThat(threads.iterator().next()).isNotSameAs(Thread.currentThread());
    }

    @Test
    void abort_afterShutdown_ignored() {
        Participant ctl = connect("controller");
        LifecycleService lc = connect("p").createLifecycleService(OperationMode.AUTONOMOUS);
        List<ParticipantState> aborts = new CopyOnWriteArrayList<>();
        lc.setAbortHandler(aborts::add);
        CompletableFuture<ParticipantStatus> running = when(ctl, "p", ParticipantState.RUNNING);
        CompletableFuture<ParticipantState> done = lc.startLifecycle();
        await(running);
        lc.stop("done");
        assertThat(await(done)).isEqualTo(ParticipantState.SHUTDOWN);
        ctl.createSystemController().abortSimulation();
        // a status round trip through p proves the abort command was processed before it
        CompletableFuture<ParticipantStatus> probe = new CompletableFuture<>();
        connect("probe").createSystemMonitor().addParticipantStatusHandler(s -> {
            if (s.participantName().equals("p")) {
                probe.complete(s);
            }
        });
        assertThat(await(probe).state()).isEqualTo(ParticipantState.SHUTDOWN);
        assertThat(lc.state()).isEqualTo(ParticipantState.SHUTDOWN);
        assertThat(aborts).isEmpty();
    }
}
