package io.tandem.net.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.net.NetConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.jgroups.JChannel;
import org.jgroups.protocols.pbcast.GMS;
import org.junit.jupiter.api.Test;

class JGroupsStackTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    /**
     * A process ending a failed run was seen waiting 1-4 s for the coordinator to confirm its group
     * leave while a view change (a host cut off) held the coordinator: a participant's channel
     * waits at most {@link JGroupsStack#PARTICIPANT_LEAVE_TIMEOUT_MS}, a registry's keeps
     * JGroups' own wait (its leave hands the coordinator's role on).
     */
    @Test
    void create_participantChannel_leaveWaitsOnlyBriefly() throws Exception {
        NetConfig config = NetConfig.fromSystemProperties();
        InetSocketAddress registry = new InetSocketAddress(LOOPBACK, 8500);
        try (JChannel participant = JGroupsStack.create(config, LOOPBACK, 0, registry, 1_000, null);
             JChannel registryChannel = JGroupsStack.create(config, LOOPBACK, 0, List.of(registry), 1_000, true, null)) {
            long jgroupsDefault = new GMS().getLeaveTimeout();
            assertThat(gms(participant).getLeaveTimeout()).isEqualTo(JGroupsStack.PARTICIPANT_LEAVE_TIMEOUT_MS)
                    .isLessThan(jgroupsDefault);
            assertThat(gms(registryChannel).getLeaveTimeout()).isEqualTo(jgroupsDefault);
        }
    }

    private static GMS gms(JChannel channel) {
        return channel.getProtocolStack().findProtocol(GMS.class);
    }
}
