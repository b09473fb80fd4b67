package io.tandem.cli.spi;

import picocli.CommandLine.Option;

/**
 * {@code --json} of the commands that print one JSON object per result line instead of their text,
 * as a picocli {@code @Mixin}. Set by picocli when the command line is parsed.
 */
public final class JsonLinesOption {
    @Option(names = "--json", description = "Print one JSON object per result line and nothing else.")
    boolean json;

    /** Used by picocli. */
    public JsonLinesOption() {
    }

    /** @return whether to print JSON lines only */
    public boolean json() {
        return json;
    }
}
