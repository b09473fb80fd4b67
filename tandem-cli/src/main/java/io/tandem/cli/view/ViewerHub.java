package io.tandem.cli.view;

import io.tandem.world.view.ViewFeed;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;

/**
 * Keeps the latest scene, state, status, signal and pose frame of a run, and sends every page the
 * newest of each it has not seen yet, on a sender thread of its own: one message in flight per page,
 * older frames dropped (latest-wins). The publishing methods ({@link ViewFeed.Sink} and {@link
 * #status}) store a reference and wake the sender: they never block and never wait for a page.
 *
 * <p>Thread-safe. Publishing allocates nothing beyond the caller's message.
 */
public final class ViewerHub implements ViewFeed.Sink, AutoCloseable {
    /** the messages of one kind, in the order a new page receives them */
    private static final int SCENE = 0;
    private static final int STATE = 1;
    private static final int STATUS = 2;
    private static final int SIGNALS = 3;
    private static final int FRAME = 4;
    private static final int KINDS = 5;

    /** one page: what it was sent last of each kind, and whether a send is in flight */
    private static final class Page {
        final Session session;
        final Object[] sent = new Object[KINDS];
        final AtomicBoolean inFlight = new AtomicBoolean();

        Page(Session session) {
            this.session = session;
        }
    }

    private final Object[] latest = new Object[KINDS];
    private final Map<Session, Page> pages = new ConcurrentHashMap<>();
    private final Thread sender;
    private volatile boolean closed;

    public ViewerHub() {
        sender = new Thread(this::sendLoop, "tandem-viewer-send");
        sender.setDaemon(true);
        sender.start();
    }

    @Override
    public void scene(String json) {
        put(SCENE, json);
    }

    @Override
    public void state(String json) {
        put(STATE, json);
    }

    @Override
    public void frame(ByteBuffer frame) {
        put(FRAME, frame);
    }

    /** @param json the status message (HUD, controls, peers) */
    public void status(String json) {
        put(STATUS, json);
    }

    /** @param json a signals message (closed loop: spikes and plotted values since the last one) */
    public void signals(String json) {
        put(SIGNALS, json);
    }

    /** @return the latest status message, or null */
    public String lastStatus() {
        synchronized (latest) {
            return (String) latest[STATUS];
        }
    }

    /** @return how many pages are connected */
    public int pages() {
        return pages.size();
    }

    private void put(int kind, Object message) {
        synchronized (latest) {
            latest[kind] = message;
        }
        LockSupport.unpark(sender);
    }

    void opened(Session session) {
        pages.put(session, new Page(session));
        LockSupport.unpark(sender);
    }

    void closed(Session session) {
        pages.remove(session);
    }

    private void sendLoop() {
        Object[] now = new Object[KINDS];
        List<Page> list = new ArrayList<>();
        while (!closed) {
            synchronized (latest) {
                System.arraycopy(latest, 0, now, 0, KINDS);
            }
            list.clear();
            list.addAll(pages.values());
            for (Page p : list) {
                if (p.inFlight.get() || !p.session.isOpen()) {
                    continue;
                }
                for (int k = 0; k < KINDS; k++) {
                    Object m = now[k];
                    // the scene first: a page draws nothing before it
                    if (m == null || m == p.sent[k] || k > SCENE && p.sent[SCENE] == null && now[SCENE] != null) {
                        continue;
                    }
                    p.sent[k] = m;
                    p.inFlight.set(true);
                    Callback done = Callback.from(() -> {
                        p.inFlight.set(false);
                        LockSupport.unpark(sender);
                    }, failure -> {
                        p.inFlight.set(false);
                        pages.remove(p.session);
                    });
                    if (m instanceof String s) {
                        p.session.sendText(s, done);
                    } else {
                        p.session.sendBinary(((ByteBuffer) m).duplicate(), done);
                    }
                    break;
                }
            }
            LockSupport.parkNanos(this, 50_000_000L);
        }
    }

    /** Stops the sender (pages stay connected until the server stops). */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(sender);
    }
}
