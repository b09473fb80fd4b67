package io.tandem.cosim.internal;

import io.tandem.cosim.OperationMode;
import io.tandem.cosim.ParticipantStatus;
import io.tandem.cosim.msg.ServiceAnnouncement;
import java.util.Arrays;

/** What one participant knows of another. Owned by the participant's thread. */
final class Peer {
    final int id;
    final String name;
    final PeerClock clock;
    /** announced services by service id */
    ServiceAnnouncement[] services = new ServiceAnnouncement[4];
    /** for each announced publisher id: the local subscribers it matches */
    LocalSubscriber[][] matchedSubscribers = new LocalSubscriber[4][];
    /** for each announced client id: the local servers it matches */
    LocalRpcServer[][] matchedServers = new LocalRpcServer[4][];
    boolean hasLifecycle;
    OperationMode mode;
    boolean timeSynced;
    ParticipantStatus status;

    Peer(int id, String name, PeerClock clock) {
        this.id = id;
        this.name = name;
        this.clock = clock;
    }

    void put(ServiceAnnouncement a) {
        int id = a.serviceId();
        if (id >= services.length) {
            int n = Math.max(id + 1, services.length * 2);
            services = Arrays.copyOf(services, n);
            matchedSubscribers = Arrays.copyOf(matchedSubscribers, n);
            matchedServers = Arrays.copyOf(matchedServers, n);
        }
        services[id] = a;
    }

    ServiceAnnouncement service(int id) {
        return id >= 0 && id < services.length ? services[id] : null;
    }
}
