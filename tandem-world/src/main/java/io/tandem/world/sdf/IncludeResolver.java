package io.tandem.world.sdf;

import io.tandem.world.WorldFormatException;
import io.tandem.world.internal.XmlTree;
import io.tandem.world.internal.XmlTree.Element;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/*
 * SDF <include> as libsdformat resolves it (sdformat's "Including models" and gz-sim's resource
 * paths): <uri> is model://NAME[/...] looked up in each folder of GZ_SIM_RESOURCE_PATH, then the
 * older IGN_GAZEBO_RESOURCE_PATH and SDF_PATH (in that order, first match wins), or a path relative
 * to the including file's folder (file:// too). A model folder holds model.config, whose <sdf>
 * entries name the model file per SDF version (the newest one Tandem reads is taken; model.sdf
 * without a config). The included file's <model> replaces the <include>, with the include's
 * <name>, <pose> and <static> overriding its own. Includes nest (inside included models and inside
 * <model>), relative to the file that holds them, to 16 levels (deeper is taken for a cycle).
 * Fuel URLs (https://fuel.gazebosim.org/...) are not downloaded: the error says how to get the model.
 */

/** Expands a parsed world's includes in place. Build-time only; not thread-safe. */
final class IncludeResolver {
    /** the environment variables of model folders, in lookup order */
    static final List<String> PATH_VARIABLES = List.of("GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH", "SDF_PATH");
    private static final int MAX_DEPTH = 16;
    private static final String[] VERSIONS = {"1.11", "1.10", "1.9", "1.8", "1.7", "1.6"};

    /** errors at file:line (the including file's, or an included one's) */
    private final io.tandem.world.internal.SourceMessages messages;
    private final List<Path> modelPath;
    private final Consumer<String> warnings;

    /**
     * @param mainFile  the loaded file's name, for messages about its own elements
     * @param modelPath the folders model:// URIs are looked up in, in order
     * @param warnings  receives one line per ignored element
     */
    IncludeResolver(String mainFile, List<Path> modelPath, Consumer<String> warnings) {
        this.messages = new io.tandem.world.internal.SourceMessages(mainFile, warnings);
        this.modelPath = List.copyOf(modelPath);
        this.warnings = warnings;
    }

    /** @return the model folders the environment names ({@link #PATH_VARIABLES}, each a path list) */
    static List<Path> modelPath(Map<String, String> env) {
        return io.tandem.world.internal.MeshSources.paths(env, PATH_VARIABLES);
    }

    /**
     * Replaces every {@code <include>} among {@code parent}'s children (and in its models,
     * recursively) by the model it names.
     *
     * @param dir the folder relative URIs start from
     * @throws WorldFormatException naming the include's file:line, the URI and the fix
     */
    void expand(Element parent, Path dir) {
        expand(parent, dir, 0);
    }

    private void expand(Element parent, Path dir, int depth) {
        for (int i = 0; i < parent.children.size(); i++) {
            Element c = parent.children.get(i);
            if (c.name.equals("include")) {
                parent.children.set(i, resolve(c, dir, depth));
            } else if (c.name.equals("model")) {
                expand(c, dir, depth);
            }
        }
    }

    private Element resolve(Element include, Path dir, int depth) {
        if (depth >= MAX_DEPTH) {
            throw error(include, "includes nested " + MAX_DEPTH + " deep: does a model include itself?");
        }
        Element uriElement = include.child("uri");
        if (uriElement == null || uriElement.text().isEmpty()) {
            throw error(include, "<include> needs a <uri> (model://NAME, or a path to a model folder or .sdf file)");
        }
        String uri = uriElement.text();
        Path target = locate(uriElement, uri, dir);
        Path file = Files.isDirectory(target) ? modelFile(uriElement, target) : target;
        if (!Files.isRegularFile(file)) {
            // a device or a pipe (/dev/zero) would be read for ever
            throw error(uriElement, "'" + uri + "' names " + file + ", which is not a regular file: give a model folder"
                    + " or an .sdf file");
        }
        Element root;
        try (InputStream in = Files.newInputStream(file)) {
            root = XmlTree.parse(in, file.toString());
        } catch (SAXParseException e) {
            throw new WorldFormatException(file + (e.getLineNumber() > 0 ? ":" + e.getLineNumber() : "")
                    + ": not well-formed XML (included at " + where(include) + "): " + e.getMessage(), e);
        } catch (SAXException | IOException e) {
            throw error(include, "cannot read " + file + ", which " + uri + " names: " + e.getMessage());
        }
        Element model = root.name.equals("sdf") ? root.child("model") : null;
        if (model == null) {
            throw error(include, file + ", which " + uri + " names, holds no <sdf><model>: an include takes a model");
        }
        expand(model, file.toAbsolutePath().getParent(), depth + 1);
        if (include.child("placement_frame") != null) {
            warnings.accept(where(include.child("placement_frame")) + ": <placement_frame> is not supported: the"
                    + " include's <pose> places the model frame");
        }
        Map<String, String> attributes = new LinkedHashMap<>(model.attributes);
        Element name = include.child("name");
        if (name != null && !name.text().isEmpty()) {
            attributes.put("name", name.text());
        }
        List<Element> children = new ArrayList<>();
        for (Element c : model.children) {
            boolean overridden = (c.name.equals("pose") && include.child("pose") != null)
                    || (c.name.equals("static") && include.child("static") != null);
            if (!overridden) {
                children.add(c);
            }
        }
        for (String o : List.of("pose", "static")) {
            if (include.child(o) != null) {
                children.add(0, include.child(o));
            }
        }
        return model.with(attributes, children);
    }

    /** @return the file or folder a URI names */
    private Path locate(Element at, String uri, Path dir) {
        if (uri.startsWith("model://")) {
            String rest = uri.substring("model://".length()).replaceAll("/+$", "");
            if (rest.isEmpty() || rest.contains("..") || rest.startsWith("/")) {
                throw error(at, "'" + uri + "' names no model: write model://NAME");
            }
            for (Path d : modelPath) {
                Path c = d.resolve(rest);
                if (Files.exists(c)) {
                    return c;
                }
            }
            throw error(at, "cannot find " + uri + ": no folder '" + rest + "' in " + (modelPath.isEmpty()
                    ? "any model path (none is set)" : modelPath) + "; set GZ_SIM_RESOURCE_PATH to the folder that holds"
                    + " it");
        }
        if (uri.startsWith("http://") || uri.startsWith("https://")) {
            throw error(at, uri + " is an online model (Fuel), which Tandem does not download: fetch it (gz fuel download"
                    + " -u " + uri + "), then point GZ_SIM_RESOURCE_PATH at the folder and include model://NAME");
        }
        Path p;
        try {
            p = uri.startsWith("file://") ? Path.of(URI.create(uri)) : dir.resolve(uri);
        } catch (RuntimeException e) {
            throw error(at, "'" + uri + "' is not a path or model:// URI: " + e.getMessage());
        }
        if (!Files.exists(p)) {
            throw error(at, "cannot find '" + uri + "': " + p + " does not exist (a relative path starts from the"
                    + " including file's folder)");
        }
        return p;
    }

    /** @return the SDF file of a model folder: model.config's newest readable version, or model.sdf */
    private Path modelFile(Element at, Path folder) {
        Path config = folder.resolve("model.config");
        if (Files.isRegularFile(config)) {
            Element root;
            try (InputStream in = Files.newInputStream(config)) {
                root = XmlTree.parse(in, config.toString());
            } catch (SAXException | IOException e) {
                throw error(at, "cannot read " + config + ": " + e.getMessage());
            }
            List<Element> sdfs = root.children("sdf");
            for (String v : VERSIONS) {
                for (Element s : sdfs) {
                    if (v.equals(s.attribute("version")) && !s.text().isEmpty()) {
                        return existing(s, folder.resolve(s.text()));
                    }
                }
            }
            if (!sdfs.isEmpty() && !sdfs.get(0).text().isEmpty()) {
                return existing(sdfs.get(0), folder.resolve(sdfs.get(0).text()));
            }
        }
        Path sdf = folder.resolve("model.sdf");
        if (Files.isRegularFile(sdf)) {
            return sdf;
        }
        throw error(at, "model folder " + folder + " has no model.config naming its SDF file, and no model.sdf");
    }

    private Path existing(Element at, Path file) {
        if (!Files.isRegularFile(file)) {
            throw error(at, "the model's SDF file " + file + " does not exist");
        }
        return file;
    }

    private String where(Element e) {
        return messages.where(e);
    }

    private WorldFormatException error(Element e, String message) {
        return messages.error(e, message);
    }
}
