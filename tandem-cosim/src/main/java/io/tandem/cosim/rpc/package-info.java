/**
 * Remote procedure calls (SIL Kit's {@code Services/Rpc}): an {@code RpcClient} calls the
 * {@code RpcServer}s whose {@code RpcSpec} matches, and gets each result (or its
 * {@code RpcCallStatus}) in its {@code RpcCallResultHandler}. Created by
 * {@link io.tandem.cosim.Participant}.
 */
package io.tandem.cosim.rpc;
