package io.tandem.world;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A file written whole or not at all (a record, an experiment's outputs): the content goes to a
 * hidden temporary file beside the target, {@code .NAME.PID.tandem-tmp}, that {@link #commit} moves
 * into place in one step and {@link #close} deletes when it was not committed. The temporary file
 * is created with the default permissions, so the user's umask rules as for any file they write.
 * A process killed outright (kill -9) cannot delete its temporary file; the next one started for
 * the same target deletes those whose process no longer runs.
 *
 * <p>Not thread-safe; one per file being written.
 */
public final class OutputFile implements AutoCloseable {
    private static final String SUFFIX = ".tandem-tmp";
    private final Path target;
    private final Path temp;
    private boolean committed;

    private OutputFile(Path target, Path temp) {
        this.target = target;
        this.temp = temp;
    }

    /**
     * Creates the temporary file for {@code target} (and the target's folder if missing), after
     * deleting the temporary files of the same target left by processes that no longer run.
     *
     * @param target the file to write
     * @return the output file; write to {@link #temp()}
     * @throws IOException if the folder or the temporary file cannot be created
     */
    public static OutputFile start(Path target) throws IOException {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        Files.createDirectories(dir);
        String prefix = "." + abs.getFileName() + ".";
        try (DirectoryStream<Path> left = Files.newDirectoryStream(dir, prefix + "*" + SUFFIX)) {
            for (Path p : left) {
                String name = p.getFileName().toString();
                String pid = name.substring(prefix.length(), name.length() - SUFFIX.length());
                if (pid.matches("[0-9]{1,18}") && ProcessHandle.of(Long.parseLong(pid)).isEmpty()) {
                    Files.deleteIfExists(p);
                }
            }
        }
        Path temp = dir.resolve(prefix + ProcessHandle.current().pid() + SUFFIX);
        Files.deleteIfExists(temp);
        return new OutputFile(abs, Files.createFile(temp));
    }

    /** @return the temporary file to write the content to */
    public Path temp() {
        return temp;
    }

    /** @return the file {@link #commit} writes */
    public Path target() {
        return target;
    }

    /**
     * Moves the temporary file into place, replacing the target in one step.
     *
     * @throws IOException if the move fails (the temporary file is then deleted by {@link #close})
     */
    public void commit() throws IOException {
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        committed = true;
    }

    /** Deletes the temporary file unless it was committed. Idempotent. */
    @Override
    public void close() throws IOException {
        if (!committed) {
            Files.deleteIfExists(temp);
        }
    }
}
