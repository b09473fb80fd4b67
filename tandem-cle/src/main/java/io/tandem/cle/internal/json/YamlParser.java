package io.tandem.cle.internal.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A parser for the YAML 1.2 subset that experiment files use, building the same {@link JsonValue}
 * tree as {@link JsonParser} (with the line and column of every value and key), so that checks
 * downstream do not know which format the file was in.
 *
 * <p>The subset: one document (an optional leading {@code ---}, an optional trailing
 * {@code ...}); block mappings and block sequences by indentation, with spaces only;
 * {@code - } items, including {@code - key: value} mapping items; flow sequences {@code [a, b]}
 * and flow mappings {@code {a: 1}}, which may span lines inside their brackets; plain scalars
 * resolved by the YAML 1.2 core schema ({@code null}, {@code ~} and nothing are null;
 * {@code true}/{@code false} booleans; decimal integers and floats numbers, keeping their text;
 * anything else a string); single- and double-quoted strings on one line (double quotes with
 * escapes); literal {@code |} and folded {@code >} block scalars with {@code -}/{@code +}
 * chomping; {@code #} comments. Keys are strings.
 *
 * <p>Rejected, with the line, the column and what to write instead: tabs in indentation,
 * anchors and aliases, tags, directives, several documents, complex ({@code ? }) keys, duplicate
 * keys, {@code .inf}/{@code .nan} (JSON has neither), hexadecimal and octal numbers, plain
 * scalars and quoted strings that go on over several lines, and anything else outside the subset.
 * A leading byte order mark is skipped; CRLF and CR count as one line break.
 *
 * <p>Stateless apart from one parse; not thread-safe; allocates the tree.
 */
public final class YamlParser {
    private static final Pattern NUMBER = Pattern.compile("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
    private static final Pattern INF = Pattern.compile("[-+]?\\.(inf|Inf|INF)");
    private static final Pattern NAN = Pattern.compile("\\.(nan|NaN|NAN)");
    private static final Pattern HEX = Pattern.compile("0x[0-9a-fA-F]+");
    private static final Pattern OCTAL = Pattern.compile("0o[0-7]+");

    private final String s;
    private int pos;
    private int line = 1;
    private int lineStart;

    private YamlParser(String text) {
        // one line break character, so that columns stay those of the file
        String t = text.replace("\r\n", "\n").replace('\r', '\n');
        this.s = !t.isEmpty() && t.charAt(0) == '\uFEFF' ? t.substring(1) : t;
    }

    /**
     * Parses one YAML document of the subset.
     *
     * @param text the whole document
     * @return the value, with positions
     * @throws JsonException at the first problem, naming its line, column and fix
     */
    public static JsonValue parse(String text) {
        YamlParser p = new YamlParser(text);
        if (!p.skipToContent()) {
            throw p.error("the file is empty: an experiment file is one mapping, name: ..., world: ...");
        }
        if (p.atMarker("---")) {
            p.pos += 3;
            p.skipInlineSpace();
            if (!p.atEndOfLine()) {
                throw p.error("put the document on the lines after '---', not on its line");
            }
            if (!p.skipToContent() || p.atMarker("...")) {
                throw p.error("the document after '---' is empty: an experiment file is one mapping, name: ...");
            }
        }
        JsonValue v = p.blockNode(-1, 0);
        p.endOfDocument();
        return v;
    }

    // ---- positions and errors

    private int column() {
        return pos - lineStart + 1;
    }

    private JsonException error(String problem) {
        return new JsonException(line, column(), problem);
    }

    private String show(int at) {
        if (at >= s.length() || s.charAt(at) == '\n') {
            return at >= s.length() ? "end of file" : "end of line";
        }
        char c = s.charAt(at);
        return c < 0x20 || c == 0x7f ? "control character U+" + Integer.toHexString(c) : "'" + c + "'";
    }

    // ---- characters and lines

    private boolean blankOrEnd(int at) {
        return at >= s.length() || s.charAt(at) == ' ' || s.charAt(at) == '\t' || s.charAt(at) == '\n';
    }

    private boolean flowIndicator(int at) {
        return at < s.length() && ",[]{}".indexOf(s.charAt(at)) >= 0;
    }

    private void skipInlineSpace() {
        while (pos < s.length() && (s.charAt(pos) == ' ' || s.charAt(pos) == '\t')) {
            pos++;
        }
    }

    /** @return whether pos is at the end of the line (a comment counts as such); skips the comment */
    private boolean atEndOfLine() {
        if (pos < s.length() && s.charAt(pos) == '#') {
            while (pos < s.length() && s.charAt(pos) != '\n') {
                pos++;
            }
        }
        return pos >= s.length() || s.charAt(pos) == '\n';
    }

    /** After a value on its line: only spaces and a comment may follow. */
    private void expectEndOfLine(String what) {
        skipInlineSpace();
        if (!atEndOfLine()) {
            if (s.charAt(pos) == ':' && blankOrEnd(pos + 1)) {
                throw error("unexpected ':' after " + what + ": keys are plain or quoted text; quote a value that"
                        + " holds ': ', or put a nested mapping on the next lines, indented");
            }
            throw error("unexpected " + show(pos) + " after " + what + ": only a comment (# ...) may follow it on"
                    + " its line");
        }
    }

    private void newLine() {
        pos++;
        line++;
        lineStart = pos;
    }

    /**
     * Skips blank lines and comments up to the next content; pos must be at a line start or at
     * the end of a line. Rejects tabs in indentation.
     *
     * @return false at the end of the file
     */
    private boolean skipToContent() {
        while (true) {
            int start = pos;
            skipInlineSpace();
            if (pos >= s.length()) {
                return false;
            }
            char c = s.charAt(pos);
            if (c == '\n') {
                newLine();
            } else if (c == '#') {
                atEndOfLine();
            } else {
                int tab = s.indexOf('\t', start);
                if (start == lineStart && tab >= 0 && tab < pos) {
                    pos = tab;
                    throw error("a tab in the indentation: YAML indents with spaces only; replace the tab with spaces");
                }
                return true;
            }
        }
    }

    /** @return whether pos is at a document marker ("---" or "...") at the start of a line */
    private boolean atMarker(String marker) {
        return pos == lineStart && s.startsWith(marker, pos) && blankOrEnd(pos + 3);
    }

    /** @return the indentation of the content at pos, -1 at a document marker */
    private int indentHere() {
        return atMarker("---") || atMarker("...") ? -1 : column() - 1;
    }

    private boolean atItem() {
        return pos < s.length() && s.charAt(pos) == '-' && blankOrEnd(pos + 1);
    }

    private void endOfDocument() {
        if (!skipToContent()) {
            return;
        }
        if (atMarker("...")) {
            pos += 3;
            skipInlineSpace();
            if (!atEndOfLine()) {
                throw error("unexpected " + show(pos) + " after '...': only a comment may follow it");
            }
            if (!skipToContent()) {
                return;
            }
        }
        if (atMarker("---")) {
            throw error("a second document: an experiment file is one document; remove this '---' and what follows"
                    + " (one experiment per file)");
        }
        throw error("unexpected " + show(pos) + ": it belongs to no value above (check its indentation; a file"
                + " holds one document, a mapping)");
    }

    // ---- block structure

    /** Rejects what may not start a node: anchors, aliases, tags, complex keys, directives, reserved characters. */
    private void checkNodeStart() {
        char c = s.charAt(pos);
        switch (c) {
            case '&':
                throw error("anchors (&name) are not supported: write the value out in full where it is used");
            case '*':
                throw error("aliases (*name) are not supported: write the value out in full");
            case '!':
                throw error("tags (!...) are not supported: write the plain value, and quote it to make it a string");
            case '%':
                throw error("directives (%...) are not supported: remove the line");
            case '@':
            case '`':
                throw error("'" + c + "' is reserved in YAML: quote the value, \"" + c + "...\"");
            case '?':
                if (blankOrEnd(pos + 1)) {
                    throw error("complex keys ('? ') are not supported: write key: value with a plain or quoted key");
                }
                return;
            default:
                return;
        }
    }

    /** A node in block context; pos at its first character, whose column sets its indentation. */
    private JsonValue blockNode(int parentIndent, int depth) {
        if (depth > JsonParser.MAX_DEPTH) {
            throw error("nesting deeper than " + JsonParser.MAX_DEPTH + " levels: flatten the document");
        }
        checkNodeStart();
        char c = s.charAt(pos);
        if (atItem()) {
            return blockSequence(column() - 1, depth);
        }
        if (c == '|' || c == '>') {
            return blockScalar(parentIndent);
        }
        if (keyAhead()) {
            return blockMapping(column() - 1, depth);
        }
        JsonValue v = inlineValue(depth, false);
        expectEndOfLine(describeEnd(v));
        return v;
    }

    private static String describeEnd(JsonValue v) {
        return v instanceof JsonValue.JsonArray ? "']'" : v instanceof JsonValue.JsonObject ? "'}'" : "the value";
    }

    /** @return whether a block mapping key (plain or quoted text, then ':' and a space) starts at pos */
    private boolean keyAhead() {
        char c = s.charAt(pos);
        if (c == '"' || c == '\'') {
            int p0 = pos;
            int l0 = line;
            int ls0 = lineStart;
            quoted();
            skipInlineSpace();
            boolean key = pos < s.length() && s.charAt(pos) == ':' && blankOrEnd(pos + 1);
            pos = p0;
            line = l0;
            lineStart = ls0;
            return key;
        }
        if (c == '[' || c == '{') {
            return false;
        }
        return plainKeyColon() >= 0;
    }

    /** @return the index of the ':' ending a plain key on this line, or -1 */
    private int plainKeyColon() {
        for (int i = pos; i < s.length() && s.charAt(i) != '\n'; i++) {
            char c = s.charAt(i);
            if (c == ':' && blankOrEnd(i + 1)) {
                return i;
            }
            if (c == '#' && i > pos && (s.charAt(i - 1) == ' ' || s.charAt(i - 1) == '\t')) {
                return -1;
            }
        }
        return -1;
    }

    private JsonValue blockMapping(int indent, int depth) {
        int l = line;
        int col = column();
        Map<String, JsonValue.Member> members = new LinkedHashMap<>();
        while (true) {
            // the key, up to its ':'
            checkNodeStart();
            int kl = line;
            int kc = column();
            String key;
            char c = s.charAt(pos);
            if (c == '"' || c == '\'') {
                key = quoted();
                skipInlineSpace();
            } else {
                int colon = plainKeyColon();
                key = s.substring(pos, colon).trim();
                pos = colon;
            }
            if (key.isEmpty() && c != '"' && c != '\'') {
                throw error("a ':' without a key: write key: value");
            }
            requireNewKey(members, key, kl, kc);
            pos++; // :
            int nl = line;
            int nc = column();
            skipInlineSpace();
            // the value: on the key's line, on the lines below it, or none (null)
            JsonValue v;
            if (atEndOfLine()) {
                boolean more = skipToContent();
                int ind = more ? indentHere() : -1;
                if (ind > indent) {
                    v = blockNode(indent, depth + 1);
                } else if (ind == indent && atItem()) {
                    v = blockSequence(indent, depth + 1);
                } else {
                    v = new JsonValue.JsonNull(nl, nc);
                }
            } else {
                c = s.charAt(pos);
                if (atItem()) {
                    throw error("a sequence cannot start on the line of its key \"" + key + "\": put each '- item' on"
                            + " a line of its own below the key, or write [a, b]");
                }
                if (c != '|' && c != '>' && keyAhead()) {
                    throw error("a mapping cannot start on the line of its key \"" + key + "\": put its keys on the"
                            + " lines below, indented, or write {a: 1, b: 2}; quote a string that holds ': '");
                }
                if (c == '|' || c == '>') {
                    checkNodeStart();
                    v = blockScalar(indent);
                } else {
                    v = inlineValue(depth + 1, false);
                    expectEndOfLine(describeEnd(v));
                }
            }
            members.put(key, new JsonValue.Member(key, kl, kc, v));
            // the next key, or the end of the mapping
            if (!skipToContent()) {
                return new JsonValue.JsonObject(members, l, col);
            }
            int ind = indentHere();
            if (ind < indent) {
                return new JsonValue.JsonObject(members, l, col);
            }
            if (ind > indent) {
                throw error("bad indentation: this line is indented " + ind + " spaces, more than the keys of the mapping"
                        + " at " + l + ":" + col + " (" + indent + "); align it with the key it belongs to (text that goes"
                        + " on over several lines needs | or >)");
            }
            if (atItem()) {
                throw error("a '- ' item among the keys of the mapping at " + l + ":" + col + ": indent the items"
                        + " under their key, or give the item a key");
            }
            if (!keyAhead()) {
                throw error("expected key: value at the indentation of the mapping at " + l + ":" + col + ", got "
                        + show(pos) + " (a mapping holds keys only)");
            }
        }
    }

    private JsonValue blockSequence(int indent, int depth) {
        int l = line;
        int col = column();
        List<JsonValue> items = new ArrayList<>();
        while (true) {
            // pos on the item's '-'
            int il = line;
            int ic = column();
            pos++;
            skipInlineSpace();
            if (atEndOfLine()) {
                boolean more = skipToContent();
                if (more && indentHere() > indent) {
                    items.add(blockNode(indent, depth + 1));
                } else {
                    items.add(new JsonValue.JsonNull(il, ic));
                }
            } else {
                // compact: "- key: value" or "- - x" set their indentation by their column
                items.add(blockNode(indent, depth + 1));
            }
            if (!skipToContent()) {
                return new JsonValue.JsonArray(items, l, col);
            }
            int ind = indentHere();
            if (ind > indent) {
                throw error("bad indentation: this line is indented " + ind + " spaces, more than the '- ' items of"
                        + " the sequence at " + l + ":" + col + " (" + indent + "); align it with what it belongs to");
            }
            if (ind < indent || !atItem()) {
                return new JsonValue.JsonArray(items, l, col);
            }
        }
    }

    /** A literal (|) or folded (>) block scalar; leaves pos at the start of the first line after it. */
    private JsonValue blockScalar(int parentIndent) {
        int l = line;
        int col = column();
        boolean literal = s.charAt(pos) == '|';
        pos++;
        char chomp = 'c';
        if (pos < s.length() && (s.charAt(pos) == '-' || s.charAt(pos) == '+')) {
            chomp = s.charAt(pos);
            pos++;
        }
        if (pos < s.length() && Character.isDigit(s.charAt(pos))) {
            throw error("indentation indicators (" + (literal ? '|' : '>') + s.charAt(pos) + ") are not supported:"
                    + " indent every line of the text the same, and leave the number out");
        }
        if (!blankOrEnd(pos)) {
            throw error("unexpected " + show(pos) + " after '" + (literal ? '|' : '>') + "': write |, |-, |+, >, >- or"
                    + " >+ and start the text on the next line");
        }
        skipInlineSpace();
        if (!atEndOfLine()) {
            throw error("the text of a '" + (literal ? '|' : '>') + "' block starts on the next line: move "
                    + show(pos) + " there");
        }
        // the lines indented more than the parent; the first non-empty one sets the indentation
        List<String> lines = new ArrayList<>();
        int indent = -1;
        while (pos < s.length()) {
            int ls = pos + 1;
            int sp = ls;
            while (sp < s.length() && s.charAt(sp) == ' ') {
                sp++;
            }
            int eol = s.indexOf('\n', ls);
            eol = eol < 0 ? s.length() : eol;
            if (sp == eol) {
                lines.add(indent >= 0 && sp - ls > indent ? s.substring(ls + indent, eol) : "");
            } else {
                int n = sp - ls;
                if (indent < 0) {
                    if (n <= parentIndent) {
                        break;
                    }
                    indent = n;
                }
                if (n < indent) {
                    if (s.charAt(sp) == '\t' && n > parentIndent) {
                        newLine();
                        pos = sp;
                        throw error("a tab in the indentation of the text: YAML indents with spaces only");
                    }
                    break;
                }
                lines.add(s.substring(ls + indent, eol));
            }
            pos = eol;
            line++;
            lineStart = ls;
        }
        // pos is at the '\n' ending the last line taken (or the end): step onto the next line
        if (pos < s.length()) {
            newLine();
        }
        int last = lines.size();
        while (last > 0 && lines.get(last - 1).isEmpty()) {
            last--;
        }
        int trailing = lines.size() - last;
        List<String> content = lines.subList(0, last);
        String body = literal ? String.join("\n", content) : fold(content);
        String value;
        if (content.isEmpty()) {
            value = chomp == '+' ? "\n".repeat(trailing) : "";
        } else {
            value = body + (chomp == '-' ? "" : chomp == '+' ? "\n".repeat(trailing + 1) : "\n");
        }
        return new JsonValue.JsonString(value, l, col);
    }

    /** Folds lines: a single break between two lines becomes a space, n empty lines n breaks; indented lines keep theirs. */
    private static String fold(List<String> lines) {
        StringBuilder sb = new StringBuilder();
        int blanks = 0;
        boolean started = false;
        boolean prevMore = false;
        for (String ln : lines) {
            if (ln.isEmpty()) {
                blanks++;
                continue;
            }
            boolean more = ln.charAt(0) == ' ' || ln.charAt(0) == '\t';
            if (!started) {
                sb.append("\n".repeat(blanks));
            } else if (prevMore || more) {
                sb.append("\n".repeat(blanks + 1));
            } else {
                sb.append(blanks == 0 ? " " : "\n".repeat(blanks));
            }
            sb.append(ln);
            blanks = 0;
            started = true;
            prevMore = more;
        }
        return sb.toString();
    }

    // ---- values on one line, and flow collections

    /** A flow collection, a quoted string or a plain scalar at pos. */
    private JsonValue inlineValue(int depth, boolean flow) {
        if (depth > JsonParser.MAX_DEPTH) {
            throw error("nesting deeper than " + JsonParser.MAX_DEPTH + " levels: flatten the document");
        }
        checkNodeStart();
        char c = s.charAt(pos);
        int l = line;
        int col = column();
        switch (c) {
            case '[':
                return flowSequence(depth);
            case '{':
                return flowMapping(depth);
            case '"':
            case '\'':
                return new JsonValue.JsonString(quoted(), l, col);
            case '|':
            case '>':
                throw error("'" + c + "' blocks cannot be inside [ ] or { }: quote the text");
            case ']':
            case '}':
            case ',':
                throw error("unexpected '" + c + "'" + (flow ? ": a value is missing" : ": quote a value that starts"
                        + " with it"));
            case '-':
                if (flow && blankOrEnd(pos + 1)) {
                    throw error("'- ' items cannot be inside [ ] or { }: separate the values with ','");
                }
                return plain(flow);
            default:
                return plain(flow);
        }
    }

    private JsonValue plain(boolean flow) {
        int l = line;
        int col = column();
        return resolve(plainText(flow), l, col);
    }

    /** The text of a plain scalar at pos, which ends at the line's end, ': ', " #" or (in flow) ,[]{}. */
    private String plainText(boolean flow) {
        int start = pos;
        while (pos < s.length() && s.charAt(pos) != '\n') {
            char c = s.charAt(pos);
            if (c == ':' && (blankOrEnd(pos + 1) || flow && flowIndicator(pos + 1))) {
                break;
            }
            if (c == '#' && pos > start && (s.charAt(pos - 1) == ' ' || s.charAt(pos - 1) == '\t')) {
                break;
            }
            if (flow && flowIndicator(pos)) {
                break;
            }
            pos++;
        }
        return s.substring(start, pos).trim();
    }

    /** The YAML 1.2 core schema, less what JSON cannot hold. */
    private JsonValue resolve(String t, int l, int col) {
        switch (t) {
            case "":
            case "~":
            case "null":
            case "Null":
            case "NULL":
                return new JsonValue.JsonNull(l, col);
            case "true":
            case "True":
            case "TRUE":
                return new JsonValue.JsonBoolean(true, l, col);
            case "false":
            case "False":
            case "FALSE":
                return new JsonValue.JsonBoolean(false, l, col);
            default:
                break;
        }
        if (INF.matcher(t).matches() || NAN.matcher(t).matches()) {
            throw new JsonException(l, col, t + " is " + (t.toLowerCase(java.util.Locale.ROOT).endsWith("nan")
                    ? "not a number" : "infinite") + ", which JSON cannot hold: write a finite number (or quote it,"
                    + " '" + t + "', for a string)");
        }
        if (HEX.matcher(t).matches() || OCTAL.matcher(t).matches()) {
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

    /** Spaces, line breaks and comments inside [ ] and { }. */
    private void skipFlowSpace() {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c == ' ' || c == '\t') {
                pos++;
            } else if (c == '\n') {
                newLine();
            } else if (c == '#') {
                atEndOfLine();
            } else {
                return;
            }
        }
    }

    private JsonValue flowSequence(int depth) {
        int l = line;
        int col = column();
        pos++; // [
        List<JsonValue> items = new ArrayList<>();
        while (true) {
            skipFlowSpace();
            if (pos >= s.length()) {
                throw error("unexpected end of file in the sequence opened at " + l + ":" + col + ": add the missing ']'");
            }
            if (s.charAt(pos) == ']') {
                pos++;
                return new JsonValue.JsonArray(items, l, col);
            }
            items.add(inlineValue(depth + 1, true));
            skipFlowSpace();
            if (pos >= s.length()) {
                throw error("unexpected end of file in the sequence opened at " + l + ":" + col + ": add the missing ']'");
            }
            char c = s.charAt(pos);
            if (c == ',') {
                pos++;
            } else if (c == ']') {
                pos++;
                return new JsonValue.JsonArray(items, l, col);
            } else if (c == ':') {
                throw error("a key: value pair inside [ ]: write it as a mapping, {key: value}");
            } else {
                throw error("unexpected " + show(pos) + " in the sequence opened at " + l + ":" + col
                        + ": expected ',' or ']'");
            }
        }
    }

    private JsonValue flowMapping(int depth) {
        int l = line;
        int col = column();
        pos++; // {
        Map<String, JsonValue.Member> members = new LinkedHashMap<>();
        while (true) {
            skipFlowSpace();
            if (pos >= s.length()) {
                throw error("unexpected end of file in the mapping opened at " + l + ":" + col + ": add the missing '}'");
            }
            char c = s.charAt(pos);
            if (c == '}') {
                pos++;
                return new JsonValue.JsonObject(members, l, col);
            }
            // the key
            checkNodeStart();
            int kl = line;
            int kc = column();
            String key;
            if (c == '"' || c == '\'') {
                key = quoted();
            } else if (c == '[' || c == '{' || c == ',' || c == ':') {
                throw error("unexpected '" + c + "' where a key should be: keys are plain or quoted text");
            } else {
                key = plainText(true);
            }
            skipInlineSpace();
            if (pos >= s.length() || s.charAt(pos) != ':') {
                throw error("expected ':' after the key \"" + key + "\", got " + show(pos) + ": write {" + key
                        + ": value}");
            }
            requireNewKey(members, key, kl, kc);
            pos++; // :
            int nl = line;
            int nc = column();
            skipFlowSpace();
            JsonValue v;
            if (pos < s.length() && (s.charAt(pos) == ',' || s.charAt(pos) == '}')) {
                v = new JsonValue.JsonNull(nl, nc);
            } else if (pos >= s.length()) {
                throw error("unexpected end of file in the mapping opened at " + l + ":" + col + ": add the missing '}'");
            } else {
                v = inlineValue(depth + 1, true);
            }
            members.put(key, new JsonValue.Member(key, kl, kc, v));
            skipFlowSpace();
            if (pos >= s.length()) {
                throw error("unexpected end of file in the mapping opened at " + l + ":" + col + ": add the missing '}'");
            }
            c = s.charAt(pos);
            if (c == ',') {
                pos++;
            } else if (c == '}') {
                pos++;
                return new JsonValue.JsonObject(members, l, col);
            } else {
                throw error("unexpected " + show(pos) + " in the mapping opened at " + l + ":" + col
                        + ": expected ',' or '}' (a ': ' in a value? quote it)");
            }
        }
    }

    // ---- quoted strings

    /** A single- or double-quoted string on one line at pos; leaves pos after its closing quote. */
    private String quoted() {
        char q = s.charAt(pos);
        int l = line;
        int col = column();
        pos++;
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= s.length() || s.charAt(pos) == '\n') {
                throw new JsonException(l, col, "the string opened here is not closed on its line: add the closing "
                        + q + " (for text over several lines use | or >)");
            }
            char c = s.charAt(pos);
            if (c == q) {
                if (q == '\'' && pos + 1 < s.length() && s.charAt(pos + 1) == '\'') {
                    sb.append('\'');
                    pos += 2;
                    continue;
                }
                pos++;
                return sb.toString();
            }
            if (c == '\\' && q == '"') {
                escape(sb);
            } else {
                sb.append(c);
                pos++;
            }
        }
    }

    /** A double-quoted string's escape at pos (on the backslash); appends it and moves past it. */
    private void escape(StringBuilder sb) {
        char e = pos + 1 < s.length() ? s.charAt(pos + 1) : '\n';
        String simple = "0abtnvfre \"/\\N_LP\t";
        String meaning = "\0\u0007\b\t\n\u000b\f\r\u001b \"/\\\u0085\u00a0\u2028\u2029\t";
        int k = simple.indexOf(e);
        if (k >= 0) {
            sb.append(meaning.charAt(k));
            pos += 2;
            return;
        }
        int digits = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : -1;
        if (digits < 0) {
            throw error("invalid escape \\" + (e == '\n' ? "" : e) + (e == '\n' ? " at the end of the line: close the"
                    + " string on its line (for text over several lines use | or >)"
                    : ": use \\\", \\\\, \\n, \\t, \\xXX, \\uXXXX or another YAML escape, or single quotes, which take"
                            + " backslashes as they are"));
        }
        int v = 0;
        for (int i = 0; i < digits; i++) {
            int at = pos + 2 + i;
            int d = at < s.length() ? Character.digit(s.charAt(at), 16) : -1;
            if (d < 0) {
                throw error("invalid \\" + e + " escape: it needs exactly " + digits + " hex digits");
            }
            v = v * 16 + d;
        }
        if (!Character.isValidCodePoint(v)) {
            throw error("invalid \\" + e + " escape: U+" + Integer.toHexString(v) + " is not a code point");
        }
        sb.appendCodePoint(v);
        pos += 2 + digits;
    }

    /** Throws at (line, column) if the mapping being read already has {@code key}. */
    private static void requireNewKey(Map<String, JsonValue.Member> members, String key, int line, int column) {
        JsonValue.Member first = members.get(key);
        if (first != null) {
            throw new JsonException(line, column, "duplicate key \"" + key + "\" (first at " + first.line() + ":"
                    + first.column() + "): keep only one of them");
        }
    }
}
