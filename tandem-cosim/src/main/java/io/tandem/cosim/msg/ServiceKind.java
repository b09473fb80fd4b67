package io.tandem.cosim.msg;

/** The kinds of service a participant announces. */
public enum ServiceKind {
    /** a data publisher */
    DATA_PUBLISHER,
    /** a data subscriber */
    DATA_SUBSCRIBER,
    /** an RPC client */
    RPC_CLIENT,
    /** an RPC server */
    RPC_SERVER
}
