package io.tandem.net;

import io.tandem.cosim.TandemException;

/**
 * A peer or registry speaks another version of Tandem's wire protocol; it is refused. The message
 * names both versions.
 *
 * <p>Immutable.
 */
public final class ProtocolVersionException extends TandemException {
    private static final long serialVersionUID = 1L;

    private final int localVersion;
    private final int remoteVersion;

    /**
     * @param localVersion  the version this process speaks
     * @param remoteVersion the version the other side spoke
     * @param who           the other side, e.g. "registry tandem://127.0.0.1:8500"
     */
    public ProtocolVersionException(int localVersion, int remoteVersion, String who) {
        super(who + " speaks Tandem wire protocol version " + remoteVersion + " but this process speaks version "
                + localVersion + "; run the same Tandem version on every participant and registry");
        this.localVersion = localVersion;
        this.remoteVersion = remoteVersion;
    }

    /** @return the version this process speaks */
    public int localVersion() {
        return localVersion;
    }

    /** @return the version the other side spoke */
    public int remoteVersion() {
        return remoteVersion;
    }
}
