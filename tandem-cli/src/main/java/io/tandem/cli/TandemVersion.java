package io.tandem.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The version printed by {@code tandem --version}: the Maven project version, filtered into a resource. */
final class TandemVersion implements IVersionProvider {

    @Override
    public String[] getVersion() {
        return new String[] {"tandem " + version(), "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")"};
    }

    /** @return the project version, or "unknown" when the resource is missing (e.g. an unfiltered IDE build) */
    static String version() {
        try (InputStream in = TandemVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "unknown");
            return v.startsWith("${") ? "unknown" : v;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read io/tandem/cli/version.properties", e);
        }
    }
}
