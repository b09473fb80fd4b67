package io.tandem.cosim.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ChildJvm} against real child JVMs running {@link ChildJvmTestMain}. */
class ChildJvmTest {
    private static final long WAIT_MS = 60_000;

    @TempDir
    Path dir;

    private final List<ChildJvm> started = new ArrayList<>();

    @AfterEach
    void killChildren() {
        for (ChildJvm c : started) {
            c.kill();
        }
    }

    private static ChildJvm.Builder child(String name, String... args) {
        return ChildJvm.builder(name, ChildJvmTestMain.class.getName())
                .jvmOptions(List.of("-Xmx64m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"))
                .args(List.of(args));
    }

    private ChildJvm start(ChildJvm.Builder b) {
        ChildJvm c = b.start();
        started.add(c);
        return c;
    }

    private static String next(BlockingQueue<String> lines) throws InterruptedException {
        String line = lines.poll(WAIT_MS, TimeUnit.MILLISECONDS);
        assertThat(line).as("a line within %d ms", WAIT_MS).isNotNull();
        return line;
    }

    @Test
    void start_childPrintsAndExits_everyLineHandedOverThenTheEnd() throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        CompletableFuture<List<String>> atEnd = new CompletableFuture<>();
        Path err = dir.resolve("printer.err");
        ChildJvm c = start(child("printer", "print", "3", "one", "two", " ").stderrTo(err).onLine(lines::add)
                .onOutputEnd(() -> atEnd.complete(List.copyOf(lines))));

        assertThat(c.waitFor(WAIT_MS)).isTrue();
        assertThat(atEnd.get(WAIT_MS, TimeUnit.MILLISECONDS)).containsExactly("one", "two", " ");
        assertThat(c.isAlive()).isFalse();
        assertThat(c.process().exitValue()).isEqualTo(3);
        assertThat(c.name()).isEqualTo("printer");
        assertThat(c.lastLine()).isEqualTo("two");
        assertThat(c.exitReport()).isEqualTo("it exited with code 3; its last output:\n  one\n  two\n   ");
        assertThat(Files.readString(err)).isEqualTo("err" + System.lineSeparator());
    }

    @Test
    void exitReport_tailLines_keepsOnlyTheLastLines() throws Exception {
        ChildJvm c = start(child("printer", "print", "0", "one", "two", "three").tailLines(2));

        assertThat(c.waitFor(WAIT_MS)).isTrue();
        c.awaitOutput(WAIT_MS);
        // standard error is merged: "err" is the last line
        assertThat(c.exitReport()).isEqualTo("it exited with code 0; its last output:\n  three\n  err");
        assertThat(c.lastLine()).isEqualTo("err");
    }

    @Test
    void lastLine_childPrintedNothing_saysSo() throws Exception {
        ChildJvm c = start(child("silent", "print", "0").stderrTo(dir.resolve("silent.err")));

        assertThat(c.waitFor(WAIT_MS)).isTrue();
        c.awaitOutput(WAIT_MS);
        assertThat(c.lastLine()).isEqualTo("(no output)");
        assertThat(c.exitReport()).isEqualTo("it exited with code 0");
    }

    @Test
    void send_echoChild_answersThenEndClosesItsInputAndItExitsByItself() throws Exception {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        ChildJvm c = start(child("echo", "echo").onLine(lines::add));

        c.send("hello");
        assertThat(next(lines)).isEqualTo("got hello");
        c.end(WAIT_MS);

        assertThat(c.isAlive()).isFalse();
        assertThat(c.process().exitValue()).as("exited by itself, not killed").isZero();
        assertThatThrownBy(() -> c.send("late")).isInstanceOf(IOException.class);
    }

    @Test
    void closeInput_childWatchingItsParent_exits() throws Exception {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        ChildJvm c = start(child("watcher", "watch").onLine(lines::add));
        assertThat(next(lines)).isEqualTo("ready");

        c.closeInput();

        assertThat(c.waitFor(WAIT_MS)).isTrue();
        assertThat(c.process().exitValue()).isEqualTo(7);
    }

    @Test
    void terminate_childIgnoringItsInput_endsOnSigterm() throws Exception {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        ChildJvm c = start(child("hanger", "hang").onLine(lines::add));
        assertThat(next(lines)).isEqualTo("ready");

        c.terminate(WAIT_MS);

        assertThat(c.isAlive()).isFalse();
        assertThat(c.process().exitValue()).as("128 + SIGTERM").isEqualTo(143);
    }

    @Test
    void end_childIgnoringItsInput_killedAfterTheGrace() throws Exception {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        ChildJvm c = start(child("hanger", "hang").onLine(lines::add));
        assertThat(next(lines)).isEqualTo("ready");

        c.end(100);

        assertThat(c.isAlive()).isFalse();
        assertThat(c.process().exitValue()).as("128 + SIGKILL").isEqualTo(137);
        assertThat(c.toString()).isEqualTo("child JVM hanger (pid " + c.pid() + ", ended)");
    }

    @Test
    void command_explicitPropertiesWin_thisJvmsTandemPropertiesFollow_unlessNotInherited() {
        System.setProperty("tandem.childjvmtest.a", "parent");
        System.setProperty("tandem.childjvmtest.b", "parent");
        try {
            List<String> cmd = child("cmd", "x", "y").property("tandem.childjvmtest.a", "child").command();
            assertThat(cmd.subList(1, 3)).containsExactly("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED");
            assertThat(cmd.subList(3, 7)).containsExactly("-Xmx64m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                    "-Dtandem.childjvmtest.a=child");
            assertThat(cmd).contains("-Dtandem.childjvmtest.b=parent").doesNotContain("-Dtandem.childjvmtest.a=parent");
            assertThat(cmd.subList(cmd.size() - 5, cmd.size())).containsExactly("-cp", ChildJvm.defaultClasspath(),
                    ChildJvmTestMain.class.getName(), "x", "y");

            List<String> alone = child("cmd", "x").inheritProperties(false).command();
            assertThat(alone).noneMatch(a -> a.startsWith("-Dtandem.") || a.startsWith("-Dorg.slf4j."));
        } finally {
            System.clearProperty("tandem.childjvmtest.a");
            System.clearProperty("tandem.childjvmtest.b");
        }
    }

    @Test
    void builder_invalidArguments_rejectedAtOnceNamingTheChild() {
        assertThatThrownBy(() -> ChildJvm.builder(" ", "x.Main")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a child JVM needs a name");
        assertThatThrownBy(() -> ChildJvm.builder("c", null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("child JVM c needs a main class");
        assertThatThrownBy(() -> ChildJvm.builder("c", "x.Main").onLine(null)).hasMessageContaining("child JVM c");
        assertThatThrownBy(() -> ChildJvm.builder("c", "x.Main").onOutputEnd(null)).hasMessageContaining("child JVM c");
        assertThatThrownBy(() -> ChildJvm.builder("c", "x.Main").tailLines(-1)).hasMessage(
                "child JVM c: tail lines must be >= 0, got -1");
    }
}
