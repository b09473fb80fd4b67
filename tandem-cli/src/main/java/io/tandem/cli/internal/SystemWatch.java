package io.tandem.cli.internal;

import io.tandem.cosim.Participant;
import io.tandem.cosim.ParticipantState;
import io.tandem.cosim.ParticipantStatus;
import io.tandem.cosim.SystemMonitor;
import io.tandem.cosim.SystemState;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Watches a simulation through a participant's {@link SystemMonitor}, like SIL Kit's
 * {@code sil-kit-monitor}: optionally prints every connect, disconnect, participant state change
 * and system state change (one line each, with the wall-clock seconds since the watch started),
 * and tells when the system state first becomes {@link SystemState#ERROR}, naming the participants
 * in Error and why ("lost its connection" for one that vanished, e.g. killed).
 *
 * <p>The handlers run on the participant's thread; the accessors are safe from any thread.
 * Allocates per event (a command-line tool, not a hot path).
 */
public final class SystemWatch {
    /** the reason SIL Kit (and Tandem) give a participant that disconnected without shutting down */
    public static final String CONNECTION_LOST = "Connection Lost";
    /** how every cause this watch describes starts, so a reaction that quotes one is not wrapped again */
    private static final String CAUSE_PREFIX = "participant '";

    private final PrintWriter out;
    private final String self;
    private final CompletableFuture<String> selfError = new CompletableFuture<>();
    private final long startNs = System.nanoTime();
    private final Map<String, ParticipantStatus> statuses = new LinkedHashMap<>();
    private final CompletableFuture<String> systemError = new CompletableFuture<>();
    private final CompletableFuture<Void> systemShutdown = new CompletableFuture<>();
    private SystemState systemState = SystemState.INVALID;

    private SystemWatch(PrintWriter out, String self) {
        this.out = out;
        this.self = self;
    }

    /**
     * Attaches a watch to a participant's system monitor.
     *
     * @param participant the observing participant
     * @param out         where to print the events, or {@code null} to print nothing
     * @return the watch
     */
    public static SystemWatch attach(Participant participant, PrintWriter out) {
        SystemWatch w = new SystemWatch(out, participant.name());
        SystemMonitor m = participant.createSystemMonitor();
        m.addParticipantConnectedHandler(n -> w.print("participant " + n + " connected"));
        m.addParticipantDisconnectedHandler(n -> w.print("participant " + n + " disconnected"));
        m.addParticipantStatusHandler(w::onStatus);
        m.addSystemStateHandler(w::onSystemState);
        return w;
    }

    private synchronized void onStatus(ParticipantStatus s) {
        statuses.put(s.participantName(), s);
        if (s.participantName().equals(self) && s.state() == ParticipantState.ERROR) {
            selfError.complete(s.reason());
        }
        print(String.format(Locale.ROOT, "%-12s %-27s %s", s.participantName(), s.state(), s.reason()));
    }

    private synchronized void onSystemState(SystemState s) {
        if (s == systemState && s == SystemState.INVALID) {
            return; // the initial call
        }
        systemState = s;
        print(String.format(Locale.ROOT, "%-12s %s", "system", s));
        if (s == SystemState.ERROR && !systemError.isDone()) {
            systemError.complete(describeErrors());
        }
        if (s == SystemState.SHUTDOWN) {
            systemShutdown.complete(null);
        }
    }

    private String describeErrors() {
        // root causes only: a participant that stopped because of another one's loss names that one
        Set<String> causes = new LinkedHashSet<>();
        for (ParticipantStatus s : statuses.values()) {
            if (s.state() != ParticipantState.ERROR) {
                continue;
            }
            if (s.reason().equals(CONNECTION_LOST)) {
                causes.add(lost(s.participantName()));
            } else if (s.reason().startsWith(CAUSE_PREFIX)) {
                causes.add(s.reason());
            } else {
                causes.add(CAUSE_PREFIX + s.participantName() + "' reported an error: " + s.reason());
            }
        }
        return causes.isEmpty() ? "the system state is Error" : String.join("; ", causes);
    }

    /** @return the description of a participant that lost its connection */
    public static String lost(String participantName) {
        return CAUSE_PREFIX + participantName + "' lost its connection (killed, crashed or cut off)";
    }

    private void print(String line) {
        if (out != null) {
            double s = (System.nanoTime() - startNs) / 1e9;
            synchronized (out) {
                out.println(String.format(Locale.ROOT, "%8.3f s  %s", s, line));
                out.flush();
            }
        }
    }

    /** @return completes, once, when the system state first becomes Error, with who is in Error and why */
    public CompletableFuture<String> systemError() {
        return systemError;
    }

    /** @return completes, once, when the observing participant itself enters Error, with the reason */
    public CompletableFuture<String> selfError() {
        return selfError;
    }

    /** @return completes when the system state becomes Shutdown */
    public CompletableFuture<Void> systemShutdown() {
        return systemShutdown;
    }

    /** @return the last system state seen */
    public synchronized SystemState systemState() {
        return systemState;
    }

    /** @return the last status seen per participant, in first-seen order (a copy) */
    public synchronized Map<String, ParticipantStatus> statuses() {
        return new LinkedHashMap<>(statuses);
    }
}
