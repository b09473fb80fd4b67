package io.tandem.net.internal;

import io.aeron.ChannelUri;
import io.aeron.driver.DriverConductorProxy;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.media.SendChannelEndpoint;
import io.aeron.driver.media.UdpChannel;
import io.aeron.protocol.StatusMessageFlyweight;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.Set;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/*
 * Implementation notes.
 *
 * Why. A participant's UDP multi-destination-cast publication uses min flow control (FrameSender):
 * the slowest receiver that sends status messages sets the pace. A member of another registry
 * killed with -9 leaves its subscription on its registry's media driver until that driver's client
 * liveness timeout (NetConfig.clientTimeoutMs, 5 s by default), and its image there keeps sending
 * status messages with the position it stopped at: every broadcast to every remote member stalls
 * behind it. JGroups reports the kill within about a second and the sender then removes the
 * member's destination, but removing a destination does not touch the flow control, and Aeron
 * takes status messages from any address (SendChannelEndpoint.onStatusMessage).
 *
 * What. The registry's media driver creates its send channel endpoints through this class
 * (MediaDriver.Context.sendChannelEndpointSupplier). For a manual-control MDC channel it remembers
 * the addresses of removed destinations (until one is added again) and marks their status messages
 * end-of-stream (and not asking for setup): Aeron's min flow control drops a receiver whose status
 * message says end of stream at its next idle check and does not add it again, exactly as for a
 * receiver whose image went away (a graceful leave). So a killed member stops holding the others
 * back at the first status message after its destination is removed (a receiver sends one at least
 * every 200 ms).
 *
 * The source address of a receiver's status messages is the endpoint it subscribed at (a
 * participant's UDP subscription sends from the socket it receives on), which is the destination.
 * A receiver that falls silent altogether (its host frozen or cut off) sends nothing to mark: the
 * flow control drops it after its receiver timeout (t: in the channel, clientTimeoutMs).
 *
 * Threads. Aeron calls addDestination, removeDestination and onStatusMessage of an endpoint on the
 * sender's duty cycle (one thread), so the set needs no lock. onStatusMessage does not allocate.
 */

/**
 * A media driver's send channel endpoint that makes Aeron's flow control forget, at once, a
 * receiver whose destination was removed from a manual-control multi-destination-cast publication
 * (see the implementation notes).
 */
final class RemovedDestinationEndpoint extends SendChannelEndpoint {
    private final boolean manualControl;
    /** the addresses of removed destinations (sender thread only) */
    private final Set<InetSocketAddress> removed = new HashSet<>();

    RemovedDestinationEndpoint(UdpChannel udpChannel, AtomicCounter statusIndicator, MediaDriver.Context context) {
        super(udpChannel, statusIndicator, context);
        this.manualControl = udpChannel.isManualControlMode();
    }

    @Override
    public void addDestination(ChannelUri channelUri, InetSocketAddress address, long registrationId) {
        super.addDestination(channelUri, address, registrationId);
        removed.remove(address);
    }

    @Override
    public void removeDestination(ChannelUri channelUri, InetSocketAddress address) {
        super.removeDestination(channelUri, address);
        if (manualControl && address != null) {
            removed.add(address);
        }
    }

    @Override
    public void onStatusMessage(StatusMessageFlyweight msg, UnsafeBuffer buffer, int length, InetSocketAddress srcAddress,
            DriverConductorProxy conductorProxy) {
        if (!removed.isEmpty() && removed.contains(srcAddress)) {
            msg.flags((short) ((msg.flags() | StatusMessageFlyweight.END_OF_STREAM_FLAG)
                    & ~StatusMessageFlyweight.SEND_SETUP_FLAG));
        }
        super.onStatusMessage(msg, buffer, length, srcAddress, conductorProxy);
    }
}
