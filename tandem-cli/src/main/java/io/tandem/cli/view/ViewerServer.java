package io.tandem.cli.view;

import java.io.IOException;
import java.io.InputStream;
import java.net.BindException;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

/**
 * The viewer's web server (Jetty 12 core, no servlet): the page at {@code /}, its scripts (three.js
 * and uPlot, unpacked from their webjars at build time, under {@code /three/} and {@code /uplot/}),
 * and the WebSocket {@code /ws}, which carries the {@link ViewerHub}'s messages to the page and the
 * page's controls ({@code {"op":"pause"}}, {@code {"op":"step","n":5}}, ...) to a
 * {@link ViewerControl}. Loopback by default. Daemon threads; {@link #close()} stops it.
 */
public final class ViewerServer implements AutoCloseable {
    /** the webjars' versions, as unpacked by tandem-cli's pom */
    static final String THREE = "META-INF/resources/webjars/three/0.181.1/";
    static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/";

    private static final Pattern OP = Pattern.compile("\"op\"\\s*:\\s*\"([a-z]+)\"");
    private static final Pattern VALUE = Pattern.compile("\"(?:n|t|x|value)\"\\s*:\\s*(-?[0-9.eE+-]+)");

    private final Server server;
    private final String url;
    private final Map<String, byte[]> resources = new ConcurrentHashMap<>();

    private ViewerServer(Server server, String url) {
        this.server = server;
        this.url = url;
    }

    /**
     * Starts a server.
     *
     * @param bind    the address to listen on (127.0.0.1: this machine only)
     * @param port    the port (0: any free one)
     * @param hub     what the pages are sent
     * @param control what the pages' controls act on
     * @return the started server
     * @throws ViewerException with one line naming the address and the fix when the port is taken
     *                         or the address is not this machine's
     */
    public static ViewerServer start(String bind, int port, ViewerHub hub, ViewerControl control) {
        QueuedThreadPool threads = new QueuedThreadPool(16, 2);
        threads.setName("tandem-viewer");
        threads.setDaemon(true);
        Server server = new Server(threads);
        ServerConnector connector = new ServerConnector(server, 1, 1);
        connector.setHost(bind);
        connector.setPort(port);
        server.addConnector(connector);
        WebSocketUpgradeHandler ws = WebSocketUpgradeHandler.from(server, container -> {
            container.setMaxTextMessageSize(1 << 20);
            container.addMapping("/ws", (request, response, callback) -> new Socket(hub, control));
        });
        ViewerServer[] self = new ViewerServer[1];
        ws.setHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                return self[0].serve(request, response, callback);
            }
        });
        server.setHandler(ws);
        try {
            server.start();
        } catch (Exception e) {
            try {
                server.stop();
            } catch (Exception ignored) {
                // the start failed: nothing runs
            }
            Throwable c = e;
            while (c.getCause() != null && !(c instanceof BindException)) {
                c = c.getCause();
            }
            if (c instanceof BindException || String.valueOf(e.getMessage()).contains("in use")) {
                throw new ViewerException("the viewer cannot listen on " + bind + ":" + port + " (" + c.getMessage()
                        + "): the port is in use or the address is not this machine's; give another with --view PORT"
                        + " (0: any free port) or --view-bind ADDRESS", e);
            }
            throw new ViewerException("the viewer cannot start on " + bind + ":" + port + ": " + e, e);
        }
        String host = bind.contains(":") ? "[" + bind + "]" : bind;
        self[0] = new ViewerServer(server, "http://" + ("0.0.0.0".equals(bind) ? "127.0.0.1" : host) + ":"
                + connector.getLocalPort() + "/");
        return self[0];
    }

    /** @return the page's address, e.g. {@code http://127.0.0.1:8080/} */
    public String url() {
        return url;
    }

    private boolean serve(Request request, Response response, Callback callback) {
        String path = request.getHttpURI().getPath();
        String resource;
        if (path.equals("/") || path.equals("/index.html")) {
            resource = "io/tandem/cli/view/page/index.html";
        } else if (path.matches("/[a-z]+\\.(js|css)")) {
            resource = "io/tandem/cli/view/page" + path;
        } else if (path.startsWith("/three/") && !path.contains("..")) {
            resource = THREE + path.substring("/three/".length());
        } else if (path.startsWith("/uplot/") && !path.contains("..")) {
            resource = UPLOT + path.substring("/uplot/".length());
        } else {
            resource = null;
        }
        byte[] body = resource == null ? null : resources.computeIfAbsent(resource, ViewerServer::read);
        if (body == null || body.length == 0) {
            Response.writeError(request, response, callback, 404, "no " + path + " here: the viewer is at /");
            return true;
        }
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type(resource));
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
        response.write(true, ByteBuffer.wrap(body), callback);
        return true;
    }

    /** @return the resource's bytes, empty when there is none (cached as such) */
    private static byte[] read(String resource) {
        try (InputStream in = ViewerServer.class.getModule().getResourceAsStream(resource)) {
            return in == null ? new byte[0] : in.readAllBytes();
        } catch (IOException e) {
            return new byte[0];
        }
    }

    private static String type(String resource) {
        String r = resource.toLowerCase(Locale.ROOT);
        if (r.endsWith(".html")) {
            return "text/html; charset=utf-8";
        }
        if (r.endsWith(".js")) {
            return "text/javascript; charset=utf-8";
        }
        if (r.endsWith(".css")) {
            return "text/css; charset=utf-8";
        }
        return "text/plain; charset=utf-8";
    }

    /** Stops serving and closes the pages' sockets. */
    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            // stopping a server that failed: nothing more to do
        }
    }

    /**
     * One page's socket. Public with public methods: Jetty calls the listener through method handles
     * (an inaccessible class makes the upgrade answer HTTP 500).
     */
    public static final class Socket implements Session.Listener.AutoDemanding {
        private final ViewerHub hub;
        private final ViewerControl control;
        private Session session;

        Socket(ViewerHub hub, ViewerControl control) {
            this.hub = hub;
            this.control = control;
        }

        @Override
        public void onWebSocketOpen(Session s) {
            session = s;
            hub.opened(s);
        }

        @Override
        public void onWebSocketText(String message) {
            Matcher op = OP.matcher(message);
            if (!op.find()) {
                return;
            }
            Matcher v = VALUE.matcher(message);
            double value = 0;
            if (v.find()) {
                try {
                    value = Double.parseDouble(v.group(1));
                } catch (NumberFormatException e) {
                    value = Double.NaN;
                }
            }
            String refused = control.apply(op.group(1), value);
            if (refused != null && session != null) {
                session.sendText("{\"type\":\"notice\",\"text\":" + io.tandem.world.view.SceneDescription.jsonString(refused)
                        + "}", org.eclipse.jetty.websocket.api.Callback.NOOP);
            }
        }

        @Override
        public void onWebSocketClose(int statusCode, String reason) {
            if (session != null) {
                hub.closed(session);
            }
        }

        @Override
        public void onWebSocketError(Throwable cause) {
            if (session != null) {
                hub.closed(session);
            }
        }
    }
}
