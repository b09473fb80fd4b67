package io.tandem.cli.view;

import io.tandem.world.WorldFormatException;
import io.tandem.world.record.McapReader;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tandem view RECORDING.mcap}: serves the viewer's page on a recorded run, with a timeline
 * (play, pause, seek, speed). Runs until Ctrl-C (or {@code --for-s}).
 */
@Command(name = "view", mixinStandardHelpOptions = true,
        description = {"Replays a recording made with 'tandem sim WORLD --record FILE.mcap' in the viewer: the 3D scene and a"
                + " timeline (play, pause, seek, speed).",
            "Example: tandem view run.mcap --port 8080"})
public final class ViewCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RECORDING", description = "An MCAP file written by tandem sim --record FILE.mcap.")
    Path recording;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "8080", description = "The port (default: ${DEFAULT-VALUE};"
            + " 0: any free one).")
    int port;

    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1", description = "The address to listen on"
            + " (default: ${DEFAULT-VALUE}, this machine only).")
    String bind;

    @Option(names = "--play", description = "Start playing (default: paused at the start).")
    boolean play;

    @Option(names = "--partial", description = "Replay a recording cut short (a killed run) up to its last complete chunk.")
    boolean partial;

    @Option(names = "--for-s", paramLabel = "S", hidden = true, defaultValue = "-1", description = "Serve for S seconds, then"
            + " exit (tests); default: until Ctrl-C.")
    double forS;

    @Override
    public Integer call() {
        if (port < 0 || port > 65535) {
            throw new ParameterException(spec.commandLine(), "--port takes 0..65535, got " + port);
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.isRegularFile(recording)) {
            err.println("tandem view: " + recording + ": no such file; give a recording written with --record FILE.mcap");
            return 2;
        }
        McapReader.Recording r;
        try {
            r = McapReader.read(recording);
        } catch (WorldFormatException e) {
            err.println("tandem view: " + e.getMessage());
            return 2;
        }
        if (r.problem() != null && !partial) {
            // the reader's problem names the file, where it ends and what it holds before that
            err.println("tandem view: " + r.problem() + "; add --partial to replay what it holds");
            return 2;
        }
        try (io.tandem.cli.internal.StopSignal stop = io.tandem.cli.internal.StopSignal.onShutdown();
             ViewerHub hub = new ViewerHub()) {
            Replay replay;
            ViewerServer server;
            try {
                replay = new Replay(r, recording.toString(), hub, System::nanoTime, play);
                server = ViewerServer.start(bind, port, hub, replay);
            } catch (ViewerException e) {
                err.println("tandem view: " + e.getMessage());
                return 2;
            }
            try (server; replay) {
                replay.start();
                out.printf(java.util.Locale.ROOT, "viewer: %s (%d frames, %.3f s to %.3f s of simulated time)%n", server.url(),
                        replay.frames(), replay.startNs() / 1e9, replay.endNs() / 1e9);
                out.flush();
                long until = forS < 0 ? Long.MAX_VALUE : System.nanoTime() + (long) (forS * 1e9);
                while (!stop.isRequested() && System.nanoTime() < until) {
                    LockSupport.parkNanos(20_000_000L);
                }
            }
        }
        return 0;
    }
}
