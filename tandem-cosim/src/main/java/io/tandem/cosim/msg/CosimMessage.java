package io.tandem.cosim.msg;

/**
 * Every control and data message exchanged between participants. Records, immutable apart from
 * payload arrays, which nobody modifies after sending.
 */
public sealed interface CosimMessage
        permits ServiceAnnouncement,
                LifecycleAnnouncement,
                StatusUpdate,
                WorkflowConfiguration,
                SystemCommand,
                DataMessage,
                RpcCall,
                RpcResult,
                BarrierRequest,
                BarrierReply {
}
