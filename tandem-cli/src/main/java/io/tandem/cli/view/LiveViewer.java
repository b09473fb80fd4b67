package io.tandem.cli.view;

import io.tandem.world.World;
import io.tandem.world.view.SceneDescription;
import io.tandem.world.view.ViewFeed;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The viewer of a live run ({@code tandem sim --view}, {@code tandem cle --view}): a {@link ViewFeed}
 * to add to the run's listeners, the {@link ViewerHub} it feeds and the {@link ViewerServer} that
 * serves the page. The run says what the HUD shows beyond the frames with {@link #status}.
 *
 * <p>{@link #feed()} and {@link #status} are called on the stepping thread; they never block.
 */
public final class LiveViewer implements AutoCloseable {
    /** 60 Hz, Gazebo's scene broadcaster rate */
    public static final long DEFAULT_PERIOD_NS = 1_000_000_000L / 60;

    private final ViewerHub hub;
    private final ViewerServer server;
    private final ViewFeed feed;
    private final String role;
    private final String follow;

    private LiveViewer(ViewerHub hub, ViewerServer server, ViewFeed feed, String role, String follow) {
        this.hub = hub;
        this.server = server;
        this.feed = feed;
        this.role = role;
        this.follow = follow;
    }

    /**
     * Starts the server.
     *
     * @param world    the world run
     * @param role     standalone, primary or closed-loop (shown on the page)
     * @param bind     the address to listen on
     * @param port     the port (0: any)
     * @param periodNs the least time between two pose frames (wall clock), ns
     * @param control  what the page's controls act on
     * @param owners   which secondary owns each model (an empty map standalone)
     * @param follow   the model the camera follows at first, or null
     * @return the viewer
     * @throws ViewerException when the port is taken (one line, with the fix)
     */
    public static LiveViewer start(World world, String role, String bind, int port, long periodNs, ViewerControl control,
                                   Supplier<Map<String, String>> owners, String follow) {
        ViewerHub hub = new ViewerHub();
        ViewerServer server;
        try {
            server = ViewerServer.start(bind, port, hub, control);
        } catch (RuntimeException e) {
            hub.close();
            throw e;
        }
        ViewFeed feed = new ViewFeed(new SceneDescription(world), world, hub, System::nanoTime, periodNs, owners);
        return new LiveViewer(hub, server, feed, role, follow);
    }

    /** @return the page's address */
    public String url() {
        return server.url();
    }

    /** @return the listener to add to the run (its frames, state and scene) */
    public ViewFeed feed() {
        return feed;
    }

    /** @return the hub (a closed loop adds its signals) */
    public ViewerHub hub() {
        return hub;
    }

    /**
     * Publishes the HUD's status.
     *
     * @param paused           whether the run is paused
     * @param targetIterations the run's last iteration
     * @param ended            null while running, else why the run ended (a lost peer named)
     * @param peers            name and state of each other process (secondaries), in order, and
     *                         optionally the lifecycle state it reports (a third element, null until known)
     */
    public void status(boolean paused, long targetIterations, String ended, List<String[]> peers) {
        StringBuilder s = new StringBuilder(128);
        s.append("{\"type\":\"status\",\"mode\":\"live\",\"role\":").append(SceneDescription.jsonString(role))
                .append(",\"follow\":").append(follow == null ? "null" : SceneDescription.jsonString(follow))
                .append(",\"paused\":").append(paused).append(",\"targetIterations\":").append(targetIterations)
                .append(",\"ended\":").append(ended == null ? "null" : SceneDescription.jsonString(ended)).append(",\"peers\":[");
        for (int i = 0; i < peers.size(); i++) {
            s.append(i == 0 ? "{" : ",{").append("\"name\":").append(SceneDescription.jsonString(peers.get(i)[0]))
                    .append(",\"state\":").append(SceneDescription.jsonString(peers.get(i)[1]));
            if (peers.get(i).length > 2 && peers.get(i)[2] != null) {
                s.append(",\"lifecycle\":").append(SceneDescription.jsonString(peers.get(i)[2]));
            }
            s.append('}');
        }
        hub.status(s.append("]}").toString());
    }

    /**
     * @param w     the world
     * @param model the model asked for with --follow
     * @return why it cannot be followed (one line, with the nearest name and the models that move), or null
     */
    public static String followRefusal(World w, String model) {
        java.util.List<String> moving = new java.util.ArrayList<>();
        for (World.Model m : w.models()) {
            if (!m.isStatic()) {
                moving.add(m.name());
            }
        }
        // a cable or deformable body is followed by its first segment or node
        w.cables().forEach(c -> moving.add(c.name()));
        w.deformables().forEach(d -> moving.add(d.name()));
        if (moving.contains(model)) {
            return null;
        }
        if (w.model(model).isPresent()) {
            return "--follow '" + model + "': that model is static; follow one that moves: " + moving;
        }
        String near = io.tandem.cosim.text.Suggestions.closest(model, moving, 4, io.tandem.cosim.text.Suggestions::editDistance);
        return "--follow '" + model + "': world '" + w.name() + "' has no such model" + (near == null ? "" : " (did you mean '"
                + near + "'?)") + "; models that move: " + (moving.size() > 12 ? moving.subList(0, 12) + "..." : moving);
    }

    /**
     * Keeps serving the page after the run: for {@code lingerS} seconds (negative: until stopped).
     *
     * @param lingerS how long, s; 0 returns at once
     * @param stopped whether the user stopped (Ctrl-C)
     * @param out     where the line saying so goes
     */
    public void linger(double lingerS, java.util.function.BooleanSupplier stopped, java.io.PrintWriter out) {
        if (lingerS == 0) {
            return;
        }
        out.println("the run has ended; the viewer stays at " + url() + (lingerS < 0 ? " until Ctrl-C" : " for " + lingerS
                + " s"));
        out.flush();
        long until = lingerS < 0 ? Long.MAX_VALUE : System.nanoTime() + (long) (lingerS * 1e9);
        while (!stopped.getAsBoolean() && System.nanoTime() < until) {
            java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L);
        }
    }

    /** Stops the server and the hub. */
    @Override
    public void close() {
        server.close();
        hub.close();
    }
}
