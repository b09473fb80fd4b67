package io.tandem.net.internal;

import io.aeron.Aeron;
import io.tandem.cosim.TandemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Aeron clients of this JVM, one per media-driver directory, shared by the participants of the
 * JVM and reference counted: an Aeron client costs a conductor thread and a driver connection, and
 * the participants of one JVM on one registry need only one. Process-wide by necessity (the
 * transport instances come from ServiceLoader, one per lookup). Thread-safe; not used per step.
 */
final class AeronClients {
    private static final Logger LOG = LoggerFactory.getLogger(AeronClients.class);
    private static final Map<String, Entry> CLIENTS = new HashMap<>();

    private AeronClients() {
    }

    private static final class Entry {
        final Aeron aeron;
        int references;

        Entry(Aeron aeron) {
            this.aeron = aeron;
        }
    }

    /**
     * @param directory the media driver's directory
     * @param registryUri for error messages
     * @return a connected client; give it back with {@link #release}
     * @throws TandemException if no media driver runs in that directory
     */
    static Aeron acquire(String directory, String registryUri) {
        synchronized (CLIENTS) {
            Entry e = CLIENTS.get(directory);
            if (e != null && !e.aeron.isClosed()) {
                e.references++;
                return e.aeron;
            }
            if (!Files.isDirectory(Path.of(directory))) {
                throw new TandemException("the media driver of registry " + registryUri + " (directory " + directory
                        + ") is not on this host; for now a tandem:// participant must run on its registry's host");
            }
            Aeron aeron;
            try {
                aeron = Aeron.connect(new Aeron.Context()
                        .aeronDirectoryName(directory)
                        // new images (peers' publications) are noticed within 1 ms instead of 16
                        .idleSleepDurationNs(1_000_000)
                        .errorHandler(t -> LOG.warn("Aeron client of {}: {}", directory, t.toString())));
            } catch (RuntimeException ex) {
                throw new TandemException("cannot connect to the media driver of registry " + registryUri + " in "
                        + directory + ": " + ex, ex);
            }
            Entry fresh = new Entry(aeron);
            fresh.references = 1;
            CLIENTS.put(directory, fresh);
            return aeron;
        }
    }

    /** @param aeron a client from {@link #acquire}; closed when its last user gives it back */
    static void release(Aeron aeron) {
        synchronized (CLIENTS) {
            for (Map.Entry<String, Entry> me : CLIENTS.entrySet()) {
                Entry e = me.getValue();
                if (e.aeron == aeron) {
                    if (--e.references == 0) {
                        CLIENTS.remove(me.getKey());
                        aeron.close();
                    }
                    return;
                }
            }
        }
        aeron.close();
    }
}
