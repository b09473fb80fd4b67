package io.tandem.bench.internal;

import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * CPU time of this process (every thread, user + system), for "CPU seconds per wall second"
 * figures. Stateless; allocates (not for per-step code).
 */
public final class ProcessCpu {
    private ProcessCpu() {
    }

    /** @return CPU time this process used so far, ns (clock resolution: ns where the JVM offers it, else 10 ms) */
    public static long nowNs() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            long ns = os.getProcessCpuTime();
            if (ns >= 0) {
                return ns;
            }
        }
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    /**
     * @param pid a process of this user
     * @return its CPU time so far, ns (10 ms resolution), or -1 if unknown
     */
    public static long ofProcessNs(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().totalCpuDuration()).map(Duration::toNanos).orElse(-1L);
    }
}
