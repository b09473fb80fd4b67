package io.tandem.cosim;

/**
 * Constants of virtual time. Virtual time is a {@code long} count of nanoseconds since the
 * simulation's start.
 */
public final class VirtualTime {
    /**
     * The invalid time point ({@code Long.MIN_VALUE}, SIL Kit's {@code nanoseconds::min()}): the
     * timestamp of messages from participants without time sync, and {@code now()} before the
     * first step.
     */
    public static final long INVALID_NS = Long.MIN_VALUE;

    private VirtualTime() {
    }
}
