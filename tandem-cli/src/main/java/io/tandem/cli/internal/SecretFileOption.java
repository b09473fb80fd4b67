package io.tandem.cli.internal;

import io.tandem.net.NetConfig;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --secret-file FILE} of every command that starts or joins a tandem:// group: sets
 * {@link NetConfig#SECRET_FILE_PROP_NAME} (which local secondaries inherit; the secret itself never
 * appears on a command line) after checking the file; a picocli {@code @Mixin}. Set by picocli when
 * the command line is parsed.
 */
public final class SecretFileOption {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    /** Used by picocli. */
    public SecretFileOption() {
    }

    /**
     * @param file the group's shared secret file
     * @throws ParameterException if it cannot be read or has the wrong size (exit code 2)
     */
    @Option(names = "--secret-file", paramLabel = "FILE",
            description = "The group's shared secret (16 bytes to 64 KiB, e.g. 'head -c 32 /dev/urandom > FILE',"
                + " mode 600): members authenticate to the group with it and sign every frame, so a process without"
                + " it can neither join nor inject a step, an ack or a message. Not encryption. Every registry and"
                + " participant needs the same contents. Also the system property " + NetConfig.SECRET_FILE_PROP_NAME
                + ".")
    void secretFile(Path file) {
        Path absolute = file.toAbsolutePath();
        try {
            NetConfig.builder().secretFile(absolute).build();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "invalid value for option '--secret-file': "
                    + CliSupport.oneLine(e.getMessage()));
        }
        System.setProperty(NetConfig.SECRET_FILE_PROP_NAME, absolute.toString());
    }
}
