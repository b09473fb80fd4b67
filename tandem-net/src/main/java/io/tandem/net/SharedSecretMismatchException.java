package io.tandem.net;

import io.tandem.cosim.TandemException;

/**
 * A registry refused to admit a participant, or a participant its registry, because their shared
 * secrets ({@link NetConfig#secretFile()}) differ or only one has one. Retrying does not help: the
 * message names the fix. Immutable.
 */
public final class SharedSecretMismatchException extends TandemException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message who refused whom, and the fix (one line)
     * @param cause   what JGroups reported, or null
     */
    public SharedSecretMismatchException(String message, Throwable cause) {
        super(message, cause);
    }
}
