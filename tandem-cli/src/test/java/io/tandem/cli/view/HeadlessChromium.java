package io.tandem.cli.view;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A real headless Chromium driven over the Chrome DevTools Protocol (CDP) through the JDK's own
 * {@link WebSocket}: no Selenium, no WebDriver, no dependencies. One browser, one page (tab), one
 * connection; the methods are for one test thread at a time.
 *
 * <p>Tests skip where no browser is installed:
 * <pre>{@code
 * String reason = HeadlessChromium.unavailableReason();
 * Assumptions.assumeTrue(reason == null, reason);
 * try (HeadlessChromium browser = HeadlessChromium.start(800, 600)) {
 *     browser.navigate("data:text/html,<p id=x>hi</p>", Duration.ofSeconds(10));
 *     assertThat(browser.evaluate("document.getElementById('x').textContent")).isEqualTo("\"hi\"");
 * }
 * }</pre>
 *
 * <p>WebGL (and WebGL2) works headless without a GPU on SwiftShader, Chromium's CPU renderer, given
 * {@code --enable-unsafe-swiftshader --use-angle=swiftshader} (since Chromium 137 the automatic
 * fallback to SwiftShader is gone and WebGL contexts are null without the first flag).
 */
final class HeadlessChromium implements AutoCloseable {

    /** The browsers looked for on {@code PATH}, in this order. */
    private static final List<String> EXECUTABLES =
            List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(3);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** The least time a poll of {@link #waitFor} gives the page to answer (a busy machine is slow). */
    private static final long MIN_REPLY_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");

    private final Process process;
    private final Path profile;
    private final StderrDrain stderr;
    private final Thread shutdownHook;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
    private final Map<String, List<Consumer<Map<String, Object>>>> listeners = new ConcurrentHashMap<>();
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private final Object sendLock = new Object();
    private volatile WebSocket socket;
    /** Why the connection is gone (closed by either side, failed); null while it is up. */
    private volatile String disconnected;
    private boolean closed;

    private HeadlessChromium(Process process, Path profile, StderrDrain stderr) {
        this.process = process;
        this.profile = profile;
        this.stderr = stderr;
        // a test JVM that ends without close (a crash, a timeout) leaves no browser behind
        this.shutdownHook = new Thread(() -> {
            kill(process, List.of());
            deleteRecursively(profile);
        }, "headless-chromium-reaper");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Null where a Chromium or Chrome executable is on {@code PATH}, else a sentence saying what is
     * missing and how to install it (for {@code Assumptions.assumeTrue(reason == null, reason)}).
     */
    static String unavailableReason() {
        if (executable().isPresent()) {
            return null;
        }
        return "no headless browser: none of " + String.join(", ", EXECUTABLES)
                + " is an executable on PATH; install one (on Debian or Ubuntu: apt-get install -y chromium,"
                + " which .ci/run does as root)";
    }

    /** The first of {@link #EXECUTABLES} on {@code PATH}, if any. */
    static Optional<Path> executable() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String name : EXECUTABLES) {
            for (String dir : path.split(Pattern.quote(File.pathSeparator))) {
                if (dir.isEmpty()) {
                    continue;
                }
                Path candidate = Path.of(dir, name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Starts a headless browser with a fresh profile whose page (viewport) is {@code width} by
     * {@code height} CSS pixels at one device pixel each (a screenshot is that many pixels), on
     * {@code about:blank}, and connects to that page.
     *
     * @throws IOException where no browser is installed, it does not start within 30 s (the message
     *     carries what it printed), or its page cannot be reached
     */
    static HeadlessChromium start(int width, int height) throws IOException {
        if (width <= 0 || height <= 0) {
            throw new IllegalArgumentException("a page of " + width + " x " + height + " pixels");
        }
        Path exe = executable().orElseThrow(() -> new IOException(unavailableReason()));
        Path profile = createProfileDir();
        List<String> command = List.of(exe.toString(),
                "--headless=new",
                "--no-sandbox", // as root (containers, CI) the sandbox refuses to start
                "--disable-gpu",
                "--disable-dev-shm-usage", // containers' /dev/shm is often 64 MB
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-quic",
                "--enable-unsafe-swiftshader", // WebGL on the CPU renderer (no GPU here)
                "--use-angle=swiftshader",
                "--remote-debugging-port=0", // a free port, printed on stderr
                "--user-data-dir=" + profile,
                "--window-size=" + width + "," + height,
                "about:blank");
        Process process;
        try {
            process = new ProcessBuilder(command)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            deleteRecursively(profile);
            throw new IOException("could not start " + exe + ": " + e.getMessage(), e);
        }
        process.getOutputStream().close();
        StderrDrain stderr = new StderrDrain(process.getErrorStream());
        HeadlessChromium browser = new HeadlessChromium(process, profile, stderr);
        try {
            long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
            URI browserUrl = browser.awaitListening(deadline);
            URI pageUrl = browser.findPage(browserUrl, deadline);
            browser.connect(pageUrl, deadline);
            browser.send("Page.enable", Map.of());
            browser.send("Runtime.enable", Map.of());
            browser.send("Log.enable", Map.of());
            // the page, not the window: headless windows and viewports need not agree, and a
            // screenshot is the viewport at its device pixel ratio
            Map<String, Object> metrics = new LinkedHashMap<>();
            metrics.put("width", width);
            metrics.put("height", height);
            metrics.put("deviceScaleFactor", 1);
            metrics.put("mobile", false);
            browser.send("Emulation.setDeviceMetricsOverride", metrics);
            return browser;
        } catch (IOException | RuntimeException e) {
            browser.close();
            throw e;
        }
    }

    /**
     * Loads {@code url} in the page and returns once its load event has fired. Forgets the errors
     * collected so far: {@link #consoleErrors()} then lists those of this page.
     *
     * @throws IllegalStateException where the browser refuses the URL or it does not load in time
     */
    void navigate(String url, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        errors.clear();
        CompletableFuture<Map<String, Object>> loaded = once("Page.loadEventFired");
        Map<String, Object> reply = send("Page.navigate", Map.of("url", url), timeout);
        String failure = MiniJson.stringAt(reply, "errorText");
        if (failure != null && !failure.isEmpty()) {
            throw new IllegalStateException("navigating to " + abbreviate(url) + " failed: " + failure);
        }
        await(loaded, remaining(deadline), "the load event of " + abbreviate(url));
    }

    /**
     * The value of the JavaScript {@code expression} in the page (a promise awaited), as JSON text:
     * {@code 42}, {@code "abc"} (quotes included), {@code {"a":[1,2]}}, {@code true}, {@code null};
     * {@code undefined} for undefined and JavaScript's own text for {@code NaN}, {@code Infinity},
     * {@code -0} and big integers ({@code 12n}); what JSON cannot hold (functions, DOM nodes) as {@code {}}.
     *
     * @throws EvaluationException where the expression throws (or its promise rejects), naming the
     *     expression and the page's exception
     */
    String evaluate(String expression) {
        return evaluate(expression, COMMAND_TIMEOUT);
    }

    private String evaluate(String expression, Duration timeout) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("expression", expression);
        params.put("returnByValue", true);
        params.put("awaitPromise", true);
        Map<String, Object> reply = send("Runtime.evaluate", params, timeout);
        Map<String, Object> details = MiniJson.objectAt(reply, "exceptionDetails");
        if (!details.isEmpty()) {
            throw new EvaluationException("evaluating " + abbreviate(expression) + " in the page threw: "
                    + exceptionText(details));
        }
        Map<String, Object> result = MiniJson.objectAt(reply, "result");
        if (result.get("unserializableValue") instanceof String) {
            return (String) result.get("unserializableValue");
        }
        if ("undefined".equals(result.get("type"))) {
            return "undefined";
        }
        return MiniJson.write(result.get("value"));
    }

    /**
     * Evaluates {@code predicateExpression} about every 50 ms until it yields {@code true} (the
     * boolean: wrap a truthy one in {@code !!(...)}) and says whether it did within {@code timeout}.
     * A predicate that throws counts as not yet true; a page that does not answer at all (a script
     * in an endless loop) throws {@link IllegalStateException}.
     */
    boolean waitFor(String predicateExpression, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                long patience = Math.min(Math.max(deadline - System.nanoTime(), MIN_REPLY_NANOS),
                        COMMAND_TIMEOUT.toNanos());
                if ("true".equals(evaluate(predicateExpression, Duration.ofNanos(patience)))) {
                    return true;
                }
            } catch (EvaluationException notYet) {
                // the page may not have made what the predicate reads yet
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            LockSupport.parkNanos(Math.min(POLL_NANOS, left));
        }
    }

    /** The page's viewport as a PNG image. */
    byte[] screenshotPng() {
        Map<String, Object> reply = send("Page.captureScreenshot", Map.of("format", "png"));
        String data = MiniJson.stringAt(reply, "data");
        if (data == null) {
            throw new IllegalStateException("Page.captureScreenshot replied without data: " + MiniJson.write(reply));
        }
        return Base64.getDecoder().decode(data);
    }

    /**
     * The page's errors since the last {@link #navigate}, oldest first: uncaught exceptions and
     * rejections, {@code console.error} and failed {@code console.assert} calls, and the browser's
     * own error entries (a script or resource that failed to load, say), one line each.
     */
    List<String> consoleErrors() {
        return List.copyOf(errors);
    }

    /** What the browser has printed on its standard error (the last 64 K characters). */
    String browserLog() {
        return stderr.text();
    }

    /**
     * Closes the browser (Browser.close; then a TERM, a KILL), ends the processes it started and
     * deletes its profile. Quiet: failures on the way are not thrown.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<ProcessHandle> children = process.descendants().collect(Collectors.toList());
        boolean asked = false;
        if (socket != null && disconnected == null) {
            asked = true;
            try {
                send("Browser.close", Map.of(), CLOSE_TIMEOUT);
            } catch (RuntimeException alreadyGoing) {
                // the connection closes as the browser exits: no reply is fine
            }
        }
        WebSocket ws = socket;
        if (ws != null) {
            ws.abort();
        }
        try {
            if (!asked || !process.waitFor(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroy();
                if (!process.waitFor(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    kill(process, children);
                }
            }
            // the renderers and the GPU process end with their browser; any still there are ended (not
            // waited for: once their parent is gone they count as alive until the system reaps them)
            kill(process, children);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill(process, children);
        }
        failPending("the browser was closed");
        deleteRecursively(profile);
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway, harmlessly
        }
    }

    /** A JavaScript expression that threw in the page (see {@link #evaluate}). */
    static final class EvaluationException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        EvaluationException(String message) {
            super(message);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // starting

    private static Path createProfileDir() throws IOException {
        // under the module's target folder where there is one: the CI's watchdog ends the processes
        // naming the checkout, which then includes this browser; else in the temporary folder
        Path target = Path.of("target").toAbsolutePath();
        if (Files.isDirectory(target) && Files.isWritable(target)) {
            return Files.createTempDirectory(target, "chromium-profile-");
        }
        return Files.createTempDirectory("chromium-profile-");
    }

    private URI awaitListening(long deadline) throws IOException {
        try {
            return URI.create(stderr.listening.get(remainingNanos(deadline), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            throw new IOException("the browser did not say 'DevTools listening on ws://...' within "
                    + START_TIMEOUT.toSeconds() + " s; its stderr so far:\n" + stderr.text(), e);
        } catch (ExecutionException e) {
            int exit = waitForExit();
            throw new IOException("the browser ended (exit status " + exit + ") before listening; its stderr:\n"
                    + stderr.text(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the browser", e);
        }
    }

    private int waitForExit() {
        try {
            return process.waitFor(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** The WebSocket URL of the browser's page, made where it has none. */
    private URI findPage(URI browserUrl, long deadline) throws IOException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        String base = "http://127.0.0.1:" + browserUrl.getPort();
        String last = "";
        for (int attempt = 0; ; attempt++) {
            try {
                HttpResponse<String> list = http.send(HttpRequest.newBuilder(URI.create(base + "/json/list"))
                        .timeout(remaining(deadline)).GET().build(), HttpResponse.BodyHandlers.ofString());
                last = list.statusCode() + " " + list.body();
                if (list.statusCode() == 200) {
                    for (Object target : (List<?>) MiniJson.parse(list.body())) {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> t = (Map<String, Object>) target;
                        String ws = MiniJson.stringAt(t, "webSocketDebuggerUrl");
                        if ("page".equals(t.get("type")) && ws != null) {
                            return URI.create(ws);
                        }
                    }
                }
                if (attempt == 20) { // a second without a page: make one
                    HttpResponse<String> made = http.send(HttpRequest.newBuilder(URI.create(base + "/json/new?about:blank"))
                            .timeout(remaining(deadline)).PUT(HttpRequest.BodyPublishers.noBody()).build(),
                            HttpResponse.BodyHandlers.ofString());
                    last = made.statusCode() + " " + made.body();
                    String ws = made.statusCode() == 200
                            ? MiniJson.stringAt(MiniJson.parseObject(made.body()), "webSocketDebuggerUrl") : null;
                    if (ws != null) {
                        return URI.create(ws);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while looking for the browser's page", e);
            } catch (IOException | RuntimeException e) {
                last = e.toString();
            }
            if (remainingNanos(deadline) <= POLL_NANOS) {
                throw new IOException("the browser at " + base + " showed no page within "
                        + START_TIMEOUT.toSeconds() + " s (last answer: " + abbreviate(last) + "); its stderr:\n"
                        + stderr.text());
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    private void connect(URI pageUrl, long deadline) throws IOException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(remaining(deadline)).build();
        try {
            socket = http.newWebSocketBuilder()
                    .connectTimeout(remaining(deadline))
                    .buildAsync(pageUrl, new Listener())
                    .get(remainingNanos(deadline), TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new IOException("could not open the DevTools WebSocket " + pageUrl + ": " + cause
                    + "; the browser's stderr:\n" + stderr.text(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while connecting to the browser", e);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // the protocol

    private Map<String, Object> send(String method, Map<String, ?> params) {
        return send(method, params, COMMAND_TIMEOUT);
    }

    /** Sends a command and returns its reply's result; an error reply throws, naming the method. */
    private Map<String, Object> send(String method, Map<String, ?> params, Duration timeout) {
        long id = ids.incrementAndGet();
        CompletableFuture<Map<String, Object>> reply = new CompletableFuture<>();
        pending.put(id, reply);
        String why = disconnected; // read after the put: a failure since then fails the reply
        if (why != null) {
            pending.remove(id);
            throw new IllegalStateException("cannot send " + method + ": " + why);
        }
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("id", id);
        message.put("method", method);
        message.put("params", params);
        String text = MiniJson.write(message);
        try {
            // one message at a time: a WebSocket refuses a send while another is under way
            synchronized (sendLock) {
                await(socket.sendText(text, true), timeout, "sending " + method);
            }
            Map<String, Object> answer = await(reply, timeout, "the reply to " + method);
            Map<String, Object> error = MiniJson.objectAt(answer, "error");
            if (!error.isEmpty()) {
                Object data = error.get("data");
                throw new IllegalStateException(method + " failed: " + error.get("message")
                        + (data == null ? "" : " (" + data + ")") + " [code " + error.get("code") + "]");
            }
            return MiniJson.objectAt(answer, "result");
        } finally {
            pending.remove(id);
        }
    }

    private <T> T await(CompletableFuture<T> future, Duration timeout, String what) {
        try {
            return future.get(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("no " + what + " within " + timeout.toMillis() + " ms", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("failed waiting for " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for " + what, e);
        }
    }

    /** The params of the next {@code event}. */
    private CompletableFuture<Map<String, Object>> once(String event) {
        CompletableFuture<Map<String, Object>> next = new CompletableFuture<>();
        List<Consumer<Map<String, Object>>> list = listeners.computeIfAbsent(event, e -> new CopyOnWriteArrayList<>());
        list.add(new Consumer<>() {
            @Override
            public void accept(Map<String, Object> params) {
                list.remove(this);
                next.complete(params);
            }
        });
        return next;
    }

    /** Handles one whole message from the browser: a reply to a command, or an event. */
    private void dispatch(String text) {
        Map<String, Object> message;
        try {
            message = MiniJson.parseObject(text);
        } catch (IllegalArgumentException e) {
            errors.add("DevTools: unreadable message: " + e.getMessage());
            return;
        }
        Object id = message.get("id");
        if (id instanceof Long) {
            CompletableFuture<Map<String, Object>> reply = pending.get(id);
            if (reply != null) {
                reply.complete(message);
            }
            return;
        }
        String method = MiniJson.stringAt(message, "method");
        if (method == null) {
            return;
        }
        Map<String, Object> params = MiniJson.objectAt(message, "params");
        collectError(method, params);
        List<Consumer<Map<String, Object>>> list = listeners.get(method);
        if (list != null) {
            for (Consumer<Map<String, Object>> listener : list) {
                listener.accept(params);
            }
        }
    }

    /** Records the page's errors among the events. */
    private void collectError(String method, Map<String, Object> params) {
        switch (method) {
            case "Runtime.exceptionThrown":
                errors.add(exceptionText(MiniJson.objectAt(params, "exceptionDetails")));
                break;
            case "Runtime.consoleAPICalled": {
                Object type = params.get("type");
                if ("error".equals(type) || "assert".equals(type)) {
                    Object args = params.get("args");
                    List<String> parts = new ArrayList<>();
                    if (args instanceof List) {
                        for (Object arg : (List<?>) args) {
                            parts.add(remoteObjectText(arg));
                        }
                    }
                    errors.add("console." + type + ": " + String.join(" ", parts));
                }
                break;
            }
            case "Log.entryAdded": {
                Map<String, Object> entry = MiniJson.objectAt(params, "entry");
                if ("error".equals(entry.get("level"))) {
                    String url = MiniJson.stringAt(entry, "url");
                    errors.add(entry.get("source") + ": " + entry.get("text")
                            + (url == null || url.isEmpty() ? "" : " (" + abbreviate(url) + ")"));
                }
                break;
            }
            default:
                break;
        }
    }

    /** The text of a CDP ExceptionDetails: the exception's description (message and stack) where it has one. */
    private static String exceptionText(Map<String, Object> details) {
        Map<String, Object> exception = MiniJson.objectAt(details, "exception");
        String description = MiniJson.stringAt(exception, "description");
        String text = MiniJson.stringAt(details, "text"); // "Uncaught", "Uncaught (in promise)"
        String prefix = text == null || text.isEmpty() ? "" : text + " ";
        if (description != null) {
            return description.startsWith(prefix) ? description : prefix + description;
        }
        if (!exception.isEmpty()) { // throw 'a string'
            return prefix + remoteObjectText(exception);
        }
        return text == null ? MiniJson.write(details) : text;
    }

    /** A CDP RemoteObject as console text: strings bare, other values as JSON, objects by their description. */
    @SuppressWarnings("unchecked")
    private static String remoteObjectText(Object remoteObject) {
        if (!(remoteObject instanceof Map)) {
            return String.valueOf(remoteObject);
        }
        Map<String, Object> o = (Map<String, Object>) remoteObject;
        if (o.containsKey("value")) {
            Object value = o.get("value");
            return value instanceof String ? (String) value : MiniJson.write(value);
        }
        if (o.get("unserializableValue") != null) {
            return String.valueOf(o.get("unserializableValue"));
        }
        if (o.get("description") != null) {
            return String.valueOf(o.get("description"));
        }
        return String.valueOf(o.get("type"));
    }

    private void failPending(String why) {
        if (disconnected == null) {
            disconnected = why;
        }
        IllegalStateException failure = new IllegalStateException(why);
        for (CompletableFuture<Map<String, Object>> reply : pending.values()) {
            reply.completeExceptionally(failure);
        }
    }

    /** The page's WebSocket: whole text messages (they may come in parts) to {@link #dispatch}. */
    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public void onOpen(WebSocket webSocket) {
            webSocket.request(1);
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                try {
                    dispatch(text);
                } catch (RuntimeException e) {
                    errors.add("DevTools: failed handling a message: " + e);
                }
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket webSocket, java.nio.ByteBuffer data, boolean last) {
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            failPending("the browser closed the DevTools connection (" + statusCode + " " + reason + ")"
                    + stderrTail());
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            failPending("the DevTools connection failed: " + error + stderrTail());
        }
    }

    private String stderrTail() {
        String text = stderr.text();
        return text.isEmpty() ? "" : "; the browser's stderr ends:\n" + text.substring(Math.max(0, text.length() - 2000));
    }

    // ---------------------------------------------------------------------------------------------
    // processes and files

    /** Reads the browser's stderr to its end on a daemon thread (a full pipe would stop the browser). */
    private static final class StderrDrain {
        private static final int KEEP = 64 * 1024;
        private final StringBuilder text = new StringBuilder();
        final CompletableFuture<String> listening = new CompletableFuture<>();

        StderrDrain(InputStream in) {
            Thread thread = new Thread(() -> drain(in), "headless-chromium-stderr");
            thread.setDaemon(true);
            thread.start();
        }

        private void drain(InputStream in) {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    synchronized (text) {
                        text.append(line).append('\n');
                        if (text.length() > KEEP) {
                            text.delete(0, text.length() - KEEP);
                        }
                    }
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        listening.complete(m.group(1));
                    }
                }
            } catch (IOException | UncheckedIOException e) {
                // the stream closes as the browser ends
            } finally {
                listening.completeExceptionally(new IOException("the browser's stderr ended"));
            }
        }

        String text() {
            synchronized (text) {
                return text.toString();
            }
        }
    }

    /** Forcibly ends {@code process} and {@code children} (and whatever else it has started). */
    private static void kill(Process process, List<ProcessHandle> children) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
    }

    private static void deleteRecursively(Path dir) {
        // a child that ends late may still write there: a second pass gets what it left
        for (int attempt = 0; attempt < 3 && Files.exists(dir); attempt++) {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException | UncheckedIOException e) {
                LockSupport.parkNanos(POLL_NANOS);
            }
        }
    }

    private static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(1_000_000, remainingNanos(deadline)));
    }

    private static long remainingNanos(long deadline) {
        return deadline - System.nanoTime();
    }

    private static String abbreviate(String s) {
        return s.length() <= 120 ? s : s.substring(0, 120) + "...";
    }
}
