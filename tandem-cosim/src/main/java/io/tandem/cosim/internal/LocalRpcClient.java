package io.tandem.cosim.internal;

import io.tandem.cosim.msg.RpcCall;
import io.tandem.cosim.rpc.RpcCallResultHandler;
import io.tandem.cosim.rpc.RpcClient;
import io.tandem.cosim.rpc.RpcSpec;
import java.util.Arrays;

/**
 * An RPC client of this participant. A call is sent at once on the calling thread to every peer
 * known to have a matching server; each server's reply is one result.
 */
final class LocalRpcClient implements RpcClient {
    final int id;
    final String name;
    final RpcSpec spec;
    final RpcCallResultHandler handler;
    private final ParticipantCore core;
    /** peers with matching servers and how many each (guarded by this) */
    private int[] peers = new int[0];
    private int[] serversAtPeer = new int[0];

    LocalRpcClient(ParticipantCore core, int id, String name, RpcSpec spec, RpcCallResultHandler handler) {
        this.core = core;
        this.id = id;
        this.name = name;
        this.spec = spec;
        this.handler = handler;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long call(byte[] argument) {
        return doCall(argument, 0);
    }

    @Override
    public long callWithTimeout(byte[] argument, long timeoutNs) {
        if (timeoutNs <= 0) {
            throw new IllegalArgumentException("RPC timeout must be > 0 ns, got " + timeoutNs + " (client '" + name + "')");
        }
        return doCall(argument, timeoutNs);
    }

    private long doCall(byte[] argument, long timeoutNs) {
        long callId = core.nextCallId();
        byte[] copy = argument.clone();
        synchronized (this) {
            int expected = 0;
            for (int n : serversAtPeer) {
                expected += n;
            }
            if (expected == 0) {
                core.rpcServerNotReachable(this, callId);
                return callId;
            }
            core.registerPendingCall(this, callId, expected, timeoutNs);
            RpcCall msg = new RpcCall(id, callId, core.senderTimestampNs(), copy);
            for (int peer : peers) {
                if (peer == core.peerId()) {
                    core.deliverToSelf(msg);
                } else {
                    core.sendTo(peer, msg);
                }
            }
        }
        return callId;
    }

    /** One more matching server at {@code peer} (our own id for local servers). */
    synchronized void addServer(int peer) {
        for (int i = 0; i < peers.length; i++) {
            if (peers[i] == peer) {
                serversAtPeer[i]++;
                return;
            }
        }
        peers = Arrays.copyOf(peers, peers.length + 1);
        serversAtPeer = Arrays.copyOf(serversAtPeer, serversAtPeer.length + 1);
        peers[peers.length - 1] = peer;
        serversAtPeer[serversAtPeer.length - 1] = 1;
    }

    synchronized void removePeer(int peer) {
        for (int i = 0; i < peers.length; i++) {
            if (peers[i] == peer) {
                serversAtPeer[i] = 0;
            }
        }
    }

    boolean matches(RpcSpec server) {
        return Matching.matches(server.functionName(), server.mediaType(), server.labels(),
                spec.functionName(), spec.mediaType(), spec.labels());
    }
}
