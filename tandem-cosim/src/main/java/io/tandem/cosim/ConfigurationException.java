package io.tandem.cosim;

/** A participant or service was configured in a way SIL Kit's semantics do not allow. */
public final class ConfigurationException extends TandemException {
    private static final long serialVersionUID = 1L;

    /** @param message what is wrong and how to fix it */
    public ConfigurationException(String message) {
        super(message);
    }
}
