package io.tandem.cle.internal.json;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.events.CollectionStartEvent;
import org.snakeyaml.engine.v2.events.DocumentStartEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.MappingEndEvent;
import org.snakeyaml.engine.v2.events.MappingStartEvent;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.events.SequenceEndEvent;
import org.snakeyaml.engine.v2.events.SequenceStartEvent;
import org.snakeyaml.engine.v2.events.StreamEndEvent;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.ReaderException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.parser.Parser;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.Scanner;
import org.snakeyaml.engine.v2.scanner.ScannerImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;
import org.snakeyaml.engine.v2.tokens.Token;

/**
 * Reads a YAML 1.2 document with snakeyaml-engine's event parser into the same {@link JsonValue}
 * tree as {@link JsonParser} (with the line and column of every value and key), so that checks
 * downstream do not know which format the file was in.
 *
 * <p>Plain scalars resolve by the YAML 1.2 core schema: {@code null}, {@code ~} and nothing are
 * null, {@code true}/{@code false} booleans, decimal integers and floats numbers keeping their
 * text, anything else a string; quoted and block scalars are strings; keys are strings. Rejected,
 * with the line, the column and the fix: anchors, aliases, tags, directives, several documents,
 * complex ({@code ? }) and non-scalar keys, duplicate keys, {@code key: value} pairs inside
 * {@code [ ]}, {@code .inf}/{@code .nan} (JSON has neither), hexadecimal and octal numbers, an empty
 * file or document, tabs in indentation; the library's syntax errors become one line with a hint.
 * A tab the library refuses between tokens outside indentation (as in {@code key:<TAB>value}, which
 * YAML 1.2 allows) is read as a space. A leading byte order mark is skipped.
 *
 * <p>Stateless apart from one parse; not thread-safe; allocates the tree.
 */
public final class YamlReader {
    private static final Pattern NUMBER = Pattern.compile("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
    private static final Pattern INF = Pattern.compile("[-+]?\\.(inf|Inf|INF)");
    private static final Pattern NAN = Pattern.compile("\\.(nan|NaN|NAN)");
    private static final Pattern RADIX = Pattern.compile("0x[0-9a-fA-F]+|0o[0-7]+");

    private final String s;
    private final int[] lineStarts;
    private final Parser parser;
    private ScalarEvent lastScalar; // for a syntax error after a quoted string that ran on too far

    private YamlReader(String text) {
        s = text;
        List<Integer> starts = new ArrayList<>(List.of(0));
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n' || c == '\r' && (i + 1 == s.length() || s.charAt(i + 1) != '\n')) {
                starts.add(i + 1);
            }
        }
        lineStarts = starts.stream().mapToInt(Integer::intValue).toArray();
        // the whole text in the reader's buffer: snakeyaml-engine 2.10 fails (IndexOutOfBoundsException) on a
        // surrogate pair that straddles two buffer fills
        LoadSettings settings = LoadSettings.builder().setCodePointLimit(Integer.MAX_VALUE)
                .setBufferSize(text.length() + 2).build();
        Scanner scanner = new ScannerImpl(settings, new StreamReader(settings, text));
        parser = new ParserImpl(settings, new Scanner() {
            @Override
            public boolean checkToken(Token.ID... ids) {
                return scanner.checkToken(ids);
            }

            @Override
            public Token peekToken() {
                return scanner.peekToken();
            }

            @Override
            public boolean hasNext() {
                return scanner.hasNext();
            }

            @Override
            public Token next() {
                return refuseUnsupported(scanner.next());
            }

            @Override
            public void resetDocumentIndex() {
                scanner.resetDocumentIndex();
            }
        });
    }

    /**
     * Parses one YAML document.
     *
     * @param text the whole document
     * @return the value, with positions
     * @throws JsonException at the first problem, naming its line, column and fix
     */
    public static JsonValue parse(String text) {
        String t = !text.isEmpty() && text.charAt(0) == '\uFEFF' ? text.substring(1) : text;
        while (true) { // each round reads one more refused separating tab as a space
            YamlReader r = new YamlReader(t);
            try {
                return r.document();
            } catch (MarkedYamlEngineException e) {
                int tab = r.separatingTab(e);
                if (tab < 0) {
                    throw r.translate(e);
                }
                t = t.substring(0, tab) + ' ' + t.substring(tab + 1);
            } catch (ReaderException e) {
                int at = t.offsetByCodePoints(0, Math.min(e.getPosition(), t.codePointCount(0, t.length())));
                throw r.error(at, (Character.isISOControl(e.getCodePoint()) ? "control " : "") + "character U+"
                        + String.format(Locale.ROOT, "%04X", e.getCodePoint()) + " is not allowed in YAML: remove it, or"
                        + " write it as an escape in a \"...\" string");
            } catch (YamlEngineException e) {
                throw new JsonException(1, 1, String.valueOf(e.getMessage()).lines().findFirst().orElse("invalid YAML"));
            }
        }
    }

    // ---- the tree

    private JsonValue document() {
        parser.next(); // the stream's start
        Event e = parser.next();
        if (e instanceof StreamEndEvent) {
            throw error(e.getStartMark(), "the file is empty: an experiment file is one mapping, name: ..., world: ...");
        }
        Event first = parser.next();
        if (isEmpty(first)) {
            throw error(first.getStartMark(), "the document after '---' is empty: an experiment file is one mapping,"
                    + " name: ...");
        }
        JsonValue root = node(first, 0);
        parser.next(); // the document's end
        e = parser.next();
        if (e instanceof DocumentStartEvent) {
            throw error(e.getStartMark(), "a second document: an experiment file is one document; remove this '---'"
                    + " and what follows (one experiment per file)");
        }
        return root;
    }

    private JsonValue node(Event e, int depth) {
        if (depth > JsonParser.MAX_DEPTH) {
            throw error(e.getStartMark(), "nesting deeper than " + JsonParser.MAX_DEPTH + " levels: flatten the document");
        }
        Pos where = pos(at(e.getStartMark()));
        int line = where.line();
        int col = where.column();
        if (e instanceof ScalarEvent sc) {
            lastScalar = sc;
            return sc.isPlain() ? resolve(sc.getValue(), line, col) : new JsonValue.JsonString(sc.getValue(), line, col);
        }
        boolean flow = ((CollectionStartEvent) e).isFlow();
        if (e instanceof SequenceStartEvent) {
            List<JsonValue> items = new ArrayList<>();
            Event pair = null; // a key: value pair inside [ ], refused once the [ ] is read
            for (Event x = parser.next(); !(x instanceof SequenceEndEvent); x = parser.next()) {
                if (flow && pair == null && x instanceof MappingStartEvent && at(x.getStartMark()) == at(x.getEndMark())) {
                    pair = x;
                }
                JsonValue v = node(x, depth + 1);
                if (!flow && isEmpty(x) && s.charAt(at(x.getStartMark()) - 1) == '-') {
                    v = new JsonValue.JsonNull(v.line(), v.column() - 1); // an empty item is where its '-' is
                }
                items.add(v);
            }
            if (pair != null) {
                throw error(pair.getStartMark(), "a key: value pair inside [ ]: write it as a mapping, {key: value}");
            }
            return new JsonValue.JsonArray(items, line, col);
        }
        Map<String, JsonValue.Member> members = new LinkedHashMap<>();
        for (Event k = parser.next(); !(k instanceof MappingEndEvent); k = parser.next()) {
            if (!(k instanceof ScalarEvent ks)) {
                throw error(k.getStartMark(), "unexpected " + show(at(k.getStartMark())) + " where a key should be:"
                        + " keys are plain or quoted text");
            }
            Pos key = pos(at(k.getStartMark()));
            if (ks.isPlain() && ks.getValue().isEmpty()) {
                throw error(k.getStartMark(), "a ':' without a key: write key: value");
            }
            String name = JsonValue.describe(new JsonValue.JsonString(ks.getValue(), 0, 0)); // quoted, escaped, short
            JsonValue.Member firstAt = members.get(ks.getValue());
            if (firstAt != null) {
                throw new JsonException(key.line(), key.column(), "duplicate key " + name + " (first at "
                        + firstAt.line() + ":" + firstAt.column() + "): keep only one of them");
            }
            Event v = parser.next();
            if (flow && isEmpty(v) && s.charAt(at(v.getStartMark()) - 1) != ':') {
                throw error(v.getStartMark(), "expected ':' after the key " + name + ", got " + show(at(v.getStartMark()))
                        + ": write {" + (name.length() > 32 ? "key" : name.substring(1, name.length() - 1)) + ": value}");
            }
            members.put(ks.getValue(), new JsonValue.Member(ks.getValue(), key.line(), key.column(), node(v, depth + 1)));
        }
        return new JsonValue.JsonObject(members, line, col);
    }

    /** @return whether {@code e} is a value left out (an empty plain scalar of no width) */
    private boolean isEmpty(Event e) {
        return e instanceof ScalarEvent sc && sc.isPlain() && sc.getValue().isEmpty()
                && at(e.getStartMark()) == at(e.getEndMark());
    }

    /** The YAML 1.2 core schema, less what JSON cannot hold. */
    private static JsonValue resolve(String t, int l, int col) {
        switch (t) {
            case "", "~", "null", "Null", "NULL":
                return new JsonValue.JsonNull(l, col);
            case "true", "True", "TRUE":
                return new JsonValue.JsonBoolean(true, l, col);
            case "false", "False", "FALSE":
                return new JsonValue.JsonBoolean(false, l, col);
            default:
                break;
        }
        if (INF.matcher(t).matches() || NAN.matcher(t).matches()) {
            throw new JsonException(l, col, t + " is " + (t.toLowerCase(Locale.ROOT).endsWith("nan") ? "not a number"
                    : "infinite") + ", which JSON cannot hold: write a finite number (or quote it, '" + t + "', for a string)");
        }
        if (RADIX.matcher(t).matches()) {
            String write;
            try {
                write = Long.toString(Long.parseLong(t.substring(2), t.charAt(1) == 'x' ? 16 : 8));
            } catch (NumberFormatException e) {
                write = "the number in decimal";
            }
            throw new JsonException(l, col, t + ": hexadecimal and octal numbers are not supported: write " + write
                    + " (or quote it, '" + t + "', for a string)");
        }
        if (NUMBER.matcher(t).matches()) {
            double v = Double.parseDouble(t);
            if (Double.isInfinite(v)) {
                throw new JsonException(l, col, "number " + t + " is too large for a double");
            }
            return new JsonValue.JsonNumber(t, v, l, col);
        }
        return new JsonValue.JsonString(t, l, col);
    }

    // ---- what the library reads but experiment files refuse, and the library's errors

    private Token refuseUnsupported(Token t) {
        boolean explicitKey = t.getTokenId() == Token.ID.Key && at(t.getStartMark()) != at(t.getEndMark());
        String problem = explicitKey ? unsupportedKey() : unsupported(t.getTokenId());
        if (problem != null) {
            throw error(t.getStartMark(), problem);
        }
        return t;
    }

    private static String unsupportedKey() {
        return "complex keys ('? ') are not supported: write key: value with a plain or quoted key";
    }

    /** @return why experiment files refuse tokens of this kind, or null */
    private static String unsupported(Token.ID id) {
        return switch (id) {
            case Anchor -> "anchors (&name) are not supported: write the value out in full where it is used";
            case Alias -> "aliases (*name) are not supported: write the value out in full";
            case Tag -> "tags (!...) are not supported: write the plain value, and quote it to make it a string";
            case Directive -> "directives (%...) are not supported: remove the line";
            default -> null;
        };
    }

    /** @return the index of a tab the library refused between tokens but outside indentation, or -1 */
    private int separatingTab(MarkedYamlEngineException e) {
        int at = e.getProblemMark().isPresent() ? at(e.getProblemMark()) : -1;
        if (at < 0 || at >= s.length() || s.charAt(at) != '\t' || !String.valueOf(e.getProblem()).contains("cannot start")) {
            return -1;
        }
        return inIndentation(at) ? -1 : at;
    }

    /** @return whether the tab or space at {@code at} indents content on its line */
    private boolean inIndentation(int at) {
        for (int i = lineStarts[lineOf(at)]; i < at; i++) {
            if (s.charAt(i) != ' ' && s.charAt(i) != '\t') {
                return false;
            }
        }
        int e = at;
        while (e < s.length() && (s.charAt(e) == ' ' || s.charAt(e) == '\t')) {
            e++;
        }
        return e < s.length() && "\r\n#".indexOf(s.charAt(e)) < 0;
    }

    /** The library's syntax error as one line: where, what, and the fix where a usual one fits. */
    private JsonException translate(MarkedYamlEngineException e) {
        Optional<Mark> mark = e.getProblemMark().isPresent() ? e.getProblemMark() : e.getContextMark();
        int at = at(mark);
        String p = String.valueOf(e.getProblem());
        String ctx = String.valueOf(e.getContext());
        String got = show(at);
        String opened = " at " + pos(at(e.getContextMark())); // the collection's start, where the context is one
        String problem;
        if (ctx.matches("while scanning an? (alias|anchor|tag|directive)")) {
            at = at(e.getContextMark());
            problem = unsupported(ctx.endsWith("alias") ? Token.ID.Alias : ctx.endsWith("anchor") ? Token.ID.Anchor
                    : ctx.endsWith("tag") ? Token.ID.Tag : Token.ID.Directive);
        } else if (p.contains("cannot start any token")) {
            char c = s.charAt(at);
            problem = c == '\t' ? "a tab in the indentation: YAML indents with spaces only; replace the tab with spaces"
                    : c == '@' || c == '`' ? "'" + c + "' is reserved in YAML: quote the value, \"" + c + "...\""
                    : got + " cannot start a value here: quote the value";
        } else if (p.startsWith("mapping values are not allowed")) {
            problem = "unexpected ':' (a mapping cannot start here): quote a value that holds ': ', put a nested mapping"
                    + " on the lines below its key, and check this line's indentation";
        } else if (p.startsWith("sequence entries are not allowed")) {
            problem = "unexpected '- ' (a sequence cannot start here): put each '- item' on a line of its own below"
                    + " its key, or write [a, b]; check this line's indentation";
        } else if (p.startsWith("could not find expected ':'")) {
            at = at(e.getContextMark());
            problem = "expected key: value, got a line without ': ': indent it to go on with the value above, or"
                    + " write key: value";
        } else if (ctx.contains("quoted scalar") && p.contains("hexadecimal")) {
            at = s.lastIndexOf('\\', at);
            problem = "invalid \\" + s.charAt(at + 1) + " escape: it needs exactly " + p.replaceAll("\\D+", " ").trim()
                    .split(" ")[0] + " hex digits";
        } else if (ctx.contains("quoted scalar") && p.contains("escape") && at < s.length()) {
            at = s.lastIndexOf('\\', at);
            problem = "invalid escape " + s.substring(at, at + 2) + ": use \\\", \\\\, \\n, \\t, \\xXX, \\uXXXX or another"
                    + " YAML escape, or single quotes, which take backslashes as they are";
        } else if (ctx.contains("quoted scalar")) {
            at = at(e.getContextMark());
            problem = "the string opened here is not closed: add the closing " + s.charAt(at);
        } else if (ctx.contains("block scalar")) {
            problem = "unexpected " + got + " after '|' or '>': write |, |-, |+, >, >- or >+ (an optional indentation"
                    + " digit) and start the text on the next line";
        } else if (p.startsWith("expected '<document start>'")) {
            problem = "unexpected " + got + ": it belongs to no value above (check its indentation; a file holds one"
                    + " document, a mapping)";
        } else if (ctx.contains("flow sequence") || ctx.contains("flow mapping")) {
            String what = ctx.contains("sequence") ? "sequence" : "mapping";
            String close = ctx.contains("sequence") ? "]" : "}";
            problem = at >= s.length() ? "unexpected end of file in the " + what + " opened" + opened + ": add the"
                    + " missing '" + close + "'" : "unexpected " + got + " in the " + what + " opened" + opened
                    + ": expected ',' or '" + close + "' (a ': ' or ',' in a value? quote it)";
        } else if (p.startsWith("mapping keys are not allowed")) {
            problem = unsupportedKey();
        } else if (p.startsWith("expected the node content")) {
            problem = s.startsWith("- ", at) ? "'- ' items cannot be inside [ ] or { }: separate the values with ','"
                    : "unexpected " + got + ": a value is missing";
        } else if (ctx.contains("block mapping") || ctx.contains("block collection")) {
            problem = "unexpected " + got + " in the " + (ctx.contains("mapping") ? "mapping" : "sequence") + opened
                    + ": only a comment may follow a value on its line; check this line's indentation";
        } else {
            problem = p.replaceAll("[\\s.]+$", "").replace("\n", " ");
        }
        if (lastScalar != null && (lastScalar.isSQuoted() || lastScalar.isDQuoted())
                && lastScalar.getStartMark().get().getLine() < lineOf(at)
                && lastScalar.getEndMark().get().getLine() == lineOf(at)) {
            problem += "; is the closing quote of the string opened at " + pos(at(lastScalar.getStartMark()))
                    + " missing?";
        }
        return error(at, problem);
    }

    // ---- positions

    /** @return the index in the text of the code point {@code m} points at */
    private int at(Optional<Mark> m) {
        if (m.isEmpty()) {
            return 0;
        }
        int line = Math.min(m.get().getLine(), lineStarts.length - 1);
        try {
            return s.offsetByCodePoints(lineStarts[line], m.get().getColumn());
        } catch (IndexOutOfBoundsException e) {
            return s.length();
        }
    }

    private int lineOf(int at) {
        int i = Arrays.binarySearch(lineStarts, at);
        return i >= 0 ? i : -i - 2;
    }

    /** A 1-based line and column (in UTF-16 units). */
    private record Pos(int line, int column) {
        @Override
        public String toString() {
            return line + ":" + column;
        }
    }

    private Pos pos(int at) {
        int line = lineOf(at);
        return new Pos(line + 1, at - lineStarts[line] + 1);
    }

    private JsonException error(int at, String problem) {
        Pos p = pos(at);
        return new JsonException(p.line(), p.column(), problem);
    }

    private JsonException error(Optional<Mark> m, String problem) {
        return error(at(m), problem);
    }

    private String show(int at) {
        if (at >= s.length()) {
            return "end of file";
        }
        char c = s.charAt(at);
        return c == '\n' || c == '\r' ? "end of line" : c < 0x20 || c == 0x7f
                ? "control character U+" + String.format(Locale.ROOT, "%04X", (int) c) : "'" + c + "'";
    }
}
