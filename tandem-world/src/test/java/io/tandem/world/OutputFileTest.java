package io.tandem.world;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file written whole or not at all, with the user's permissions, and no temporary file left behind. */
class OutputFileTest {
    @TempDir
    Path dir;

    /** Records were forced to mode 0600 (a temporary file's permissions, moved into place). */
    @Test
    void commit_writtenFile_hasThePermissionsOfAnyNewFileHere() throws IOException {
        assumeTrue(Files.getFileAttributeView(dir, PosixFileAttributeView.class) != null, "POSIX permissions");
        Path target = dir.resolve("poses.csv");
        try (OutputFile out = OutputFile.start(target)) {
            Files.writeString(out.temp(), "t,x\n");
            out.commit();
        }
        Path probe = Files.createFile(dir.resolve("probe"));
        assertThat(Files.readString(target)).isEqualTo("t,x\n");
        assertThat(Files.getPosixFilePermissions(target)).isEqualTo(Files.getPosixFilePermissions(probe));
        assertThat(hidden()).isEmpty();
    }

    @Test
    void close_withoutCommit_deletesTheTemporaryFileAndKeepsTheTarget() throws IOException {
        Path target = dir.resolve("poses.csv");
        Files.writeString(target, "complete\n");
        try (OutputFile out = OutputFile.start(target)) {
            Files.writeString(out.temp(), "partial");
            assertThat(hidden()).hasSize(1);
        }
        assertThat(Files.readString(target)).isEqualTo("complete\n");
        assertThat(hidden()).isEmpty();
    }

    /** A process killed with kill -9 leaves its temporary file: the next start for that target deletes it. */
    @Test
    void start_leftoverOfAProcessThatNoLongerRuns_deletedOneOfARunningProcessKept() throws IOException {
        Path target = dir.resolve("poses.csv");
        Path dead = Files.createFile(dir.resolve(".poses.csv.999999999.tandem-tmp"));
        long parent = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(1L);
        Path alive = Files.createFile(dir.resolve(".poses.csv." + parent + ".tandem-tmp"));
        Path other = Files.createFile(dir.resolve(".other.csv.999999999.tandem-tmp"));
        try (OutputFile out = OutputFile.start(target)) {
            assertThat(dead).doesNotExist();
            assertThat(alive).exists();
            assertThat(other).as("another target's").exists();
            assertThat(out.temp()).exists();
        }
    }

    private java.util.List<Path> hidden() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".tandem-tmp")).toList();
        }
    }
}
