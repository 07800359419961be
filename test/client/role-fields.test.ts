/**
 * The one "absent" rule of a role's text fields and the helpers made from the field table
 * (client/role-fields.ts), on known inputs: absent, `null`, `""` and non-strings read as `""`; which
 * fields a source carries, which it sets, which differ; and the prose lists messages use.
 */
import { describe, expect, it } from "vitest";
import {
  changedTextFields,
  heldTextFields,
  inProse,
  roleShape,
  setTextFields,
  textFieldsOf,
  textFromReplies,
  textOf,
} from "../../client/role-fields";

describe("a text field's absent rule", () => {
  it("reads a string as it is and anything else as empty", () => {
    expect(textOf("Support")).toBe("Support");
    expect(textOf("")).toBe("");
    for (const absent of [undefined, null, 5, {}, true]) expect(textOf(absent)).toBe("");
  });

  it("a source carries its string fields only; sets only the non-empty ones; holds every field", () => {
    expect(textFieldsOf({ description: "d", name: "N" })).toEqual({ description: "d" });
    expect(textFieldsOf({ description: "" })).toEqual({ description: "" });
    expect(textFieldsOf({ description: null })).toEqual({});
    expect(textFieldsOf({ description: 5 })).toEqual({});
    expect(setTextFields({ description: "d" })).toEqual({ description: "d" });
    expect(setTextFields({ description: "" })).toEqual({});
    expect(setTextFields({ description: null })).toEqual({});
    expect(heldTextFields({})).toEqual({ description: "" });
    expect(heldTextFields({ description: "d", other: "x" })).toEqual({ description: "d" });
  });

  it("from a detail read and a list entry: the list's value where it shows one, else the details'", () => {
    expect(textFromReplies({ description: "old" }, { description: "new" })).toEqual({ description: "new" });
    expect(textFromReplies({ description: "old" }, {})).toEqual({ description: "old" });
    expect(textFromReplies({}, { description: null })).toEqual({ description: "" });
  });

  it("a field changes when its values differ under the rule, or when the new one is unknown", () => {
    expect(changedTextFields({ description: "a" }, { description: "b" })).toEqual(["description"]);
    expect(changedTextFields({ description: "a" }, { description: "a" })).toEqual([]);
    expect(changedTextFields({ description: null }, { description: "" })).toEqual([]);
    expect(changedTextFields({}, { description: "a" })).toEqual(["description"]);
    const unknown = Symbol("unknown");
    const isUnknown = (v: unknown) => v === unknown;
    expect(changedTextFields({ description: "a" }, { description: unknown }, isUnknown)).toEqual(["description"]);
    expect(changedTextFields({ description: "a" }, { description: "a" }, isUnknown)).toEqual([]);
  });
});

describe("words for messages", () => {
  it("lists words in prose", () => {
    expect(inProse([])).toBe("");
    expect(inProse(["a"])).toBe("a");
    expect(inProse(["a", "b"])).toBe("a and b");
    expect(inProse(["a", "b", "c"])).toBe("a, b and c");
  });

  it("a role's shape names its fields, the optional ones and extras marked", () => {
    expect(roleShape()).toBe("{ name, description?, settings? }");
    expect(roleShape("key")).toBe("{ name, description?, settings?, key? }");
  });
});
