package io.tandem.cosim.msg;

/**
 * Asks the receiver to reply once it has processed everything the sender sent before; the sender
 * uses it to know every earlier message has arrived (SIL Kit's CallAfterAllParticipantsReplied).
 *
 * @param barrierId id echoed in the reply
 */
public record BarrierRequest(long barrierId) implements CosimMessage {
}
