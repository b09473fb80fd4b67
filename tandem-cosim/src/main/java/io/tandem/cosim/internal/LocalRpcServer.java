package io.tandem.cosim.internal;

import io.tandem.cosim.rpc.RpcCallEvent;
import io.tandem.cosim.rpc.RpcCallHandler;
import io.tandem.cosim.rpc.RpcServer;
import io.tandem.cosim.rpc.RpcSpec;

/** An RPC server of this participant. */
final class LocalRpcServer implements RpcServer {
    final int id;
    final String name;
    final RpcSpec spec;
    final RpcCallHandler handler;
    private final ParticipantCore core;

    LocalRpcServer(ParticipantCore core, int id, String name, RpcSpec spec, RpcCallHandler handler) {
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
    public void submitResult(RpcCallEvent event, byte[] resultData) {
        core.submitRpcResult(event.callHandle(), false, resultData.clone());
    }

    boolean matches(RpcSpec client) {
        return Matching.matches(spec.functionName(), spec.mediaType(), spec.labels(),
                client.functionName(), client.mediaType(), client.labels());
    }
}
