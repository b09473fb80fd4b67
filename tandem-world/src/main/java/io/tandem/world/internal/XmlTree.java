package io.tandem.world.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParserFactory;
import org.xml.sax.Attributes;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * A minimal XML element tree that keeps each element's line, read with SAX (external entities
 * and DTDs off). Build-time only; allocates freely.
 */
public final class XmlTree {
    /** One element: name, attributes, trimmed text, children, line. */
    public static final class Element {
        public final String name;
        public final Map<String, String> attributes;
        public final List<Element> children = new ArrayList<>();
        public final int line;
        /** the file the element was read from, or null for the document being loaded */
        public final String source;
        final StringBuilder text = new StringBuilder();

        Element(String name, Map<String, String> attributes, int line, String source) {
            this.name = name;
            this.attributes = attributes;
            this.line = line;
            this.source = source;
        }

        /**
         * @return a copy with other attributes and children (the same name, text, line and source)
         */
        public Element with(Map<String, String> newAttributes, List<Element> newChildren) {
            Element e = new Element(name, newAttributes, line, source);
            e.text.append(text);
            e.children.addAll(newChildren);
            return e;
        }

        /** @return a new element of this name with this text, no attributes or children, at this line and source */
        public Element withText(String value) {
            Element e = new Element(name, Collections.emptyMap(), line, source);
            e.text.append(value);
            return e;
        }

        /** @return the trimmed text content */
        public String text() {
            return text.toString().trim();
        }

        /** @return the first child of that name, or null */
        public Element child(String childName) {
            for (Element e : children) {
                if (e.name.equals(childName)) {
                    return e;
                }
            }
            return null;
        }

        /** @return every child of that name, in order */
        public List<Element> children(String childName) {
            List<Element> out = new ArrayList<>();
            for (Element e : children) {
                if (e.name.equals(childName)) {
                    out.add(e);
                }
            }
            return out;
        }

        /** @return the attribute, or null */
        public String attribute(String key) {
            return attributes.get(key);
        }
    }

    private XmlTree() {
    }

    /**
     * Parses a document.
     *
     * @throws SAXParseException with the line of a syntax error
     */
    public static Element parse(InputStream in) throws IOException, SAXException {
        return parse(in, null);
    }

    /**
     * Parses a document whose elements name the file they come from (an included file).
     *
     * @param source the file, for messages ({@link Element#source}); null for the document being loaded
     * @throws SAXParseException with the line of a syntax error
     */
    public static Element parse(InputStream in, String source) throws IOException, SAXException {
        String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        byte[] lenient = relaxComments(text).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        SAXParserFactory f = SAXParserFactory.newInstance();
        try {
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            Handler h = new Handler(source);
            f.newSAXParser().parse(new java.io.ByteArrayInputStream(lenient), h);
            return h.root;
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("no usable XML parser: " + e.getMessage(), e);
        }
    }

    /**
     * Parses a document the way the loaders report it: a syntax error is a one-line
     * {@link io.tandem.world.WorldFormatException} naming {@code source} and the line (when the
     * parser knows it), a read error one naming {@code source}.
     */
    public static Element parseOrRefuse(InputStream in, String source) {
        try {
            return parse(in);
        } catch (SAXParseException e) {
            // the parser gives no line for some errors (an empty or cut-off file): then none is named
            throw new io.tandem.world.WorldFormatException(source + (e.getLineNumber() > 0 ? ":" + e.getLineNumber() : "")
                    + ": not well-formed XML: " + e.getMessage(), e);
        } catch (SAXException | IOException e) {
            throw new io.tandem.world.WorldFormatException(source + ": cannot parse it: " + e.getMessage(), e);
        }
    }

    /**
     * Reads a file with {@code reader}; a missing or unreadable file is a one-line
     * {@link io.tandem.world.WorldFormatException} naming it (and, when missing, what it should be).
     *
     * @param expected what the file should be, for the message ("an .sdf world file")
     * @param wrap     wraps the file's stream (e.g. to count the bytes read); closed after reading
     */
    public static <T> T readFile(java.nio.file.Path path, String expected,
            java.util.function.UnaryOperator<InputStream> wrap, java.util.function.Function<InputStream, T> reader) {
        try (InputStream in = wrap.apply(java.nio.file.Files.newInputStream(path))) {
            return reader.apply(in);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new io.tandem.world.WorldFormatException(path + ": no such file; give the path of " + expected);
        } catch (IOException e) {
            throw new io.tandem.world.WorldFormatException(path + ": cannot read it: " + e.getMessage(), e);
        }
    }

    /**
     * XML forbids "--" inside comments; TinyXML2 (Gazebo's parser) accepts it and Gazebo's own
     * worlds have it ("--levels"). Replaced by "==" inside comments, so lines and columns stay.
     */
    public static String relaxComments(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (true) {
            int start = text.indexOf("<!--", i);
            if (start < 0) {
                out.append(text, i, text.length());
                return out.toString();
            }
            int end = text.indexOf("-->", start + 4);
            if (end < 0) {
                out.append(text, i, text.length());
                return out.toString();
            }
            out.append(text, i, start + 4);
            out.append(text.substring(start + 4, end).replace("--", "=="));
            out.append("-->");
            i = end + 3;
        }
    }

    private static final class Handler extends DefaultHandler {
        private final String source;
        private Locator locator;
        private final Deque<Element> stack = new ArrayDeque<>();
        Element root;

        Handler(String source) {
            this.source = source;
        }

        @Override
        public void setDocumentLocator(Locator l) {
            locator = l;
        }

        @Override
        public void startElement(String uri, String localName, String qName, Attributes atts) {
            Map<String, String> a = atts.getLength() == 0 ? Collections.emptyMap() : new LinkedHashMap<>();
            for (int i = 0; i < atts.getLength(); i++) {
                a.put(atts.getQName(i), atts.getValue(i));
            }
            Element e = new Element(qName, a, locator == null ? 0 : locator.getLineNumber(), source);
            if (stack.isEmpty()) {
                root = e;
            } else {
                stack.peek().children.add(e);
            }
            stack.push(e);
        }

        @Override
        public void endElement(String uri, String localName, String qName) {
            stack.pop();
        }

        @Override
        public void characters(char[] ch, int start, int length) {
            if (!stack.isEmpty()) {
                stack.peek().text.append(ch, start, length);
            }
        }
    }
}
