package io.tandem.net.internal;

import io.tandem.cosim.TandemException;

/** A received frame's signature is missing, wrong, or unexpected (see {@link SharedSecret}). Immutable. */
final class UnauthenticatedFrameException extends TandemException {
    private static final long serialVersionUID = 1L;

    UnauthenticatedFrameException(String message) {
        super(message);
    }
}
