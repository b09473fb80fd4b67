package io.tandem.cle.internal.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON parser (RFC 8259) that keeps the position of every value and rejects what JSON
 * does not allow with a message naming the fix: duplicate keys, trailing commas, comments,
 * single quotes, unquoted keys, leading zeros, NaN, raw control characters in strings, bad
 * escapes, anything after the document. A leading byte order mark is skipped.
 *
 * <p>Stateless apart from one parse; not thread-safe; allocates the tree.
 */
public final class JsonParser {
    /** Nesting deeper than this is rejected (a guard against stack overflow). */
    public static final int MAX_DEPTH = 256;

    private final String s;
    private int pos;
    private int line = 1;
    private int lineStart;

    private JsonParser(String text) {
        this.s = text;
        if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
            pos = 1;
            lineStart = 1;
        }
    }

    /**
     * Parses one JSON document.
     *
     * @param text the whole document
     * @return the value, with positions
     * @throws JsonException at the first problem, naming its line, column and fix
     */
    public static JsonValue parse(String text) {
        JsonParser p = new JsonParser(text);
        p.skipSpace();
        if (p.pos >= p.s.length()) {
            throw p.error("the file is empty: an experiment file is one JSON object, {...}");
        }
        JsonValue v = p.value(0);
        p.skipSpace();
        if (p.pos < p.s.length()) {
            throw p.error("unexpected " + p.show(p.pos) + " after the end of the JSON document: remove it, or wrap"
                    + " several values in one array or object");
        }
        return v;
    }

    private int column() {
        return pos - lineStart + 1;
    }

    private JsonException error(String problem) {
        return new JsonException(line, column(), problem);
    }

    private JsonException errorAt(int l, int c, String problem) {
        return new JsonException(l, c, problem);
    }

    private String show(int at) {
        if (at >= s.length()) {
            return "end of file";
        }
        char c = s.charAt(at);
        if (c < 0x20 || c == 0x7f) {
            return "control character U+" + hex4(c);
        }
        return "'" + c + "'";
    }

    private static String hex4(int c) {
        String h = Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT);
        return "0000".substring(h.length()) + h;
    }

    private void skipSpace() {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c == ' ' || c == '\t') {
                pos++;
            } else if (c == '\n') {
                pos++;
                line++;
                lineStart = pos;
            } else if (c == '\r') {
                pos++;
                if (pos < s.length() && s.charAt(pos) == '\n') {
                    pos++;
                }
                line++;
                lineStart = pos;
            } else if (c == '/' && pos + 1 < s.length() && (s.charAt(pos + 1) == '/' || s.charAt(pos + 1) == '*')) {
                throw error("comments are not JSON: remove the comment (put notes in \"description\")");
            } else {
                return;
            }
        }
    }

    private JsonValue value(int depth) {
        if (depth > MAX_DEPTH) {
            throw error("nesting deeper than " + MAX_DEPTH + " levels: flatten the document");
        }
        if (pos >= s.length()) {
            throw error("unexpected end of file: a value is missing");
        }
        char c = s.charAt(pos);
        switch (c) {
            case '{':
                return object(depth);
            case '[':
                return array(depth);
            case '"':
                return stringValue();
            case 't':
            case 'f':
            case 'n':
                return literal();
            case '\'':
                throw error("strings need double quotes: write \"...\" instead of '...'");
            default:
                if (c == '-' || c >= '0' && c <= '9') {
                    return number();
                }
                if (c == 'N' || c == 'I' || c == '+' || c == '.') {
                    throw error("invalid number starting with '" + c + "': JSON numbers are like -1, 0.5, 2e-3"
                            + " (no NaN, Infinity, leading '+' or '.')");
                }
                if (c == '}' || c == ']') {
                    throw error("unexpected '" + c + "': a value is missing (a trailing comma? remove it)");
                }
                if (c == ',') {
                    throw error("unexpected ',': a value is missing between two commas");
                }
                throw error("unexpected " + show(pos) + ": expected a value (an object, array, string, number,"
                        + " true, false or null; strings need double quotes)");
        }
    }

    private JsonValue.JsonString stringValue() {
        int l = line;
        int col = column();
        String v = string();
        return new JsonValue.JsonString(v, l, col);
    }

    private JsonValue object(int depth) {
        int l = line;
        int col = column();
        pos++; // {
        Map<String, JsonValue.Member> members = new LinkedHashMap<>();
        skipSpace();
        if (pos < s.length() && s.charAt(pos) == '}') {
            pos++;
            return new JsonValue.JsonObject(members, l, col);
        }
        while (true) {
            skipSpace();
            if (pos >= s.length()) {
                throw error("unexpected end of file in the object opened at " + l + ":" + col + ": add the missing '}'");
            }
            char c = s.charAt(pos);
            if (c == '}') {
                throw error("trailing comma before '}': remove the last ',' (JSON allows no trailing commas)");
            }
            if (c != '"') {
                if (c == '\'') {
                    throw error("object keys need double quotes: write \"key\" instead of 'key'");
                }
                if (Character.isJavaIdentifierStart(c)) {
                    int e = pos;
                    while (e < s.length() && Character.isJavaIdentifierPart(s.charAt(e))) {
                        e++;
                    }
                    throw error("object keys need double quotes: write \"" + s.substring(pos, e) + "\"");
                }
                throw error("unexpected " + show(pos) + " in the object opened at " + l + ":" + col
                        + ": expected a key in double quotes or '}'");
            }
            int kl = line;
            int kc = column();
            String key = string();
            JsonValue.Member first = members.get(key);
            if (first != null) {
                throw errorAt(kl, kc, "duplicate key \"" + key + "\" (first at " + first.line() + ":" + first.column()
                        + "): keep only one of them");
            }
            skipSpace();
            if (pos >= s.length() || s.charAt(pos) != ':') {
                throw error("expected ':' after the key \"" + key + "\", got " + show(pos) + ": write \"" + key
                        + "\": value");
            }
            pos++;
            skipSpace();
            JsonValue v = value(depth + 1);
            members.put(key, new JsonValue.Member(key, kl, kc, v));
            skipSpace();
            if (pos >= s.length()) {
                throw error("unexpected end of file in the object opened at " + l + ":" + col + ": add the missing '}'");
            }
            c = s.charAt(pos);
            if (c == ',') {
                pos++;
            } else if (c == '}') {
                pos++;
                return new JsonValue.JsonObject(members, l, col);
            } else if (c == '"') {
                throw error("missing ',' between members of the object opened at " + l + ":" + col + ": add a ','"
                        + " after the previous value");
            } else {
                throw error("unexpected " + show(pos) + " after the value of \"" + key + "\": expected ',' or '}'");
            }
        }
    }

    private JsonValue array(int depth) {
        int l = line;
        int col = column();
        pos++; // [
        List<JsonValue> items = new ArrayList<>();
        skipSpace();
        if (pos < s.length() && s.charAt(pos) == ']') {
            pos++;
            return new JsonValue.JsonArray(items, l, col);
        }
        while (true) {
            skipSpace();
            if (pos >= s.length()) {
                throw error("unexpected end of file in the array opened at " + l + ":" + col + ": add the missing ']'");
            }
            if (s.charAt(pos) == ']') {
                throw error("trailing comma before ']': remove the last ',' (JSON allows no trailing commas)");
            }
            items.add(value(depth + 1));
            skipSpace();
            if (pos >= s.length()) {
                throw error("unexpected end of file in the array opened at " + l + ":" + col + ": add the missing ']'");
            }
            char c = s.charAt(pos);
            if (c == ',') {
                pos++;
            } else if (c == ']') {
                pos++;
                return new JsonValue.JsonArray(items, l, col);
            } else if (c == '}') {
                throw error("'}' closes the array opened at " + l + ":" + col + ": use ']'");
            } else {
                throw error("unexpected " + show(pos) + " in the array opened at " + l + ":" + col
                        + ": expected ',' or ']' (a missing comma?)");
            }
        }
    }

    /** Reads a string at pos (on its opening quote) and returns its value. */
    private String string() {
        int l = line;
        int col = column();
        pos++; // "
        StringBuilder sb = null;
        int runStart = pos;
        while (true) {
            if (pos >= s.length()) {
                throw errorAt(l, col, "unterminated string: add the closing '\"'");
            }
            char c = s.charAt(pos);
            if (c == '"') {
                String v = sb == null ? s.substring(runStart, pos) : sb.append(s, runStart, pos).toString();
                pos++;
                return v;
            }
            if (c == '\n' || c == '\r') {
                throw error("line break inside the string opened at " + l + ":" + col
                        + ": close it with '\"' on its line, or write \\n");
            }
            if (c < 0x20) {
                throw error("raw control character U+" + hex4(c) + " in a string: write it escaped, \\u" + hex4(c));
            }
            if (c == '\\') {
                if (sb == null) {
                    sb = new StringBuilder();
                }
                sb.append(s, runStart, pos);
                pos++;
                if (pos >= s.length()) {
                    throw errorAt(l, col, "unterminated string: add the closing '\"'");
                }
                char e = s.charAt(pos);
                switch (e) {
                    case '"':
                    case '\\':
                    case '/':
                        sb.append(e);
                        break;
                    case 'b':
                        sb.append('\b');
                        break;
                    case 'f':
                        sb.append('\f');
                        break;
                    case 'n':
                        sb.append('\n');
                        break;
                    case 'r':
                        sb.append('\r');
                        break;
                    case 't':
                        sb.append('\t');
                        break;
                    case 'u':
                        sb.append(unicodeEscape());
                        break;
                    default:
                        pos--;
                        throw error("invalid escape \\" + e + ": use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX"
                                + " (write \\\\ for a backslash, e.g. in Windows paths; or use '/')");
                }
                pos++;
                runStart = pos;
            } else {
                pos++;
            }
        }
    }

    /** At the 'u' of a \\u escape; leaves pos on its last hex digit. */
    private char unicodeEscape() {
        int v = 0;
        for (int i = 1; i <= 4; i++) {
            int at = pos + i;
            int d = at < s.length() ? Character.digit(s.charAt(at), 16) : -1;
            if (d < 0) {
                pos--;
                throw error("invalid \\u escape: \\u needs exactly four hex digits, like \\u00e9");
            }
            v = v * 16 + d;
        }
        pos += 4;
        return (char) v;
    }

    private JsonValue number() {
        int l = line;
        int col = column();
        int start = pos;
        if (s.charAt(pos) == '-') {
            pos++;
        }
        if (pos >= s.length() || !isDigit(s.charAt(pos))) {
            if (pos < s.length() && (s.charAt(pos) == 'I' || s.charAt(pos) == 'N')) {
                throw error("invalid number: JSON has no Infinity or NaN; write a finite number");
            }
            throw error("invalid number '" + token(start) + "': a digit must follow '-'");
        }
        if (s.charAt(pos) == '0' && pos + 1 < s.length() && isDigit(s.charAt(pos + 1))) {
            throw errorAt(l, col, "invalid number '" + token(start) + "': JSON numbers have no leading zeros;"
                    + " write " + stripZeros(token(start)));
        }
        while (pos < s.length() && isDigit(s.charAt(pos))) {
            pos++;
        }
        if (pos < s.length() && s.charAt(pos) == '.') {
            pos++;
            if (pos >= s.length() || !isDigit(s.charAt(pos))) {
                throw errorAt(l, col, "invalid number '" + token(start) + "': a digit must follow '.'; write "
                        + s.substring(start, pos) + "0");
            }
            while (pos < s.length() && isDigit(s.charAt(pos))) {
                pos++;
            }
        }
        if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
            pos++;
            if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) {
                pos++;
            }
            if (pos >= s.length() || !isDigit(s.charAt(pos))) {
                throw errorAt(l, col, "invalid number '" + token(start) + "': the exponent needs digits, like 1e-3");
            }
            while (pos < s.length() && isDigit(s.charAt(pos))) {
                pos++;
            }
        }
        if (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '.')) {
            throw errorAt(l, col, "invalid number '" + token(start) + "': write a plain JSON number, or quote it"
                    + " as a string");
        }
        String text = s.substring(start, pos);
        double v = Double.parseDouble(text);
        if (Double.isInfinite(v)) {
            throw errorAt(l, col, "number " + text + " is too large for a double");
        }
        return new JsonValue.JsonNumber(text, v, l, col);
    }

    private String token(int start) {
        int e = start;
        while (e < s.length() && "{}[],:\" \t\r\n".indexOf(s.charAt(e)) < 0) {
            e++;
        }
        return s.substring(start, e);
    }

    private static String stripZeros(String t) {
        boolean neg = t.startsWith("-");
        String u = neg ? t.substring(1) : t;
        int i = 0;
        while (i < u.length() - 1 && u.charAt(i) == '0' && isDigit(u.charAt(i + 1))) {
            i++;
        }
        return (neg ? "-" : "") + u.substring(i);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private JsonValue literal() {
        int l = line;
        int col = column();
        String t = token(pos);
        switch (t) {
            case "true":
                pos += 4;
                return new JsonValue.JsonBoolean(true, l, col);
            case "false":
                pos += 5;
                return new JsonValue.JsonBoolean(false, l, col);
            case "null":
                pos += 4;
                return new JsonValue.JsonNull(l, col);
            default:
                String want = t.startsWith("t") ? "true" : t.startsWith("f") ? "false" : "null";
                throw error("invalid literal '" + t + "': did you mean " + want + "? (strings need double quotes)");
        }
    }
}
