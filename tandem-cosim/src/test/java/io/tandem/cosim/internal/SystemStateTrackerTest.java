package io.tandem.cosim.internal;

import static io.tandem.cosim.ParticipantState.ABORTING;
import static io.tandem.cosim.ParticipantState.COMMUNICATION_INITIALIZED;
import static io.tandem.cosim.ParticipantState.COMMUNICATION_INITIALIZING;
import static io.tandem.cosim.ParticipantState.ERROR;
import static io.tandem.cosim.ParticipantState.INVALID;
import static io.tandem.cosim.ParticipantState.PAUSED;
import static io.tandem.cosim.ParticipantState.READY_TO_RUN;
import static io.tandem.cosim.ParticipantState.RUNNING;
import static io.tandem.cosim.ParticipantState.SERVICES_CREATED;
import static io.tandem.cosim.ParticipantState.SHUTDOWN;
import static io.tandem.cosim.ParticipantState.SHUTTING_DOWN;
import static io.tandem.cosim.ParticipantState.STOPPED;
import static io.tandem.cosim.ParticipantState.STOPPING;
import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.SystemState;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The system-state derivation (SIL Kit SystemStateTracker::ComputeSystemState, Test_SystemMonitor)
 * and the valid-transition table, driven directly: no threads, no clock.
 */
class SystemStateTrackerTest {

    private static SystemStateTracker tracker(String... required) {
        SystemStateTracker t = new SystemStateTracker();
        t.setRequired(List.of(required));
        return t;
    }

    /** Walks both required participants a, b to {@code s} along the normal path. */
    private static SystemStateTracker bothAt(ParticipantState s) {
        SystemStateTracker t = tracker("a", "b");
        List<ParticipantState> path = List.of(SERVICES_CREATED, COMMUNICATION_INITIALIZING, COMMUNICATION_INITIALIZED,
                READY_TO_RUN, RUNNING);
        for (ParticipantState p : path) {
            t.update("a", p);
            t.update("b", p);
            if (p == s) {
                return t;
            }
        }
        t.update("a", s);
        t.update("b", s);
        return t;
    }

    @Test
    void initial_isInvalid() {
        assertThat(new SystemStateTracker().systemState()).isEqualTo(SystemState.INVALID);
    }

    @Test
    void normalStartup_followsEarliestRequiredState() {
        SystemStateTracker t = tracker("a", "b");
        t.update("a", SERVICES_CREATED);
        assertThat(t.systemState()).as("b unknown blocks").isEqualTo(SystemState.INVALID);
        t.update("b", SERVICES_CREATED);
        assertThat(t.systemState()).isEqualTo(SystemState.SERVICES_CREATED);
        t.update("a", COMMUNICATION_INITIALIZING);
        assertThat(t.systemState()).as("lazy: b still ServicesCreated").isEqualTo(SystemState.SERVICES_CREATED);
        t.update("a", COMMUNICATION_INITIALIZED);
        t.update("b", COMMUNICATION_INITIALIZING);
        assertThat(t.systemState()).isEqualTo(SystemState.COMMUNICATION_INITIALIZING);
        t.update("b", COMMUNICATION_INITIALIZED);
        assertThat(t.systemState()).isEqualTo(SystemState.COMMUNICATION_INITIALIZED);
        t.update("a", READY_TO_RUN);
        t.update("b", READY_TO_RUN);
        assertThat(t.systemState()).isEqualTo(SystemState.READY_TO_RUN);
        t.update("a", RUNNING);
        assertThat(t.systemState()).isEqualTo(SystemState.READY_TO_RUN);
        t.update("b", RUNNING);
        assertThat(t.systemState()).isEqualTo(SystemState.RUNNING);
    }

    @Test
    void pausedIsDominant_andContinueReturnsToRunning() {
        SystemStateTracker t = bothAt(RUNNING);
        t.update("a", PAUSED);
        assertThat(t.systemState()).isEqualTo(SystemState.PAUSED);
        t.update("a", RUNNING);
        assertThat(t.systemState()).isEqualTo(SystemState.RUNNING);
    }

    @Test
    void stopCascade_stoppingThenStoppedThenShutdown() {
        SystemStateTracker t = bothAt(RUNNING);
        t.update("a", STOPPING);
        assertThat(t.systemState()).isEqualTo(SystemState.STOPPING);
        t.update("a", STOPPED);
        assertThat(t.systemState()).as("b still running: lazy").isEqualTo(SystemState.STOPPING);
        t.update("b", STOPPING);
        t.update("b", STOPPED);
        assertThat(t.systemState()).isEqualTo(SystemState.STOPPED);
        t.update("a", SHUTTING_DOWN);
        assertThat(t.systemState()).isEqualTo(SystemState.SHUTTING_DOWN);
        t.update("a", SHUTDOWN);
        assertThat(t.systemState()).isEqualTo(SystemState.SHUTTING_DOWN);
        t.update("b", SHUTTING_DOWN);
        t.update("b", SHUTDOWN);
        assertThat(t.systemState()).isEqualTo(SystemState.SHUTDOWN);
    }

    @Test
    void runningUpdate_withOthersStopped_yieldsStopped() {
        SystemStateTracker t = bothAt(RUNNING);
        t.update("b", STOPPING);
        t.update("b", STOPPED);
        // a re-announces Running while b is Stopped: the Running rule's cascade
        t.update("a", PAUSED);
        assertThat(t.systemState()).isEqualTo(SystemState.STOPPED);
        t.update("a", RUNNING);
        assertThat(t.systemState()).isEqualTo(SystemState.STOPPED);
    }

    @ParameterizedTest
    @EnumSource(value = ParticipantState.class, names = {"SERVICES_CREATED", "COMMUNICATION_INITIALIZING",
            "COMMUNICATION_INITIALIZED", "READY_TO_RUN", "RUNNING", "PAUSED", "STOPPING", "STOPPED", "SHUTTING_DOWN"})
    void error_fromEveryState_isImmediatelyDominant(ParticipantState from) {
        SystemStateTracker t = bothAt(from);
        t.update("b", ERROR);
        assertThat(t.systemState()).isEqualTo(SystemState.ERROR);
    }

    @ParameterizedTest
    @EnumSource(value = ParticipantState.class, names = {"SERVICES_CREATED", "READY_TO_RUN", "RUNNING", "PAUSED", "ERROR"})
    void aborting_fromEveryState_isImmediatelyDominant(ParticipantState from) {
        SystemStateTracker t = bothAt(from);
        t.update("a", ABORTING);
        assertThat(t.systemState()).isEqualTo(SystemState.ABORTING);
    }

    @Test
    void errorThenShutdown_shuttingDownAcceptsErrorPeers() {
        SystemStateTracker t = bothAt(RUNNING);
        t.update("a", ERROR);
        t.update("b", STOPPING);
        t.update("b", STOPPED);
        assertThat(t.systemState()).isEqualTo(SystemState.ERROR);
        t.update("b", SHUTTING_DOWN);
        assertThat(t.systemState()).as("ShuttingDown accepts Error").isEqualTo(SystemState.SHUTTING_DOWN);
    }

    @Test
    void nonRequiredParticipant_neverInfluences() {
        SystemStateTracker t = bothAt(RUNNING);
        assertThat(t.update("observer", ERROR)).isFalse();
        assertThat(t.systemState()).isEqualTo(SystemState.RUNNING);
    }

    @Test
    void setRequired_recomputesFromFirstRequiredState() {
        SystemStateTracker t = new SystemStateTracker();
        t.update("a", SERVICES_CREATED);
        assertThat(t.systemState()).isEqualTo(SystemState.INVALID);
        assertThat(t.setRequired(List.of("a"))).isTrue();
        assertThat(t.systemState()).isEqualTo(SystemState.SERVICES_CREATED);
    }

    @Test
    void remove_lastParticipant_appliesEmptyTrackerRules() {
        Map<SystemState, SystemState> expected = Map.of(
                SystemState.RUNNING, SystemState.INVALID,
                SystemState.ERROR, SystemState.ERROR,
                SystemState.SHUTDOWN, SystemState.SHUTDOWN,
                SystemState.SHUTTING_DOWN, SystemState.SHUTDOWN);
        for (Map.Entry<SystemState, SystemState> e : expected.entrySet()) {
            SystemStateTracker t = tracker("a");
            t.update("a", SERVICES_CREATED);
            t.update("a", COMMUNICATION_INITIALIZING);
            t.update("a", COMMUNICATION_INITIALIZED);
            t.update("a", READY_TO_RUN);
            t.update("a", RUNNING);
            switch (e.getKey()) {
                case ERROR -> t.update("a", ERROR);
                case SHUTTING_DOWN -> {
                    t.update("a", STOPPING);
                    t.update("a", STOPPED);
                    t.update("a", SHUTTING_DOWN);
                }
                case SHUTDOWN -> {
                    t.update("a", STOPPING);
                    t.update("a", STOPPED);
                    t.update("a", SHUTTING_DOWN);
                    t.update("a", SHUTDOWN);
                }
                default -> { }
            }
            assertThat(t.systemState()).isEqualTo(e.getKey());
            t.remove("a");
            assertThat(t.systemState()).as("after removing the last participant in %s", e.getKey()).isEqualTo(e.getValue());
        }
    }

    @Test
    void validTransitions_matchSilKitTableExactly() {
        Map<ParticipantState, Set<ParticipantState>> allowed = Map.ofEntries(
                Map.entry(SERVICES_CREATED, EnumSet.of(INVALID)),
                Map.entry(COMMUNICATION_INITIALIZING, EnumSet.of(SERVICES_CREATED)),
                Map.entry(COMMUNICATION_INITIALIZED, EnumSet.of(COMMUNICATION_INITIALIZING)),
                Map.entry(READY_TO_RUN, EnumSet.of(COMMUNICATION_INITIALIZED)),
                Map.entry(RUNNING, EnumSet.of(READY_TO_RUN, PAUSED)),
                Map.entry(PAUSED, EnumSet.of(RUNNING)),
                Map.entry(STOPPING, EnumSet.of(RUNNING, PAUSED)),
                Map.entry(STOPPED, EnumSet.of(STOPPING)),
                Map.entry(SHUTTING_DOWN, EnumSet.of(ERROR, STOPPED)),
                Map.entry(SHUTDOWN, EnumSet.of(SHUTTING_DOWN, ABORTING)),
                Map.entry(ABORTING, EnumSet.allOf(ParticipantState.class)),
                Map.entry(ERROR, EnumSet.allOf(ParticipantState.class)),
                Map.entry(INVALID, EnumSet.noneOf(ParticipantState.class)));
        for (ParticipantState next : ParticipantState.values()) {
            for (ParticipantState prev : ParticipantState.values()) {
                assertThat(SystemStateTracker.isValidTransition(prev, next))
                        .as("%s -> %s", prev, next).isEqualTo(allowed.get(next).contains(prev));
            }
        }
    }

    @Test
    void stateCodes_areSilKits() {
        assertThat(INVALID.code()).isZero();
        assertThat(SERVICES_CREATED.code()).isEqualTo(10);
        assertThat(RUNNING.code()).isEqualTo(50);
        assertThat(ERROR.code()).isEqualTo(90);
        assertThat(ABORTING.code()).isEqualTo(120);
        for (ParticipantState s : ParticipantState.values()) {
            assertThat(ParticipantState.fromCode(s.code())).isEqualTo(s);
            assertThat(SystemState.fromCode(s.code()).name()).isEqualTo(s.name());
        }
    }
}
