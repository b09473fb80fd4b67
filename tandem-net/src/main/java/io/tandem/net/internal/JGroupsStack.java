package io.tandem.net.internal;

import io.tandem.net.NetConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.jgroups.Address;
import org.jgroups.JChannel;
import org.jgroups.PhysicalAddress;
import org.jgroups.View;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.AUTH;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.FRAG4;
import org.jgroups.protocols.MFC;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.UFC;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.VERIFY_SUSPECT2;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.stack.Protocol;

/*
 * The control-plane stack (bottom to top), JGroups' tcp.xml with these changes:
 *
 *  TCP             bind_addr explicit (registry: the URI's host; participants: NetConfig), registry
 *                  on the URI's port with port_range 0 (a taken port is an error, not the next
 *                  port), participants on an ephemeral port; diagnostics off; platform threads;
 *                  default bundler (the low-latency all-direct profile caused false suspicions on
 *                  2 cores); TCP_NODELAY (joins are request/reply, Nagle cost ~40 ms a step);
 *                  connect timeout half the failure timeout (JGroups' 2 s could stall a sender
 *                  reaching for a cut-off host long enough for the others to suspect it).
 *  TCPPING         the registry is the only initial host (no IP multicast, no port range); a
 *                  registry with peer registries lists itself and them. A registry passes on
 *                  every discovery request it answers to the other members (RegistryPing), so
 *                  the coordinator can answer the JOIN of a participant that found the group
 *                  through another registry at once (without it, the coordinator had to fetch the
 *                  joiner's physical address first: about 1 s, long enough for FD_SOCK2 and
 *                  VERIFY_SUSPECT2 to exclude the joiner on a busy machine). Discovery requests
 *                  are repeated every 250 ms until answered (num_discovery_runs): a coordinator
 *                  installing a view closes its connections to non-members, so of several
 *                  participants joining at once, one's request could be dropped unread, and it
 *                  waited the whole join timeout and failed (7 % of joins, 4 at a time, loaded).
 *  FD_SOCK2        a crashed process's sockets close at once: suspected in ~ms. bind_addr explicit.
 *  FD_ALL3         heartbeats for members that hang without closing sockets: timeout 700 ms,
 *                  interval 100 ms by default.
 *  VERIFY_SUSPECT2 100 ms: a kill -9 is excluded in ~0.1-0.2 s, a silent member in < 1 s.
 *  NAKACK2, UNICAST3, STABLE, GMS, MFC, UFC, FRAG4: reliable FIFO multicast/unicast, views,
 *                  flow control, fragmentation, as in tcp.xml.
 *
 *  AUTH            only with a shared secret (NetConfig.secretFile), directly below GMS: a joiner's
 *                  JOIN request carries a SecretToken the coordinator checks, and the coordinator's
 *                  answer one the joiner checks (auth_coord); a wrong or missing secret is refused
 *                  with "authentication failed" (NetSession names the secret file).
 *
 * No MERGE3: a member excluded by a (false) suspicion has been reported lost to everyone, its name
 * and peer id freed; merging it back would resurrect it behind the registry's back. It sees a view
 * without the registry instead and reports every peer lost.
 */

/** Builds the JGroups channels of registries and participants. Stateless. */
final class JGroupsStack {
    private JGroupsStack() {
    }

    /**
     * the group name of every registry: a participant only ever reaches its own registry's group,
     * since the registry is its only initial host
     */
    static final String CLUSTER_NAME = "tandem";

    /**
     * @param config      timeouts
     * @param bindAddress local address to bind (explicit, also for FD_SOCK2)
     * @param bindPort    local port, 0 for ephemeral
     * @param registry    the registry's address, the only initial host
     * @param joinTimeoutMs how long joining waits for the registry
     * @return an unconnected channel
     * @throws Exception as JGroups reports it
     */
    static JChannel create(NetConfig config, InetAddress bindAddress, int bindPort, InetSocketAddress registry,
            long joinTimeoutMs, SharedSecret secret) throws Exception {
        return create(config, bindAddress, bindPort, List.of(registry), joinTimeoutMs, false, secret);
    }

    /**
     * @param initialHosts the registries to find the group through
     * @param registry     whether the channel is a registry's (passes discovery requests on)
     * @param secret       the group's shared secret (AUTH both ways), or null for none
     * @see #create(NetConfig, InetAddress, int, InetSocketAddress, long, SharedSecret)
     */
    static JChannel create(NetConfig config, InetAddress bindAddress, int bindPort, List<InetSocketAddress> initialHosts,
            long joinTimeoutMs, boolean registry, SharedSecret secret) throws Exception {
        TCP tcp = new TCP();
        tcp.setBindAddress(bindAddress);
        // TCP refuses port 0 at init with a static discovery protocol, but binds whatever port it holds
        // at connect: members other than the registry learn each other's addresses from the registry
        tcp.setBindPort(bindPort == 0 ? 7800 : bindPort);
        tcp.setPortRange(0);
        tcp.useVirtualThreads(false);
        // control messages are small request/replies: Nagle plus delayed ACKs cost ~40 ms each
        tcp.tcpNodelay(true);
        // a connect to a host that was cut off blocks its sender for up to this long (JGroups' default
        // is 2 s): kept under the failure timeout, so that a member reaching for a lost peer is not
        // itself suspected by the others meanwhile (seen on the three-host partition test under load)
        tcp.setSockConnTimeout((int) Math.max(100, Math.min(2_000, config.failureTimeoutMs() / 2)));
        TCPPING ping = registry ? new RegistryPing() : new TCPPING();
        ping.setInitialHosts(initialHosts);
        ping.setPortRange(0);
        ping.returnEntireCache(true);
        // a discovery request can be lost: a registry installing a view closes its TCP connections to
        // non-members (BasicTCP.retainAll), among them a concurrent joiner's whose request it has not
        // read yet; ask again every DISCOVERY_RETRY_MS until answered rather than wait out the timeout
        ping.numDiscoveryRuns(discoveryRuns(joinTimeoutMs));
        FD_SOCK2 fdSock = new FD_SOCK2();
        fdSock.setBindAddress(bindAddress);
        FD_ALL3 fdAll = new FD_ALL3();
        fdAll.setTimeout(config.failureTimeoutMs());
        fdAll.setInterval(config.heartbeatIntervalMs());
        VERIFY_SUSPECT2 verify = new VERIFY_SUSPECT2();
        verify.setTimeout(config.verifySuspectTimeoutMs());
        NAKACK2 nakack = new NAKACK2();
        nakack.useMcastXmit(false);
        GMS gms = new GMS();
        gms.printLocalAddress(false);
        gms.setJoinTimeout(joinTimeoutMs);
        gms.setMaxJoinAttempts(1);
        if (!registry) {
            // a participant leaves its simulation through its registry first (LeaveRequest, answered);
            // the group leave after it only spares the coordinator a failure detection, and the
            // coordinator answers it when its view handler is free: 6-35 ms here, but a view change
            // in progress (a host cut off) holds it past JGroups' 1 s, on a loaded machine for
            // seconds, and the process waits that long to exit. Unanswered, the leave still reaches
            // the coordinator, or the closed connection (FD_SOCK2) tells it at once.
            gms.setLeaveTimeout(PARTICIPANT_LEAVE_TIMEOUT_MS);
        }
        List<Protocol> protocols = new ArrayList<>(List.of(tcp, ping, fdSock, fdAll, verify, nakack, new UNICAST3(),
                new STABLE()));
        SecretToken token = null;
        if (secret != null) {
            // directly below GMS, as JGroups' auth_*.xml stacks have it; the joiner checks the coordinator too
            AUTH auth = new SecretAuth();
            token = new SecretToken(secret.joinKey());
            auth.setAuthToken(token);
            auth.setAuthCoord(true);
            protocols.add(auth);
        }
        protocols.addAll(List.of(gms, new MFC(), new UFC(), new FRAG4()));
        JChannel channel = new JChannel(protocols);
        if (token != null) {
            token.channel(channel);
        }
        // created by the stack's init, started by connect: off before that (no probe socket)
        tcp.getDiagnosticsHandler().setEnabled(false);
        tcp.setBindPort(bindPort);
        return channel;
    }

    /** how long a participant's channel waits for the coordinator to confirm its group leave, ms */
    static final long PARTICIPANT_LEAVE_TIMEOUT_MS = 200;

    /** how often a joiner repeats an unanswered discovery request, ms */
    static final long DISCOVERY_RETRY_MS = 250;

    /** @return the discovery runs (JGroups' num_discovery_runs) that repeat a request every DISCOVERY_RETRY_MS within the timeout */
    static int discoveryRuns(long joinTimeoutMs) {
        return (int) Math.max(2, Math.min(100, joinTimeoutMs / DISCOVERY_RETRY_MS));
    }

    /** @return whether the channel's coordinator answered its join without the AUTH header: it has no shared secret */
    static boolean coordinatorHasNoSecret(JChannel channel) {
        return channel.getProtocolStack().findProtocol(SecretAuth.class) instanceof SecretAuth a && a.coordinatorUnsigned;
    }

    /**
     * JGroups' AUTH with one-line refusals in our log (AUTH's own are a warning and an exception
     * stack-free but naming Java classes, logged by UNICAST3), noting a coordinator that answers a
     * join without a token: a group without the secret ({@link #coordinatorHasNoSecret}).
     */
    static final class SecretAuth extends AUTH {
        private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SecretAuth.class);
        volatile boolean coordinatorUnsigned;

        SecretAuth() {
            // headers are matched by protocol id: speak as AUTH
            setId(ClassConfigurator.getProtocolId(AUTH.class));
        }

        @Override
        public Object up(org.jgroups.Message msg) {
            return unsigned(msg) ? null : super.up(msg);
        }

        @Override
        public void up(org.jgroups.util.MessageBatch batch) {
            batch.removeIf(this::unsigned, true);
            if (!batch.isEmpty()) {
                super.up(batch);
            }
        }

        /** @return whether the message needed a token and had none: refused, or (a join answer) passed by us */
        private boolean unsigned(org.jgroups.Message msg) {
            org.jgroups.protocols.pbcast.GMS.GmsHeader gms = getGMSHeader(msg);
            if (gms == null || !needsAuthentication(msg, gms) || msg.getHeader(id) != null) {
                return false;
            }
            if (gms.getType() == org.jgroups.protocols.pbcast.GMS.GmsHeader.JOIN_RSP) {
                // a coordinator without the secret: let the join end now (rather than time out) and have
                // NetSession leave at once naming the cause, before anything is sent to the group
                coordinatorUnsigned = true;
                up_prot.up(msg);
            } else {
                LOG.warn("{}: refused {}: it has no shared secret", local_addr, msg.getSrc());
                sendRejectionMessage(gms.getType(), msg.getSrc(), "no AUTH header found in message");
            }
            return true;
        }

        @Override
        protected boolean handleAuthHeader(org.jgroups.protocols.pbcast.GMS.GmsHeader gms,
                org.jgroups.protocols.AuthHeader header, org.jgroups.Message msg) {
            if (!needsAuthentication(msg, gms) || auth_token.authenticate(header.getToken(), msg)) {
                return true;
            }
            LOG.warn("{}: refused {}: its shared secret differs", local_addr, msg.getSrc());
            sendRejectionMessage(gms.getType(), msg.getSrc(), "authentication failed");
            return false;
        }
    }

    /** A registry's discovery: tells the group's other members where each joiner it answers is. */
    static final class RegistryPing extends TCPPING {
        RegistryPing() {
            // headers are matched by protocol id: speak as TCPPING to the participants' TCPPING
            setId(ClassConfigurator.getProtocolId(TCPPING.class));
        }

        @Override
        public void discoveryRequestReceived(Address sender, String logicalName,
                PhysicalAddress physical) {
            super.discoveryRequestReceived(sender, logicalName, physical);
            View v = view;
            Address self = local_addr;
            if (v == null || physical == null || sender == null) {
                return;
            }
            for (Address member : v.getMembers()) {
                if (!member.equals(self) && !member.equals(sender)) {
                    sendDiscoveryResponse(sender, physical, logicalName, member, false);
                }
            }
        }
    }
}
