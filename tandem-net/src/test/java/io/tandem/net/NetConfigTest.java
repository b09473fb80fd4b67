package io.tandem.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class NetConfigTest {

    @AfterEach
    void clearProperties() {
        for (String p : List.of(NetConfig.PEERS_PROP_NAME, NetConfig.IDLE_SPINS_PROP_NAME, NetConfig.IDLE_MAX_PARK_PROP_NAME)) {
            System.clearProperty(p);
        }
    }

    @Test
    void fromSystemProperties_peersAndIdleBounds_parsed() {
        System.setProperty(NetConfig.PEERS_PROP_NAME, " tandem://10.0.0.2:8500, tandem://10.0.0.3:8500 ,");
        System.setProperty(NetConfig.IDLE_SPINS_PROP_NAME, "10");
        System.setProperty(NetConfig.IDLE_MAX_PARK_PROP_NAME, "50000");

        NetConfig c = NetConfig.fromSystemProperties();

        assertThat(c.peers()).containsExactly("tandem://10.0.0.2:8500", "tandem://10.0.0.3:8500");
        assertThat(c.idleSpins()).isEqualTo(10);
        assertThat(c.idleYields()).isEqualTo(NetConfig.DEFAULT_IDLE_YIELDS);
        assertThat(c.idleMaxParkNs()).isEqualTo(50_000);
    }

    @Test
    void build_defaults_haveNoPeersAndTheDocumentedBackOff() {
        NetConfig c = NetConfig.builder().build();

        assertThat(c.peers()).isEmpty();
        assertThat(c.idle()).isEqualTo(NetConfig.Idle.BACKOFF);
        assertThat(c.idleMaxParkNs()).isEqualTo(NetConfig.BACKOFF_MAX_PARK_NS);
        assertThat(c.toBuilder().build()).isEqualTo(c);
    }

    @Test
    void build_peerNotATandemUri_rejectedNamingIt() {
        assertThatThrownBy(() -> NetConfig.builder().peers(List.of("10.0.0.2:8500")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'10.0.0.2:8500'");
    }

    @Test
    void build_parkBelowOneMicrosecond_rejected() {
        assertThatThrownBy(() -> NetConfig.builder().idleMaxParkNs(10).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("longest park");
    }
}
