package io.tandem.cli.internal;

/**
 * Signal dispositions a command needs beyond the JVM's shutdown hooks. Stateless.
 */
public final class Signals {
    private Signals() {
    }

    /**
     * Ignores SIGINT in this JVM. For the local secondaries a primary starts: they are in the
     * primary's process group, so Ctrl-C in a terminal reaches them too; ignoring it, they are
     * stopped by the primary's clean stop (which Ctrl-C triggers) instead of dying mid-step and
     * being reported lost. They still end with the primary if it dies (see SimCommand).
     *
     * @return whether the disposition could be set (false on a JVM without sun.misc.Signal)
     */
    @SuppressForbidden
    public static boolean ignoreInterrupt() {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("INT"), sun.misc.SignalHandler.SIG_IGN);
            return true;
        } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
            return false;
        }
    }
}
