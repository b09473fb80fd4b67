package io.tandem.cosim.internal;

import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.SystemState;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/*
 * Implementation notes.
 *
 * Follows SIL Kit 5.0.8 SystemStateTracker::ComputeSystemState (see shared/specs/silkit.md 1(a)):
 * the system state is recomputed only when a required participant's state changes, and only from
 * that participant's new state PS: the state changes to X when every required participant is in
 * the set accepted for PS, otherwise the old system state is kept ("lazy"). Error and Aborting
 * are dominant; Paused and Stopping are dominant within their accepted sets. A required
 * participant without a known state blocks every change except the dominant ones.
 */

/**
 * Derives the {@link SystemState} from participant states. Not thread-safe: owned by one
 * participant's thread. Allocates only when participants or the required list change.
 */
final class SystemStateTracker {
    private final Map<String, ParticipantState> states = new LinkedHashMap<>();
    private final List<String> required = new ArrayList<>();
    private SystemState systemState = SystemState.INVALID;

    SystemState systemState() {
        return systemState;
    }

    ParticipantState stateOf(String name) {
        return states.get(name);
    }

    /**
     * Records a participant's new state.
     *
     * @return true if the system state changed
     */
    boolean update(String name, ParticipantState state) {
        states.put(name, state);
        if (!required.contains(name)) {
            return false;
        }
        return set(compute(state, systemState));
    }

    /**
     * Replaces the required list and recomputes from the first required participant's state.
     *
     * @return true if the system state changed
     */
    boolean setRequired(List<String> names) {
        required.clear();
        for (String n : names) {
            if (!required.contains(n)) {
                required.add(n);
            }
        }
        if (required.isEmpty()) {
            return false;
        }
        ParticipantState first = states.get(required.get(0));
        return first != null && set(compute(first, systemState));
    }

    /**
     * Forgets a participant that disconnected (after its synthetic Connection-Lost state, if any).
     *
     * @return true if the system state changed
     */
    boolean remove(String name) {
        states.remove(name);
        if (!states.isEmpty()) {
            return false;
        }
        SystemState next = switch (systemState) {
            case ERROR, SHUTDOWN -> systemState;
            case SHUTTING_DOWN -> SystemState.SHUTDOWN;
            case INVALID, SERVICES_CREATED, COMMUNICATION_INITIALIZING, COMMUNICATION_INITIALIZED, READY_TO_RUN,
                    RUNNING, PAUSED, STOPPING, STOPPED, ABORTING -> SystemState.INVALID;
        };
        return set(next);
    }

    private boolean set(SystemState next) {
        if (next == systemState) {
            return false;
        }
        systemState = next;
        return true;
    }

    /** The derivation rule for a required participant's new state {@code ps}. */
    SystemState compute(ParticipantState ps, SystemState old) {
        return switch (ps) {
            case INVALID -> old;
            case SERVICES_CREATED -> allIn(SC_OR_LATER) ? SystemState.SERVICES_CREATED : old;
            case COMMUNICATION_INITIALIZING -> allIn(CI_ING_OR_LATER) ? SystemState.COMMUNICATION_INITIALIZING : old;
            case COMMUNICATION_INITIALIZED -> allIn(CI_ED_OR_LATER) ? SystemState.COMMUNICATION_INITIALIZED : old;
            case READY_TO_RUN -> allIn(RTR_OR_LATER) ? SystemState.READY_TO_RUN : old;
            case RUNNING -> allIn(RUN) ? SystemState.RUNNING : stopCascade(RUN, old);
            case PAUSED -> allIn(RUN_PAUSED) ? SystemState.PAUSED : stopCascade(RUN_PAUSED, old);
            case STOPPING -> allIn(STOPPING_SET) ? SystemState.STOPPING : old;
            case STOPPED -> allIn(STOPPED_SET) ? SystemState.STOPPED : old;
            case SHUTTING_DOWN -> allIn(SHUTTING_DOWN_SET) ? SystemState.SHUTTING_DOWN : old;
            case SHUTDOWN -> allIn(EnumSet.of(ParticipantState.SHUTDOWN)) ? SystemState.SHUTDOWN : old;
            case ERROR -> SystemState.ERROR;
            case ABORTING -> SystemState.ABORTING;
        };
    }

    /** The Stopping / Stopped / ShuttingDown / Shutdown cascade with {@code base} allowed. */
    private SystemState stopCascade(Set<ParticipantState> base, SystemState old) {
        EnumSet<ParticipantState> s = EnumSet.copyOf(base);
        s.add(ParticipantState.STOPPING);
        if (allIn(s)) {
            return SystemState.STOPPING;
        }
        s = EnumSet.copyOf(base);
        s.add(ParticipantState.STOPPED);
        if (allIn(s)) {
            return SystemState.STOPPED;
        }
        s.add(ParticipantState.SHUTTING_DOWN);
        if (allIn(s)) {
            return SystemState.SHUTTING_DOWN;
        }
        s.add(ParticipantState.SHUTDOWN);
        if (allIn(s)) {
            return SystemState.SHUTDOWN;
        }
        return old;
    }

    private boolean allIn(Set<ParticipantState> accepted) {
        for (String name : required) {
            ParticipantState s = states.get(name);
            if (s == null || !accepted.contains(s)) {
                return false;
            }
        }
        return true;
    }

    private static final Set<ParticipantState> SC_OR_LATER = EnumSet.of(
            ParticipantState.SERVICES_CREATED, ParticipantState.COMMUNICATION_INITIALIZING,
            ParticipantState.COMMUNICATION_INITIALIZED, ParticipantState.READY_TO_RUN, ParticipantState.RUNNING);
    private static final Set<ParticipantState> CI_ING_OR_LATER = EnumSet.of(
            ParticipantState.COMMUNICATION_INITIALIZING, ParticipantState.COMMUNICATION_INITIALIZED,
            ParticipantState.READY_TO_RUN, ParticipantState.RUNNING);
    private static final Set<ParticipantState> CI_ED_OR_LATER = EnumSet.of(
            ParticipantState.COMMUNICATION_INITIALIZED, ParticipantState.READY_TO_RUN, ParticipantState.RUNNING);
    private static final Set<ParticipantState> RTR_OR_LATER =
            EnumSet.of(ParticipantState.READY_TO_RUN, ParticipantState.RUNNING);
    private static final Set<ParticipantState> RUN = EnumSet.of(ParticipantState.RUNNING);
    private static final Set<ParticipantState> RUN_PAUSED =
            EnumSet.of(ParticipantState.RUNNING, ParticipantState.PAUSED);
    private static final Set<ParticipantState> STOPPING_SET = EnumSet.of(
            ParticipantState.RUNNING, ParticipantState.PAUSED, ParticipantState.STOPPING, ParticipantState.STOPPED,
            ParticipantState.SHUTTING_DOWN, ParticipantState.SHUTDOWN);
    private static final Set<ParticipantState> STOPPED_SET = EnumSet.of(
            ParticipantState.STOPPED, ParticipantState.SHUTTING_DOWN, ParticipantState.SHUTDOWN);
    private static final Set<ParticipantState> SHUTTING_DOWN_SET = EnumSet.of(
            ParticipantState.STOPPED, ParticipantState.SHUTTING_DOWN, ParticipantState.SHUTDOWN,
            ParticipantState.ERROR, ParticipantState.SERVICES_CREATED, ParticipantState.READY_TO_RUN);

    /**
     * SIL Kit's valid-transition table (SystemStateTracker::ValidateParticipantStateUpdate): whether
     * {@code next} may follow {@code previous}.
     */
    static boolean isValidTransition(ParticipantState previous, ParticipantState next) {
        return switch (next) {
            case SERVICES_CREATED -> previous == ParticipantState.INVALID;
            case COMMUNICATION_INITIALIZING -> previous == ParticipantState.SERVICES_CREATED;
            case COMMUNICATION_INITIALIZED -> previous == ParticipantState.COMMUNICATION_INITIALIZING;
            case READY_TO_RUN -> previous == ParticipantState.COMMUNICATION_INITIALIZED;
            case RUNNING -> previous == ParticipantState.READY_TO_RUN || previous == ParticipantState.PAUSED;
            case PAUSED -> previous == ParticipantState.RUNNING;
            case STOPPING -> previous == ParticipantState.RUNNING || previous == ParticipantState.PAUSED;
            case STOPPED -> previous == ParticipantState.STOPPING;
            case SHUTTING_DOWN -> previous == ParticipantState.ERROR || previous == ParticipantState.STOPPED;
            case SHUTDOWN -> previous == ParticipantState.SHUTTING_DOWN || previous == ParticipantState.ABORTING;
            case ABORTING, ERROR -> true;
            case INVALID -> false;
        };
    }
}
