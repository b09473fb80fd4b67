package io.tandem.cosim.msg;

/**
 * Reply to a {@link BarrierRequest}.
 *
 * @param barrierId the request's id
 */
public record BarrierReply(long barrierId) implements CosimMessage {
}
