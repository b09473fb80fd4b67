package io.tandem.cli.internal;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Progress lines for a long world load on the error stream: nothing for a load shorter than the
 * first delay (2 s), then a line every 5 s naming the phase (reading the file, with the share read
 * so far, then each later phase the command names) and the time spent. Thread-safe: a daemon
 * thread prints, the loading thread counts bytes and names phases.
 */
public final class LoadProgress implements AutoCloseable {
    /** before the first line, ms */
    public static final long FIRST_MS = 2_000;
    /** between lines, ms */
    public static final long EVERY_MS = 5_000;

    private final String file;
    private final long totalBytes;
    private final PrintWriter err;
    private final LongSupplier nanoClock;
    private final long startNs;
    private final AtomicLong read = new AtomicLong();
    private volatile String phase;
    private final ScheduledExecutorService timer;

    private LoadProgress(String file, long totalBytes, PrintWriter err, LongSupplier nanoClock, boolean scheduled) {
        this.file = file;
        this.totalBytes = totalBytes;
        this.err = err;
        this.nanoClock = nanoClock;
        this.startNs = nanoClock.getAsLong();
        if (scheduled) {
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "tandem-load-progress");
                t.setDaemon(true);
                return t;
            });
            timer.scheduleAtFixedRate(this::tick, FIRST_MS, EVERY_MS, TimeUnit.MILLISECONDS);
        } else {
            timer = null;
        }
    }

    /**
     * Starts reporting.
     *
     * @param file       the file's name, as the user gave it
     * @param totalBytes its size, 0 when unknown
     * @param err        where the lines go
     * @return the reporter; close it when the load is done
     */
    public static LoadProgress start(String file, long totalBytes, PrintWriter err) {
        return new LoadProgress(file, totalBytes, err, System::nanoTime, true);
    }

    /** @return a reporter that prints only on {@link #tick()} (tests) */
    static LoadProgress manual(String file, long totalBytes, PrintWriter err, LongSupplier nanoClock) {
        return new LoadProgress(file, totalBytes, err, nanoClock, false);
    }

    /** @return {@code in}, counting the bytes read from it as the reading phase's progress */
    public InputStream count(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) {
                    read.incrementAndGet();
                }
                return b;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                int n = super.read(buffer, offset, length);
                if (n > 0) {
                    read.addAndGet(n);
                }
                return n;
            }
        };
    }

    /** Names the phase after reading (e.g. "compiling the physics of 1000000 models"). */
    public void phase(String what) {
        phase = what;
    }

    /** Prints the current progress line. */
    void tick() {
        double s = (nanoClock.getAsLong() - startNs) / 1e9;
        String p = phase;
        String line;
        if (p != null) {
            line = String.format(Locale.ROOT, "loading %s: %s (%.0f s)", file, p, s);
        } else if (totalBytes > 0 && read.get() >= totalBytes) {
            line = String.format(Locale.ROOT, "loading %s: building the world's models (%.0f s)", file, s);
        } else if (totalBytes > 0) {
            long r = read.get();
            line = String.format(Locale.ROOT, "loading %s: reading, %.0f %% (%s of %s, %.0f s)", file,
                    100.0 * r / totalBytes, mb(r), mb(totalBytes), s);
        } else {
            line = String.format(Locale.ROOT, "loading %s: reading, %s (%.0f s)", file, mb(read.get()), s);
        }
        synchronized (err) {
            err.println(line);
            err.flush();
        }
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.0f MB", bytes / 1e6);
    }

    /** Stops reporting. */
    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
