package io.tandem.cle.internal.json;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A parsed JSON value with the 1-based line and column of its first character. Objects keep their
 * members in file order, with the position of each key. Immutable.
 */
public sealed interface JsonValue
        permits JsonValue.JsonObject, JsonValue.JsonArray, JsonValue.JsonString, JsonValue.JsonNumber,
                JsonValue.JsonBoolean, JsonValue.JsonNull {

    /** @return the 1-based line of the value's first character */
    int line();

    /** @return the 1-based column (in UTF-16 units) of the value's first character */
    int column();

    /** @return the JSON type as a user reads it: object, array, string, number, boolean, null */
    String typeName();

    /** An object member: the key with its position, and the value. */
    record Member(String key, int line, int column, JsonValue value) {
    }

    /** A JSON object; members in file order (keys are unique: the parser rejects duplicates). */
    record JsonObject(Map<String, Member> members, int line, int column) implements JsonValue {
        /** Copies {@code members} into an unmodifiable map keeping its order. */
        public JsonObject {
            members = Collections.unmodifiableMap(new LinkedHashMap<>(members));
        }

        /** @return the member's value, or null */
        public JsonValue get(String key) {
            Member m = members.get(key);
            return m == null ? null : m.value();
        }

        /** @return the member, or null */
        public Member member(String key) {
            return members.get(key);
        }

        @Override
        public String typeName() {
            return "object";
        }
    }

    /** A JSON array. */
    record JsonArray(List<JsonValue> items, int line, int column) implements JsonValue {
        /** Copies {@code items}. */
        public JsonArray {
            items = List.copyOf(items);
        }

        @Override
        public String typeName() {
            return "array";
        }
    }

    /**
     * A JSON string. {@code note}, when not null, says where a substituted value came from (e.g.
     * "from ${screen_color}, set by --set"); checks append it to their messages.
     */
    record JsonString(String value, int line, int column, String note) implements JsonValue {
        /** A string read from the file. */
        public JsonString(String value, int line, int column) {
            this(value, line, column, null);
        }

        @Override
        public String typeName() {
            return "string";
        }
    }

    /** A JSON number: the text as written and its double value. */
    record JsonNumber(String text, double value, int line, int column, String note) implements JsonValue {
        /** A number read from the file. */
        public JsonNumber(String text, double value, int line, int column) {
            this(text, value, line, column, null);
        }

        /** @return whether the value is a whole number that a long holds exactly (|v| <= 2^53) */
        public boolean isIntegral() {
            return value == Math.rint(value) && Math.abs(value) <= 9.007199254740992E15;
        }

        @Override
        public String typeName() {
            return "number";
        }
    }

    /** {@code true} or {@code false}. */
    record JsonBoolean(boolean value, int line, int column, String note) implements JsonValue {
        /** A boolean read from the file. */
        public JsonBoolean(boolean value, int line, int column) {
            this(value, line, column, null);
        }

        @Override
        public String typeName() {
            return "boolean";
        }
    }

    /** {@code null}. */
    record JsonNull(int line, int column) implements JsonValue {
        @Override
        public String typeName() {
            return "null";
        }
    }

    /** @return the note of a substituted string, number or boolean, or null */
    static String noteOf(JsonValue v) {
        if (v instanceof JsonString s) {
            return s.note();
        }
        if (v instanceof JsonNumber n) {
            return n.note();
        }
        if (v instanceof JsonBoolean b) {
            return b.note();
        }
        return null;
    }

    /**
     * A short rendering of a value for error messages: strings quoted, containers abbreviated,
     * followed by the substitution note if any.
     */
    static String describe(JsonValue v) {
        String text;
        if (v instanceof JsonString s) {
            text = JsonWriter.quote(s.value().length() > 60 ? s.value().substring(0, 57) + "..." : s.value());
        } else if (v instanceof JsonNumber n) {
            text = n.text();
        } else if (v instanceof JsonBoolean b) {
            text = Boolean.toString(b.value());
        } else if (v instanceof JsonNull) {
            text = "null";
        } else if (v instanceof JsonArray a) {
            text = a.items().isEmpty() ? "[]" : "an array of " + a.items().size();
        } else {
            text = ((JsonObject) v).members().isEmpty() ? "{}" : "an object";
        }
        String note = noteOf(v);
        return note == null ? text : text + " (" + note + ")";
    }
}
