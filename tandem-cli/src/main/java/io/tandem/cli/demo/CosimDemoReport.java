package io.tandem.cli.demo;

import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.SystemState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The outcome of one {@link CosimDemo} run, rendered by {@link #lines()}. Immutable.
 *
 * @param config            what ran
 * @param steps             logged steps sorted by (virtual time, participant); empty on failure
 * @param participantStates per participant, the lifecycle states the monitor saw, in order
 * @param finalStates       per participant, its state when the run ended
 * @param systemStates      the distinct system states the monitor saw, in order
 * @param failure           why the run failed, or {@code null} on success
 */
record CosimDemoReport(
        CosimDemoConfig config,
        List<StepRecord> steps,
        Map<String, List<ParticipantState>> participantStates,
        Map<String, ParticipantState> finalStates,
        List<SystemState> systemStates,
        String failure) {

    /**
     * A message a step took as input.
     *
     * @param timestampNs virtual send time in ns
     * @param sender      index of the sending participant
     * @param payload     the payload as text ({@code NAME#STEP})
     */
    record Received(long timestampNs, int sender, String payload) {
    }

    /**
     * One step of one participant.
     *
     * @param nowNs       start of the step in virtual ns
     * @param participant participant index
     * @param name        participant name
     * @param step        step number, from 0
     * @param durationNs  step length in ns
     * @param received    the messages stamped before {@code nowNs} not taken by an earlier step,
     *                    sorted by (timestamp, sender)
     */
    record StepRecord(long nowNs, int participant, String name, long step, long durationNs, List<Received> received) {
    }

    /** @return whether every participant reached SHUTDOWN and the monitor saw it */
    boolean succeeded() {
        return failure == null;
    }

    /** @return the printable report, one entry per line; identical for identical successful runs */
    List<String> lines() {
        List<String> stepLines = new ArrayList<>(steps.size());
        for (StepRecord s : steps) {
            stepLines.add(stepLine(s));
        }
        return lines(stepLines);
    }

    /**
     * The printable report with step lines rendered elsewhere (by participants in other processes).
     *
     * @param stepLines one {@link #stepLine} per step, sorted by (virtual time, participant)
     * @return the report, one entry per line
     */
    List<String> lines(List<String> stepLines) {
        List<String> out = new ArrayList<>();
        StringBuilder head = new StringBuilder("tandem demo cosim: ").append(config.participants())
                .append(" coordinated participants (");
        for (int i = 0; i < config.participants(); i++) {
            head.append(i == 0 ? "" : ", ").append(CosimDemoConfig.participantName(i)).append(" every ")
                    .append(ms(config.stepSizesNs().get(i))).append(" ms");
        }
        head.append("), ").append(ms(config.durationNs())).append(" ms of virtual time; ")
                .append(CosimDemoConfig.participantName(0)).append(" stops at ").append(ms(config.durationNs()))
                .append(" ms");
        out.add(head.toString());
        out.add("each step lists the messages stamped before its start that it has not seen yet (payload@time)");
        out.add("");
        out.addAll(stepLines);
        if (!stepLines.isEmpty()) {
            out.add("");
        }
        out.add("participant states seen by the monitor:");
        for (Map.Entry<String, List<ParticipantState>> e : participantStates.entrySet()) {
            out.add(String.format(Locale.ROOT, "  %-3s %s", e.getKey(), join(e.getValue())));
        }
        out.add("final states:");
        for (Map.Entry<String, ParticipantState> e : finalStates.entrySet()) {
            out.add(String.format(Locale.ROOT, "  %-3s %s", e.getKey(), e.getValue()));
        }
        out.add("system states seen by the monitor:");
        out.add("  " + join(systemStates));
        out.add(failure == null ? "ok: every participant reached SHUTDOWN" : "FAILED: " + failure);
        return out;
    }

    /** @return one step as a report line: {@code t=     2 ms  p1  step    2  received p2#0@0ms} */
    static String stepLine(StepRecord s) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "t=%6s ms  %-3s step %4d  received",
                ms(s.nowNs()), s.name(), s.step()));
        if (s.received().isEmpty()) {
            line.append(" -");
        }
        for (Received r : s.received()) {
            line.append(' ').append(r.payload()).append('@').append(ms(r.timestampNs())).append("ms");
        }
        return line.toString();
    }

    private static String join(List<? extends Enum<?>> states) {
        StringBuilder b = new StringBuilder();
        for (Enum<?> s : states) {
            b.append(b.length() == 0 ? "" : " -> ").append(s.name());
        }
        return b.length() == 0 ? "(none)" : b.toString();
    }

    /** Formats ns as ms: whole numbers plain, fractions with up to 6 decimals. */
    static String ms(long ns) {
        if (ns % 1_000_000 == 0) {
            return Long.toString(ns / 1_000_000);
        }
        String s = String.format(Locale.ROOT, "%.6f", ns / 1e6);
        return s.replaceAll("0+$", "");
    }
}
