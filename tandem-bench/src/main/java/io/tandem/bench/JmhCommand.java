package io.tandem.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code tandem bench jmh [JMH args...]}: hands every argument, unparsed, to
 * {@code org.openjdk.jmh.Main}, which runs the JMH benchmarks compiled into this jar. JMH prints
 * to the process's standard output and exits the JVM itself on a bad command line.
 */
@Command(
        name = "jmh",
        description = {
            "Runs the JMH benchmarks in this jar (org.openjdk.jmh.Main).",
            "Every argument goes to JMH unchanged.",
            "Example: tandem bench jmh TimeSyncBenchmark -prof gc -p participants=2",
            "JMH's own options: tandem bench jmh -h; the benchmarks: tandem bench jmh -l"
        })
final class JmhCommand implements Callable<Integer> {

    @Unmatched
    List<String> jmhArgs = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        org.openjdk.jmh.Main.main(jmhArgs.toArray(new String[0]));
        return 0;
    }
}
