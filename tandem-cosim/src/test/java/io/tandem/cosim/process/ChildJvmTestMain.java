package io.tandem.cosim.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/**
 * The child of {@link ChildJvmTest}. Modes:
 * <ul>
 *   <li>{@code print CODE LINE...}: prints the lines (and "err" on standard error), exits with CODE;</li>
 *   <li>{@code echo}: answers each input line "got LINE", exits 0 when its input ends;</li>
 *   <li>{@code watch}: prints "ready", exits 7 when its parent closes its input
 *       ({@link ChildJvm#exitWhenParentEnds});</li>
 *   <li>{@code hang}: prints "ready" and waits until it is terminated.</li>
 * </ul>
 */
@SuppressForbidden // a process entry point: talks over its standard streams, ends with an exit code
final class ChildJvmTestMain {
    private ChildJvmTestMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        switch (args[0]) {
            case "print" -> {
                for (int i = 2; i < args.length; i++) {
                    System.out.println(args[i]);
                }
                System.err.println("err");
                System.out.flush();
                System.exit(Integer.parseInt(args[1]));
            }
            case "echo" -> {
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                String line;
                while ((line = in.readLine()) != null) {
                    System.out.println("got " + line);
                    System.out.flush();
                }
                System.exit(0);
            }
            case "watch" -> {
                ChildJvm.exitWhenParentEnds(() -> System.exit(7));
                System.out.println("ready");
                System.out.flush();
                new CountDownLatch(1).await();
            }
            case "hang" -> {
                System.out.println("ready");
                System.out.flush();
                new CountDownLatch(1).await();
            }
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }
}
