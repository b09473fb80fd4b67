package io.tandem.cosim.msg;

import io.tandem.cosim.OperationMode;
import java.util.Objects;

/**
 * Announces that the sender started its lifecycle, and whether it takes part in time sync.
 *
 * @param mode           the sender's operation mode
 * @param timeSyncActive whether the sender is time-synchronized
 */
public record LifecycleAnnouncement(OperationMode mode, boolean timeSyncActive) implements CosimMessage {
    /** Validates the mode. */
    public LifecycleAnnouncement {
        Objects.requireNonNull(mode, "mode");
    }
}
