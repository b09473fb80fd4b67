package io.tandem.cle.internal.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.tandem.cle.internal.json.JsonValue.JsonArray;
import io.tandem.cle.internal.json.JsonValue.JsonBoolean;
import io.tandem.cle.internal.json.JsonValue.JsonNull;
import io.tandem.cle.internal.json.JsonValue.JsonNumber;
import io.tandem.cle.internal.json.JsonValue.JsonObject;
import io.tandem.cle.internal.json.JsonValue.JsonString;
import io.tandem.cle.internal.json.JsonValue.Member;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class YamlReaderTest {

    private static JsonException error(String text) {
        try {
            YamlReader.parse(text);
        } catch (JsonException e) {
            return e;
        }
        throw new AssertionError("parsed: " + text);
    }

    /** A compact rendering: strings quoted, numbers as written, mappings {k: v}, sequences [a, b]. */
    private static String render(JsonValue v) {
        if (v instanceof JsonObject o) {
            List<String> parts = new ArrayList<>();
            for (Member m : o.members().values()) {
                parts.add(m.key() + ": " + render(m.value()));
            }
            return "{" + String.join(", ", parts) + "}";
        }
        if (v instanceof JsonArray a) {
            List<String> parts = new ArrayList<>();
            for (JsonValue item : a.items()) {
                parts.add(render(item));
            }
            return "[" + String.join(", ", parts) + "]";
        }
        if (v instanceof JsonString s) {
            return JsonWriter.quote(s.value());
        }
        if (v instanceof JsonNumber n) {
            return n.text();
        }
        if (v instanceof JsonBoolean b) {
            return Boolean.toString(b.value());
        }
        return "null";
    }

    private static String tree(String text) {
        return render(YamlReader.parse(text));
    }

    /** Structural equality with positions: records compare line and column too. */
    private static void assertSameTree(JsonValue a, JsonValue b) {
        assertThat(a).isEqualTo(b);
    }

    @Test
    void parse_blockMappingsAndSequences_buildTheTreeWithPositions() {
        String text = "# a comment\n"
                + "name: t   # trailing comment\n"
                + "world:\n"
                + "  file: world.sdf\n"
                + "  tags:\n"
                + "    - a\n"
                + "    - b c\n"
                + "list:\n"
                + "- 1\n"
                + "- x\n"
                + "\n"
                + "end: ~\n";
        JsonObject o = (JsonObject) YamlReader.parse(text);
        assertThat(render(o)).isEqualTo("{name: \"t\", world: {file: \"world.sdf\", tags: [\"a\", \"b c\"]},"
                + " list: [1, \"x\"], end: null}");
        assertThat(o.line()).isEqualTo(2);
        assertThat(o.column()).isEqualTo(1);
        assertThat(o.member("name").line()).isEqualTo(2);
        assertThat(o.member("name").column()).isEqualTo(1);
        assertThat(o.get("name").line()).isEqualTo(2);
        assertThat(o.get("name").column()).isEqualTo(7);
        JsonObject world = (JsonObject) o.get("world");
        assertThat(world.line()).isEqualTo(4);
        assertThat(world.column()).isEqualTo(3);
        assertThat(world.member("tags").line()).isEqualTo(5);
        assertThat(world.member("tags").column()).isEqualTo(3);
        JsonArray tags = (JsonArray) world.get("tags");
        assertThat(tags.line()).isEqualTo(6);
        assertThat(tags.column()).isEqualTo(5);
        assertThat(tags.items().get(1).line()).isEqualTo(7);
        assertThat(tags.items().get(1).column()).isEqualTo(7);
        JsonArray list = (JsonArray) o.get("list");
        assertThat(list.line()).isEqualTo(9);
        assertThat(list.column()).isEqualTo(1);
        assertThat(list.items().get(0).line()).isEqualTo(9);
        assertThat(list.items().get(0).column()).isEqualTo(3);
        assertThat(o.get("end").line()).isEqualTo(12);
        assertThat(o.get("end").column()).isEqualTo(6);
    }

    @Test
    void parse_mappingItems_keyOnTheDashLineAndTheRestAlignedWithIt() {
        String text = "items:\n"
                + "  - name: a\n"
                + "    n: 5\n"
                + "  - name: b\n"
                + "    params:\n"
                + "      x: 1\n"
                + "  -\n"
                + "    name: c\n"
                + "  - - 1\n"
                + "    - 2\n"
                + "  -\n";
        JsonObject o = (JsonObject) YamlReader.parse(text);
        assertThat(render(o)).isEqualTo("{items: [{name: \"a\", n: 5}, {name: \"b\", params: {x: 1}}, {name: \"c\"},"
                + " [1, 2], null]}");
        JsonArray items = (JsonArray) o.get("items");
        JsonObject first = (JsonObject) items.items().get(0);
        assertThat(first.line()).isEqualTo(2);
        assertThat(first.column()).isEqualTo(5);
        assertThat(first.member("n").line()).isEqualTo(3);
        assertThat(first.member("n").column()).isEqualTo(5);
        assertThat(items.items().get(2).line()).isEqualTo(8);
        assertThat(items.items().get(2).column()).isEqualTo(5);
        assertThat(items.items().get(4)).isEqualTo(new JsonNull(11, 3));
    }

    @Test
    void parse_emptyValues_areNullAtTheirKey() {
        JsonObject o = (JsonObject) YamlReader.parse("a:\nb: # nothing\nc: 1\n");
        assertThat(render(o)).isEqualTo("{a: null, b: null, c: 1}");
        assertThat(o.get("a")).isEqualTo(new JsonNull(1, 3));
        assertThat(o.get("b")).isEqualTo(new JsonNull(2, 3));
    }

    @Test
    void parse_flowCollections_spanLinesAndNest() {
        String text = "params: {C_m: 25.0, g_L: -2.5,\n"
                + "         names: [a, \"b, c\", 'd'],   # comment inside\n"
                + "         empty: {}, none: [], k:}\n"
                + "joints: [husky::left, husky::right, ]\n";
        JsonObject o = (JsonObject) YamlReader.parse(text);
        assertThat(render(o)).isEqualTo("{params: {C_m: 25.0, g_L: -2.5, names: [\"a\", \"b, c\", \"d\"], empty: {},"
                + " none: [], k: null}, joints: [\"husky::left\", \"husky::right\"]}");
        JsonObject params = (JsonObject) o.get("params");
        assertThat(params.line()).isEqualTo(1);
        assertThat(params.column()).isEqualTo(9);
        assertThat(params.member("names").line()).isEqualTo(2);
        assertThat(params.member("names").column()).isEqualTo(10);
        JsonArray names = (JsonArray) params.get("names");
        assertThat(names.items().get(1).line()).isEqualTo(2);
        assertThat(names.items().get(1).column()).isEqualTo(21);
        assertThat(params.get("g_L").column()).isEqualTo(26);
    }

    @Test
    void parse_plainScalars_resolvedByTheCoreSchema() {
        String text = "[null, Null, NULL, ~, true, True, FALSE, 0, -12, +3, 1.5, .5, 1., 2e3, -1.5E-2,"
                + " yes, on, 1_000, 12ms, 1.2.3, a b, $x, 'record[0:2]']";
        assertThat(tree(text)).isEqualTo("[null, null, null, null, true, true, false, 0, -12, +3, 1.5, .5, 1., 2e3,"
                + " -1.5E-2, \"yes\", \"on\", \"1_000\", \"12ms\", \"1.2.3\", \"a b\", \"$x\", \"record[0:2]\"]");
        JsonArray a = (JsonArray) YamlReader.parse(text);
        assertThat(((JsonNumber) a.items().get(9)).value()).isEqualTo(3.0);
        assertThat(((JsonNumber) a.items().get(11)).value()).isEqualTo(0.5);
        assertThat(((JsonNumber) a.items().get(14)).value()).isEqualTo(-0.015);
        assertThat(((JsonNumber) a.items().get(8)).isIntegral()).isTrue();
        // a scalar document, a plain scalar holding '#' and ':' that are not a comment or a key
        assertThat(tree("42")).isEqualTo("42");
        assertThat(tree("a: b#c:d http://x")).isEqualTo("{a: \"b#c:d http://x\"}");
        assertThat(tree("from: record[0:2]\nto: ${x}")).as("brackets are text outside [ ] and { }")
                .isEqualTo("{from: \"record[0:2]\", to: \"${x}\"}");
        assertThat(tree("\"quoted key\": 1\n'k2': 'it''s'")).isEqualTo("{quoted key: 1, k2: \"it's\"}");
        assertThat(tree("1: one\ntrue: yes")).as("keys are strings").isEqualTo("{1: \"one\", true: \"yes\"}");
    }

    @Test
    void parse_quotedStrings_keepTextAndDecodeDoubleQuoteEscapes() {
        assertThat(((JsonString) YamlReader.parse("'a \\n # b: c'")).value()).isEqualTo("a \\n # b: c");
        assertThat(((JsonString) YamlReader.parse("\"a\\\"b\\\\c\\/d\\t\\n\\x41\\u00e9\\U0001F600\\0\"")).value())
                .isEqualTo("a\"b\\c/d\t\nA\u00e9\uD83D\uDE00\0");
        assertThat(((JsonString) YamlReader.parse("\"true\"")).value()).isEqualTo("true");
        assertThat(((JsonString) YamlReader.parse("'12'")).value()).isEqualTo("12");
        assertThat(YamlReader.parse("x: \"\"")).isEqualTo(new JsonObject(java.util.Map.of("x",
                new Member("x", 1, 1, new JsonString("", 1, 4))), 1, 1));
    }

    @Test
    void parse_literalAndFoldedBlockScalars_keepOrFoldLineBreaks() {
        String text = "lit: |\n"
                + "  line one\n"
                + "    indented\n"
                + "\n"
                + "  # not a comment\n"
                + "folded: >\n"
                + "  joined\n"
                + "  with spaces\n"
                + "\n"
                + "  new paragraph\n"
                + "    kept\n"
                + "  end\n"
                + "strip: |-\n"
                + "  no newline\n"
                + "\n"
                + "keep: >+\n"
                + "  kept newlines\n"
                + "\n"
                + "\n"
                + "next: 1\n";
        JsonObject o = (JsonObject) YamlReader.parse(text);
        assertThat(((JsonString) o.get("lit")).value()).isEqualTo("line one\n  indented\n\n# not a comment\n");
        assertThat(((JsonString) o.get("folded")).value()).isEqualTo("joined with spaces\nnew paragraph\n  kept\nend\n");
        assertThat(((JsonString) o.get("strip")).value()).isEqualTo("no newline");
        assertThat(((JsonString) o.get("keep")).value()).isEqualTo("kept newlines\n\n\n");
        assertThat(((JsonNumber) o.get("next")).value()).isEqualTo(1.0);
        assertThat(o.get("lit").line()).isEqualTo(1);
        assertThat(o.get("lit").column()).isEqualTo(6);
        assertThat(o.get("folded").line()).isEqualTo(6);
        assertThat(o.member("next").line()).isEqualTo(20);
        // in a sequence item, and at the end of the file without a line break (which YAML 1.2 does not add)
        assertThat(tree("- >-\n  a\n  b\n- |\n  c")).isEqualTo("[\"a b\", \"c\"]");
        assertThat(tree("- |\n  c\n")).isEqualTo("[\"c\\n\"]");
    }

    @Test
    void parse_documentMarkersBomAndCrlf_accepted() {
        assertThat(tree("%s---\na: 1\n...\n# done\n".replace("%s", "\uFEFF"))).isEqualTo("{a: 1}");
        assertThat(tree("--- # start\na: 1")).isEqualTo("{a: 1}");
        JsonObject o = (JsonObject) YamlReader.parse("a: 1\r\nb:\r\n  - x\r\n");
        assertThat(render(o)).isEqualTo("{a: 1, b: [\"x\"]}");
        assertThat(((JsonArray) o.get("b")).items().get(0).line()).isEqualTo(3);
        assertThat(((JsonArray) o.get("b")).items().get(0).column()).isEqualTo(5);
    }

    @Test
    void parse_jsonDocument_givesTheSameTreeAsJsonParser() {
        String json = "{\n  \"a\": [1, -2.5e3, true, null],\n  \"b\": {\"c\": \"x\\ty\", \"d\": {}},\n  \"e\": []\n}";
        assertSameTree(YamlReader.parse(json), JsonParser.parse(json));
    }

    @Test
    void parse_tabInIndentation_rejectedWithItsPosition() {
        JsonException e = error("a:\n\tb: 1\n");
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.column()).isEqualTo(1);
        assertThat(e.getMessage()).isEqualTo("2:1: a tab in the indentation: YAML indents with spaces only; replace"
                + " the tab with spaces");
        assertThat(error("a:\n  \tb: 1\n").getMessage()).startsWith("2:3: a tab in the indentation");
        assertThat(error("a: |\n  x\n \ty\n").getMessage()).startsWith("3:2: a tab in the indentation");
        // tabs between tokens, in blank lines and in strings are fine (read as YAML 1.2 reads them)
        assertThat(tree("a:\t1\n\t\nb: [1,\t2]")).isEqualTo("{a: 1, b: [1, 2]}");
        JsonObject o = (JsonObject) YamlReader.parse("key:\t\tvalue\t# c\nl:\n  -\t\"\tx\"\n");
        assertThat(render(o)).isEqualTo("{key: \"value\", l: [\"\\tx\"]}");
        assertThat(o.get("key").column()).isEqualTo(7);
        assertThat(((JsonArray) o.get("l")).items().get(0).column()).isEqualTo(5);
    }

    @Test
    void parse_anchorsAliasesTagsAndDirectives_rejectedWithTheFix() {
        assertThat(error("a: &x 1\nb: *x").getMessage())
                .isEqualTo("1:4: anchors (&name) are not supported: write the value out in full where it is used");
        assertThat(error("a: 1\nb: *x").getMessage()).isEqualTo("2:4: aliases (*name) are not supported: write the"
                + " value out in full");
        assertThat(error("a: !!str 1").getMessage()).startsWith("1:4: tags (!...) are not supported: write the plain"
                + " value");
        assertThat(error("- [1, !x 2]").getMessage()).startsWith("1:7: tags (!...) are not supported");
        assertThat(error("%YAML 1.2\n---\na: 1").getMessage()).startsWith("1:1: directives (%...) are not supported");
        assertThat(error("a: @x").getMessage()).startsWith("1:4: '@' is reserved in YAML: quote the value");
        assertThat(error("a: [1]\nb: *").getMessage()).startsWith("2:4: aliases (*name) are not supported");
        assertThat(error("- !\n").getMessage()).startsWith("1:3: tags (!...) are not supported");
        assertThat(error("a: x\u0001").getMessage()).isEqualTo("1:5: control character U+0001 is not allowed in YAML:"
                + " remove it, or write it as an escape in a \"...\" string");
    }

    @Test
    void parse_complexKeysAndSeveralDocuments_rejectedWithTheFix() {
        assertThat(error("? a\n: 1").getMessage()).startsWith("1:1: complex keys ('? ') are not supported: write key:"
                + " value");
        assertThat(error("? [a]\n: 1").getMessage()).startsWith("1:1: complex keys ('? ') are not supported");
        assertThat(error("[a, b]: 1").getMessage()).isEqualTo("1:1: unexpected '[' where a key should be: keys are"
                + " plain or quoted text");
        assertThat(error("{[a]: 1}").getMessage()).startsWith("1:2: unexpected '[' where a key should be");
        JsonException e = error("a: 1\n---\nb: 2\n");
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.column()).isEqualTo(1);
        assertThat(e.problem()).startsWith("a second document: an experiment file is one document");
        assertThat(error("a: 1\n...\n---\nb: 2").getMessage()).startsWith("3:1: a second document");
        assertThat(error("a: 1\n...\nb: 2").getMessage()).startsWith("3:1: unexpected 'b'");
    }

    @Test
    void parse_duplicateKeys_namesBothPositions() {
        assertThat(error("a: 1\nb:\n  c: 1\n  c: 2\n").getMessage())
                .isEqualTo("4:3: duplicate key \"c\" (first at 3:3): keep only one of them");
        assertThat(error("{x: 1, 'x': 2}").getMessage())
                .isEqualTo("1:8: duplicate key \"x\" (first at 1:2): keep only one of them");
    }

    @Test
    void parse_infinityNanAndRadixNumbers_rejectedWithTheFix() {
        assertThat(error("a: .inf").getMessage()).isEqualTo("1:4: .inf is infinite, which JSON cannot hold: write a"
                + " finite number (or quote it, '.inf', for a string)");
        assertThat(error("a: [1, -.Inf]").getMessage()).startsWith("1:8: -.Inf is infinite");
        assertThat(error("a: .NaN").getMessage()).startsWith("1:4: .NaN is not a number, which JSON cannot hold");
        assertThat(error("a: 0x1F").getMessage()).isEqualTo("1:4: 0x1F: hexadecimal and octal numbers are not"
                + " supported: write 31 (or quote it, '0x1F', for a string)");
        assertThat(error("a: 0o17").getMessage()).startsWith("1:4: 0o17: hexadecimal and octal numbers are not"
                + " supported: write 15");
        assertThat(error("a: 1e999").getMessage()).isEqualTo("1:4: number 1e999 is too large for a double");
        assertThat(tree("a: '.inf'")).isEqualTo("{a: \".inf\"}");
    }

    @Test
    void parse_badIndentation_rejectedWithItsPosition() {
        assertThat(error("a:\n  b: 1\n   c: 2\n").getMessage()).isEqualTo("3:5: unexpected ':' (a mapping cannot"
                + " start here): quote a value that holds ': ', put a nested mapping on the lines below its key, and"
                + " check this line's indentation");
        assertThat(error("a: 1\n- b\n").getMessage()).isEqualTo("2:1: unexpected '-' in the mapping at 1:1: only a"
                + " comment may follow a value on its line; check this line's indentation");
        assertThat(error("- a\nb: 1\n").getMessage()).startsWith("2:1: unexpected 'b' in the sequence at 1:1: only a"
                + " comment");
        assertThat(error("a: 1\nplain line\n").getMessage()).isEqualTo("2:1: expected key: value, got a line without"
                + " ': ': indent it to go on with the value above, or write key: value");
        assertThat(error("  a: 1\n b: 2\n").getMessage()).isEqualTo("2:2: unexpected 'b': it belongs to no value"
                + " above (check its indentation; a file holds one document, a mapping)");
        assertThat(error("a:\n  - 1\n - 2\n").getMessage()).startsWith("3:2: unexpected '-' in the mapping at 1:1");
    }

    @Test
    void parse_valuesThatCannotStartOnTheKeysLine_rejectedWithTheFix() {
        assertThat(error("a: - b").getMessage()).isEqualTo("1:4: unexpected '- ' (a sequence cannot start here): put"
                + " each '- item' on a line of its own below its key, or write [a, b]; check this line's indentation");
        assertThat(error("a: b: c").getMessage()).startsWith("1:5: unexpected ':' (a mapping cannot start here)");
        assertThat(error("a: \"x\" y").getMessage()).startsWith("1:8: unexpected 'y' in the mapping at 1:1");
        assertThat(error("a: | text").getMessage()).isEqualTo("1:6: unexpected 't' after '|' or '>': write |, |-, |+,"
                + " >, >- or >+ (an optional indentation digit) and start the text on the next line");
        assertThat(error("a: [|\n x]").getMessage()).isEqualTo("1:5: '|' cannot start a value here: quote the value");
        assertThat(error("a: [- x]").getMessage()).startsWith("1:5: '- ' items cannot be inside [ ] or { }");
    }

    @Test
    void parse_standardYamlTheSubsetRefused_reads() {
        // quoted strings and plain scalars over several lines fold their line breaks into spaces
        assertThat(tree("a: \"abc\n  def\"\nb: 'it''s\n\n  two'\nc: some text\n  that goes on\n"))
                .isEqualTo("{a: \"abc def\", b: \"it's\\ntwo\", c: \"some text that goes on\"}");
        assertThat(tree("- a\n   - b\n")).as("a plain scalar going on").isEqualTo("[\"a - b\"]");
        JsonObject o = (JsonObject) YamlReader.parse("a: \"x\r\n  y\"\r\nb: 2\r\n");
        assertThat(render(o)).isEqualTo("{a: \"x y\", b: 2}");
        assertThat(o.member("b").line()).isEqualTo(3);
        // indentation indicators on block scalars
        assertThat(tree("a: |2\n   x\n  y\n")).isEqualTo("{a: \" x\\ny\\n\"}");
        // columns count UTF-16 units, as JsonParser's do
        JsonObject u = (JsonObject) YamlReader.parse("\uD83D\uDE00: [\uD83D\uDE00, x]");
        assertThat(((JsonArray) u.get("\uD83D\uDE00")).items().get(1).column()).isEqualTo(10);
        // an emoji anywhere, such as across the library's 1024-character reading buffer
        for (int n = 1015; n < 1030; n++) {
            String text = "a: " + "x".repeat(n) + "\uD83D\uDE00 y\nb: 1\n";
            assertThat(((JsonObject) YamlReader.parse(text)).get("b").line()).isEqualTo(2);
        }
    }

    @Test
    void parse_unclosedStringsAndBadEscapes_rejectedWithTheFix() {
        assertThat(error("a: 'abc\n").getMessage()).isEqualTo("1:4: the string opened here is not closed: add the"
                + " closing '");
        assertThat(error("a: \"abc\n\nb: 1\n").getMessage()).startsWith("1:4: the string opened here is not closed");
        assertThat(error("a: \"x\\").getMessage()).startsWith("1:4: the string opened here is not closed");
        // a string that runs on to the next quote: the error there names where it opened
        assertThat(error("a: 'abc\nb: 'x'\n").getMessage()).isEqualTo("2:5: unexpected 'x' in the mapping at 1:1:"
                + " only a comment may follow a value on its line; check this line's indentation; is the closing quote"
                + " of the string opened at 1:4 missing?");
        assertThat(error("a: \"C:\\data\"").getMessage()).isEqualTo("1:7: invalid escape \\d: use \\\", \\\\, \\n,"
                + " \\t, \\xXX, \\uXXXX or another YAML escape, or single quotes, which take backslashes as they are");
        assertThat(error("a: \"\\u12g4\"").getMessage()).startsWith("1:5: invalid \\u escape: it needs exactly 4 hex"
                + " digits");
    }

    @Test
    void parse_unclosedOrMalformedFlowCollections_rejectedWithTheFix() {
        assertThat(error("a: [1, 2\nb: 3").getMessage()).isEqualTo("2:2: unexpected ':' in the sequence opened at"
                + " 1:4: expected ',' or ']' (a ': ' or ',' in a value? quote it)");
        assertThat(error("a: [1, 2").getMessage()).isEqualTo("1:9: unexpected end of file in the sequence opened at"
                + " 1:4: add the missing ']'");
        assertThat(error("a: {b: 1").getMessage()).startsWith("1:9: unexpected end of file in the mapping opened at 1:4");
        assertThat(tree("a: [1 2]")).as("a plain scalar with a space").isEqualTo("{a: [\"1 2\"]}");
        assertThat(error("a: {b 1}").getMessage()).startsWith("1:8: expected ':' after the key \"b 1\"");
        assertThat(error("a: [b: 1]").getMessage()).isEqualTo("1:5: a key: value pair inside [ ]: write it as a"
                + " mapping, {key: value}");
        assertThat(error("{a, b: 1}").getMessage()).startsWith("1:3: expected ':' after the key \"a\", got ','");
        assertThat(error("a: [1,, 2]").getMessage()).startsWith("1:7: unexpected ',': a value is missing");
        assertThat(error("a: [1]]").getMessage()).startsWith("1:7: unexpected ']' in the mapping at 1:1");
        assertThat(error("a: {b: [1, 2}").getMessage()).startsWith("1:13: unexpected '}' in the sequence opened at 1:8");
    }

    @Test
    void parse_emptyDocument_rejected() {
        assertThat(error("").getMessage()).startsWith("1:1: the file is empty");
        assertThat(error("# only a comment\n\n").getMessage()).startsWith("3:1: the file is empty");
        assertThat(error("---\n...\n").getMessage()).startsWith("2:1: the document after '---' is empty");
        assertThat(error("\uFEFF").getMessage()).startsWith("1:1: the file is empty");
    }

    @Test
    void parse_deepNesting_rejectedNotOverflowing() {
        String deep = "[".repeat(JsonParser.MAX_DEPTH + 2) + "]".repeat(JsonParser.MAX_DEPTH + 2);
        assertThat(error(deep).getMessage()).contains("nesting deeper than " + JsonParser.MAX_DEPTH);
        StringBuilder block = new StringBuilder();
        for (int i = 0; i < JsonParser.MAX_DEPTH + 2; i++) {
            block.append(" ".repeat(i)).append("k:\n");
        }
        assertThat(error(block.toString()).getMessage()).contains("nesting deeper than " + JsonParser.MAX_DEPTH);
    }
}
