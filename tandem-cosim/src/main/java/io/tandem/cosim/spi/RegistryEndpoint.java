package io.tandem.cosim.spi;

/** A running registry of some transport. */
public interface RegistryEndpoint extends AutoCloseable {
    /** @return the URI participants connect to */
    String uri();

    /** Stops the registry. Idempotent. */
    @Override
    void close();
}
