package io.tandem.world.internal;

import io.tandem.world.World;
import io.tandem.world.WorldFormatException;
import io.tandem.world.internal.XmlTree.Element;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The loaders' messages about elements of a file: errors and once-per-kind warnings, each one line
 * beginning with the element's file (the file being loaded, or the included one it came from) and
 * line. Build-time only; not thread-safe.
 */
public final class SourceMessages {
    private final String file;
    private final Consumer<String> warnings;
    private final Set<String> warned = new HashSet<>();

    /**
     * @param file     the file being loaded, for elements read from it
     * @param warnings receives the warnings, one line each
     */
    public SourceMessages(String file, Consumer<String> warnings) {
        this.file = file;
        this.warnings = w -> warnings.accept(WorldFormatException.oneLine(w));
    }

    /** @return "FILE:LINE" of an element */
    public String where(Element e) {
        return (e.source != null ? e.source : file) + ":" + e.line;
    }

    /** @return an error at the element: "FILE:LINE: message" */
    public WorldFormatException error(Element e, String message) {
        return new WorldFormatException(where(e) + ": " + message);
    }

    /** Reports a kind of unsupported or doubtful element once per load. */
    public void warn(Element e, String kind, String message) {
        if (warned.add(kind)) {
            warnings.accept(where(e) + ": " + message);
        }
    }

    /** Reports a warning that is already placed ("FILE:LINE: ..."), every time. */
    public void warnEveryTime(String message) {
        warnings.accept(message);
    }

    /**
     * @return the attribute's value
     * @throws WorldFormatException if it is missing or empty
     */
    public String required(Element e, String attribute) {
        String v = e.attribute(attribute);
        if (v == null || v.isEmpty()) {
            throw error(e, "<" + e.name + "> needs a " + attribute + "=\"...\" attribute");
        }
        return v;
    }

    /**
     * Reads Tandem's {@code <tandem:coordinates>} of a model: {@code joint} (the default),
     * {@code maximal} or {@code planar} (World.Coordinates).
     *
     * @param c the element, or null when absent
     */
    public World.Coordinates coordinates(Element c) {
        if (c == null) {
            return World.Coordinates.JOINT;
        }
        return switch (c.text().trim()) {
            case "joint" -> World.Coordinates.JOINT;
            case "maximal" -> World.Coordinates.MAXIMAL;
            case "planar" -> World.Coordinates.PLANAR;
            default -> throw error(c, "<" + c.name + "> is '" + c.text().trim() + "'; expected 'joint' (a robot pinned"
                    + " to the world in joint coordinates, the default), 'maximal' (free bodies joined by joint rows) or"
                    + " 'planar' (a wheeled base moving in the plane)");
        };
    }
}
