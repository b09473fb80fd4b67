package io.tandem.cle.internal.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.cle.internal.json.JsonValue.JsonArray;
import io.tandem.cle.internal.json.JsonValue.JsonBoolean;
import io.tandem.cle.internal.json.JsonValue.JsonNull;
import io.tandem.cle.internal.json.JsonValue.JsonNumber;
import io.tandem.cle.internal.json.JsonValue.JsonObject;
import io.tandem.cle.internal.json.JsonValue.JsonString;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonParserTest {

    private static JsonException error(String text) {
        try {
            JsonParser.parse(text);
        } catch (JsonException e) {
            return e;
        }
        throw new AssertionError("parsed: " + text);
    }

    @Test
    void parse_everyKindOfValue_keepsValuesAndPositions() {
        String text = "{\n"
                + "  \"s\": \"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00\",\n"
                + "  \"n\": [0, -1, 2.5, 1e3, -2.5E-2, 1E+2],\n"
                + "  \"t\": true, \"f\": false, \"z\": null,\n"
                + "  \"o\": {\"inner\": {}}, \"e\": []\n"
                + "}";
        JsonObject o = (JsonObject) JsonParser.parse(text);
        assertThat(o.line()).isEqualTo(1);
        assertThat(o.column()).isEqualTo(1);
        assertThat(o.members().keySet()).containsExactly("s", "n", "t", "f", "z", "o", "e");
        JsonString s = (JsonString) o.get("s");
        assertThat(s.value()).isEqualTo("a\"b\\c/d\b\f\n\r\t\u00e9\uD83D\uDE00");
        assertThat(s.line()).isEqualTo(2);
        assertThat(s.column()).isEqualTo(8);
        assertThat(o.member("s").column()).isEqualTo(3);
        JsonArray n = (JsonArray) o.get("n");
        assertThat(n.items()).extracting(v -> ((JsonNumber) v).value()).containsExactly(0.0, -1.0, 2.5, 1000.0, -0.025, 100.0);
        assertThat(n.items().get(2).line()).isEqualTo(3);
        assertThat(n.items().get(2).column()).isEqualTo(16);
        assertThat(((JsonNumber) n.items().get(1)).isIntegral()).isTrue();
        assertThat(((JsonNumber) n.items().get(2)).isIntegral()).isFalse();
        assertThat(((JsonBoolean) o.get("t")).value()).isTrue();
        assertThat(((JsonBoolean) o.get("f")).value()).isFalse();
        assertThat(o.get("z")).isInstanceOf(JsonNull.class);
        assertThat(((JsonObject) ((JsonObject) o.get("o")).get("inner")).members()).isEmpty();
        assertThat(((JsonArray) o.get("e")).items()).isEmpty();
        assertThat(o.get("z").line()).isEqualTo(4);
        assertThat(o.get("z").column()).isEqualTo(31);
    }

    @Test
    void parse_scalarDocumentsAndWhitespace_accepted() {
        assertThat(((JsonNumber) JsonParser.parse(" \t\r\n 42 \n")).value()).isEqualTo(42.0);
        assertThat(JsonParser.parse("\uFEFF\"x\"")).isInstanceOf(JsonString.class);
        assertThat(JsonParser.parse("null")).isInstanceOf(JsonNull.class);
        // CRLF counts as one line break
        assertThat(JsonParser.parse("\r\n\r\n  true").line()).isEqualTo(3);
        assertThat(JsonParser.parse("\r\n\r\n  true").column()).isEqualTo(3);
    }

    @Test
    void parse_duplicateKey_namesBothPositions() {
        JsonException e = error("{\n  \"a\": 1,\n  \"a\": 2\n}");
        assertThat(e.line()).isEqualTo(3);
        assertThat(e.column()).isEqualTo(3);
        assertThat(e.getMessage()).isEqualTo("3:3: duplicate key \"a\" (first at 2:3): keep only one of them");
    }

    @Test
    void parse_trailingGarbage_rejectedWithItsPosition() {
        JsonException e = error("{\"a\": 1}\n  x");
        assertThat(e.getMessage()).startsWith("2:3: unexpected 'x' after the end of the JSON document");
        assertThat(error("1 2").getMessage()).startsWith("1:3: unexpected '2' after the end");
    }

    @Test
    void parse_trailingCommas_rejectedWithTheFix() {
        assertThat(error("{\"a\": 1,\n}").getMessage())
                .isEqualTo("2:1: trailing comma before '}': remove the last ',' (JSON allows no trailing commas)");
        assertThat(error("[1, 2, ]").getMessage()).startsWith("1:8: trailing comma before ']'");
    }

    @Test
    void parse_missingPunctuation_namesWhatIsMissing() {
        assertThat(error("{\"a\" 1}").getMessage()).isEqualTo("1:6: expected ':' after the key \"a\", got '1': write \"a\": value");
        assertThat(error("{\"a\": 1\n \"b\": 2}").getMessage()).startsWith("2:2: missing ',' between members");
        assertThat(error("[1 2]").getMessage()).startsWith("1:4: unexpected '2' in the array opened at 1:1: expected ',' or ']'");
        assertThat(error("{\"a\": [1}").getMessage()).startsWith("1:9: '}' closes the array opened at 1:7: use ']'");
        assertThat(error("{\"a\": 1").getMessage()).startsWith("1:8: unexpected end of file in the object opened at 1:1: add the missing '}'");
        assertThat(error("[1,").getMessage()).startsWith("1:4: unexpected end of file in the array opened at 1:1");
        assertThat(error("{\"a\": }").getMessage()).startsWith("1:7: unexpected '}': a value is missing");
        assertThat(error("").getMessage()).startsWith("1:1: the file is empty");
    }

    @Test
    void parse_nonJsonSyntax_explainsTheJsonForm() {
        assertThat(error("{a: 1}").getMessage()).isEqualTo("1:2: object keys need double quotes: write \"a\"");
        assertThat(error("{'a': 1}").getMessage()).startsWith("1:2: object keys need double quotes");
        assertThat(error("['a']").getMessage()).startsWith("1:2: strings need double quotes");
        assertThat(error("{\n // note\n}").getMessage()).startsWith("2:2: comments are not JSON");
        assertThat(error("[tru]").getMessage()).isEqualTo("1:2: invalid literal 'tru': did you mean true? (strings need double quotes)");
        assertThat(error("[None]").getMessage()).startsWith("1:2: invalid number starting with 'N'");
    }

    @Test
    void parse_badNumbers_rejectedWithTheFix() {
        assertThat(error("[01]").getMessage()).isEqualTo("1:2: invalid number '01': JSON numbers have no leading zeros; write 1");
        assertThat(error("[1.]").getMessage()).startsWith("1:2: invalid number '1.': a digit must follow '.'; write 1.0");
        assertThat(error("[.5]").getMessage()).startsWith("1:2: invalid number starting with '.'");
        assertThat(error("[+1]").getMessage()).startsWith("1:2: invalid number starting with '+'");
        assertThat(error("[1e]").getMessage()).startsWith("1:2: invalid number '1e': the exponent needs digits");
        assertThat(error("[-]").getMessage()).startsWith("1:3: invalid number '-': a digit must follow '-'");
        assertThat(error("[NaN]").getMessage()).contains("no NaN, Infinity");
        assertThat(error("[-Infinity]").getMessage()).contains("no Infinity or NaN");
        assertThat(error("[12ms]").getMessage()).startsWith("1:2: invalid number '12ms'");
        assertThat(error("[1e999]").getMessage()).startsWith("1:2: number 1e999 is too large");
    }

    @Test
    void parse_badStrings_rejectedWithTheFix() {
        assertThat(error("[\"C:\\data\"]").getMessage()).startsWith("1:5: invalid escape \\d: use");
        assertThat(error("[\"a\\qb\"]").getMessage()).startsWith("1:4: invalid escape \\q: use");
        assertThat(error("[\"\\u12g4\"]").getMessage()).startsWith("1:3: invalid \\u escape: \\u needs exactly four hex digits");
        assertThat(error("[\"abc").getMessage()).isEqualTo("1:2: unterminated string: add the closing '\"'");
        assertThat(error("[\"ab\ncd\"]").getMessage()).startsWith("1:5: line break inside the string opened at 1:2");
        assertThat(error("[\"a\u0001\"]").getMessage()).isEqualTo("1:4: raw control character U+0001 in a string: write it escaped, \\u0001");
    }

    @Test
    void parse_deepNesting_rejectedNotOverflowing() {
        String deep = "[".repeat(JsonParser.MAX_DEPTH + 2) + "]".repeat(JsonParser.MAX_DEPTH + 2);
        assertThat(error(deep).getMessage()).contains("nesting deeper than " + JsonParser.MAX_DEPTH);
    }

    @Test
    void write_valuesAndSchemaShapes_roundTripThroughTheParser() {
        Map<String, Object> doc = new java.util.LinkedHashMap<>();
        doc.put("s", "q\"\\\n\u0001");
        doc.put("n", List.of(1, 2.5, -3e-7));
        doc.put("o", Map.of("b", true));
        doc.put("e", List.of());
        doc.put("z", null);
        String text = JsonWriter.write(doc);
        JsonObject o = (JsonObject) JsonParser.parse(text);
        assertThat(((JsonString) o.get("s")).value()).isEqualTo("q\"\\\n\u0001");
        assertThat(((JsonArray) o.get("n")).items()).extracting(v -> ((JsonNumber) v).text()).containsExactly("1", "2.5", "-3.0E-7");
        assertThat(((JsonBoolean) ((JsonObject) o.get("o")).get("b")).value()).isTrue();
        assertThat(o.get("z")).isInstanceOf(JsonNull.class);
    }
}
