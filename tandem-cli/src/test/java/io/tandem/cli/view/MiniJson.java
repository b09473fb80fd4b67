package io.tandem.cli.view;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON reader and writer for the Chrome DevTools Protocol messages of {@link HeadlessChromium}:
 * objects read as {@code Map<String, Object>} (in their order), arrays as {@code List<Object>}, integers
 * as {@link Long} (a number with a fraction or exponent, or too large for a long, as {@link Double}),
 * strings with their escapes (&#92;uXXXX included), {@code true}/{@code false} as {@link Boolean} and
 * {@code null} as null. Malformed text throws {@link IllegalArgumentException} naming the offset.
 */
final class MiniJson {

    private final String text;
    private int pos;

    private MiniJson(String text) {
        this.text = text;
    }

    /** The value of the JSON text {@code text} (the whole text: trailing non-blank characters are refused). */
    static Object parse(String text) {
        MiniJson reader = new MiniJson(text);
        Object value = reader.value();
        reader.skipBlanks();
        if (reader.pos != text.length()) {
            throw reader.error("trailing characters");
        }
        return value;
    }

    /** The JSON object {@code text}, as a map. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> parseObject(String text) {
        Object value = parse(text);
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException("not a JSON object: " + abbreviate(text));
        }
        return (Map<String, Object>) value;
    }

    /**
     * The JSON text of {@code value}: a map (string keys), an iterable, a string, a number, a boolean or null.
     * Doubles are written as JavaScript's {@code JSON.stringify} writes numbers ({@code 1000.0} as
     * {@code 1000}, {@code 1.0E21} as {@code 1e+21}); non-finite ones as {@code null}, as it does.
     */
    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    /** {@code s} as a JSON string literal, quotes included. */
    static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2);
        quote(s, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String) {
            quote((String) value, out);
        } else if (value instanceof Boolean || value instanceof Long || value instanceof Integer
                || value instanceof Short || value instanceof Byte) {
            out.append(value);
        } else if (value instanceof Number) {
            out.append(number(((Number) value).doubleValue()));
        } else if (value instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                quote(String.valueOf(e.getKey()), out);
                out.append(':');
                write(e.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof Iterable) {
            out.append('[');
            boolean first = true;
            for (Object item : (Iterable<?>) value) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                write(item, out);
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("no JSON for a " + value.getClass().getName());
        }
    }

    /** {@code d} as JavaScript writes it: {@code 1000}, {@code 3.5}, {@code 0.000015}, {@code 1e+21}, {@code 1.5e-7}. */
    private static String number(double d) {
        if (!Double.isFinite(d)) {
            return "null";
        }
        if (d == 0) {
            return "0"; // -0 too, as JSON.stringify writes it
        }
        String shortest = Double.toString(d); // the shortest digits that read back as d, as in JavaScript
        double magnitude = Math.abs(d);
        if (magnitude >= 1e-6 && magnitude < 1e21) {
            return new BigDecimal(shortest).stripTrailingZeros().toPlainString();
        }
        int e = shortest.indexOf('E');
        String mantissa = shortest.substring(0, e);
        if (mantissa.endsWith(".0")) {
            mantissa = mantissa.substring(0, mantissa.length() - 2);
        }
        String exponent = shortest.substring(e + 1);
        return mantissa + "e" + (exponent.startsWith("-") ? exponent : "+" + exponent);
    }

    private static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                case '\b': out.append("\\b"); break;
                case '\f': out.append("\\f"); break;
                default:
                    // the line and paragraph separators too: JSON allows them, JavaScript source before ES2019 did not
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        out.append("\\u");
                        String hex = Integer.toHexString(c);
                        out.append("0000", hex.length(), 4).append(hex);
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }

    private Object value() {
        skipBlanks();
        if (pos >= text.length()) {
            throw error("unexpected end");
        }
        char c = text.charAt(pos);
        switch (c) {
            case '{': return object();
            case '[': return array();
            case '"': return string();
            case 't': return literal("true", Boolean.TRUE);
            case 'f': return literal("false", Boolean.FALSE);
            case 'n': return literal("null", null);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number();
                }
                throw error("unexpected '" + c + "'");
        }
    }

    private Map<String, Object> object() {
        pos++; // {
        Map<String, Object> map = new LinkedHashMap<>();
        skipBlanks();
        if (peek() == '}') {
            pos++;
            return map;
        }
        while (true) {
            skipBlanks();
            if (peek() != '"') {
                throw error("expected a string key");
            }
            String key = string();
            skipBlanks();
            expect(':');
            map.put(key, value());
            skipBlanks();
            char c = next();
            if (c == '}') {
                return map;
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> array() {
        pos++; // [
        List<Object> list = new ArrayList<>();
        skipBlanks();
        if (peek() == ']') {
            pos++;
            return list;
        }
        while (true) {
            list.add(value());
            skipBlanks();
            char c = next();
            if (c == ']') {
                return list;
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or ']'");
            }
        }
    }

    private String string() {
        pos++; // "
        StringBuilder out = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                if (c < 0x20) {
                    pos--;
                    throw error("control character in a string");
                }
                out.append(c);
                continue;
            }
            char e = next();
            switch (e) {
                case '"': out.append('"'); break;
                case '\\': out.append('\\'); break;
                case '/': out.append('/'); break;
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'n': out.append('\n'); break;
                case 'r': out.append('\r'); break;
                case 't': out.append('\t'); break;
                case 'u':
                    if (pos + 4 > text.length()) {
                        throw error("short \\u escape");
                    }
                    int code = 0;
                    for (int i = 0; i < 4; i++) {
                        int digit = Character.digit(text.charAt(pos + i), 16);
                        if (digit < 0) {
                            throw error("bad \\u escape");
                        }
                        code = code * 16 + digit;
                    }
                    pos += 4;
                    out.append((char) code); // surrogate pairs arrive as two escapes, appended in turn
                    break;
                default:
                    pos--;
                    throw error("bad escape '\\" + e + "'");
            }
        }
    }

    private Object number() {
        int start = pos;
        boolean integral = true;
        if (peek() == '-') {
            pos++;
        }
        int digits = digits();
        if (digits == 0) {
            throw error("expected a digit");
        }
        if (peek() == '.') {
            integral = false;
            pos++;
            if (digits() == 0) {
                throw error("expected a digit after '.'");
            }
        }
        if (peek() == 'e' || peek() == 'E') {
            integral = false;
            pos++;
            if (peek() == '+' || peek() == '-') {
                pos++;
            }
            if (digits() == 0) {
                throw error("expected a digit in the exponent");
            }
        }
        String literal = text.substring(start, pos);
        if (integral) {
            try {
                return Long.parseLong(literal);
            } catch (NumberFormatException tooLarge) {
                // falls through to a double
            }
        }
        return Double.parseDouble(literal);
    }

    private int digits() {
        int start = pos;
        while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
            pos++;
        }
        return pos - start;
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, pos)) {
            throw error("unexpected word");
        }
        pos += word.length();
        return value;
    }

    private void expect(char c) {
        if (next() != c) {
            pos--;
            throw error("expected '" + c + "'");
        }
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private char next() {
        if (pos >= text.length()) {
            throw error("unexpected end");
        }
        return text.charAt(pos++);
    }

    private void skipBlanks() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("bad JSON at offset " + pos + " (" + what + "): " + abbreviate(text));
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }

    /** The map at {@code key} of {@code object}, or an empty one where absent or not an object. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> objectAt(Map<String, Object> object, String key) {
        Object value = object == null ? null : object.get(key);
        return value instanceof Map ? (Map<String, Object>) value : Collections.emptyMap();
    }

    /** The string at {@code key} of {@code object}, or null where absent or not a string. */
    static String stringAt(Map<String, Object> object, String key) {
        Object value = object == null ? null : object.get(key);
        return value instanceof String ? (String) value : null;
    }
}
