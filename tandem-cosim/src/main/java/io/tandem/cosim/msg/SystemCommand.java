package io.tandem.cosim.msg;

import java.util.Objects;

/**
 * A command of a system controller to every participant.
 *
 * @param kind the command
 */
public record SystemCommand(Kind kind) implements CosimMessage {
    /** The commands. */
    public enum Kind {
        /** abort every participant */
        ABORT_SIMULATION
    }

    /** Validates the kind. */
    public SystemCommand {
        Objects.requireNonNull(kind, "kind");
    }
}
