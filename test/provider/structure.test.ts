/**
 * The program's structure as a resource's `__structure` input carries it (provider/shared/structure.ts),
 * read on its own: what the SDK sends is taken as it is, and anything unknown in a preview, malformed or
 * absent counts as nothing known (which only makes a decision stricter), never as a guess.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/shared/fields";
import {
  absentDependencies,
  dependencyDeclaring,
  NO_STRUCTURE,
  programName,
  structureOf,
} from "../../provider/shared/structure";

const URN = "urn:pulumi:dev::p::grouproles:index:GroupRoles::ops-cat";
const ROLE_URN = "urn:pulumi:dev::p::grouproles:index:Role::role-a";
const OTHER_URN = "urn:pulumi:dev::p::random:index:RandomId::suffix";

describe("structureOf: the structure the SDK sent", () => {
  it("reads the URN, deleteBeforeReplace and each dependency with what it declares", () => {
    const s = structureOf({
      __structure: {
        urn: URN,
        deleteBeforeReplace: false,
        dependsOn: [{ urn: ROLE_URN, groupId: 42, names: ["Ops"], roleIds: [7] }, { urn: OTHER_URN }],
      },
    });
    expect(s.urn).toBe(URN);
    expect(s.deleteBeforeReplace).toBe(false);
    expect([...s.dependsOn]).toEqual([
      [ROLE_URN, { declares: true, groupId: 42, names: ["Ops"], roleIds: [7] }],
      [OTHER_URN, { names: [], roleIds: [] }], // not this package's: declares nothing
    ]);
    expect(programName({ __structure: { urn: URN } })).toBe("ops-cat");
  });

  it("counts what is absent, unknown in a preview or malformed as not known", () => {
    for (const inputs of [undefined, {}, { __structure: null }, { __structure: "x" }, { __structure: [URN] }])
      expect(structureOf(inputs)).toEqual(NO_STRUCTURE);
    expect(programName({})).toBeUndefined();
    const s = structureOf({
      __structure: {
        urn: UNKNOWN,
        deleteBeforeReplace: "yes",
        dependsOn: [
          null,
          "urn",
          { urn: UNKNOWN, names: [] },
          { urn: 5, names: [] },
          { urn: ROLE_URN, groupId: UNKNOWN, names: ["Ops", 3], roleIds: [7, 7.5, "8", UNKNOWN] },
          { urn: OTHER_URN, groupId: 4.5, names: "Ops", roleIds: 9 },
        ],
      },
    });
    expect(s).toStrictEqual({
      dependsOn: new Map([
        [ROLE_URN, { declares: true, names: ["Ops"], roleIds: [7] }],
        [OTHER_URN, { declares: true, names: [], roleIds: [] }], // sends names: this package's, none readable
      ]),
    });
    expect(structureOf({ __structure: { urn: URN, dependsOn: "all" } })).toEqual({ urn: URN, dependsOn: new Map() });
  });
});

describe("what the dependencies declare", () => {
  const s = structureOf({
    __structure: {
      urn: URN,
      dependsOn: [
        { urn: OTHER_URN },
        { urn: ROLE_URN, groupId: 42, names: ["Ops"], roleIds: [7] },
        { urn: `${ROLE_URN}-2`, groupId: 43, names: ["Sales"], roleIds: [8] },
      ],
    },
  });

  it("absentDependencies: this package's resources in dependsOn that did not register, by name", () => {
    expect(absentDependencies(s, () => false)).toEqual(["role-a", "role-a-2"]); // never the RandomId
    expect(absentDependencies(s, (urn) => urn === ROLE_URN)).toEqual(["role-a-2"]);
    expect(absentDependencies(s, () => true)).toEqual([]);
  });

  it("dependencyDeclaring: the dependency declaring a role by ID or name in that group, and no other", () => {
    expect(dependencyDeclaring(s, 42, { roleId: 7 })).toBe(ROLE_URN);
    expect(dependencyDeclaring(s, 42, { name: "Ops" })).toBe(ROLE_URN);
    expect(dependencyDeclaring(s, 42, { roleId: 9, name: "Ops" })).toBe(ROLE_URN);
    expect(dependencyDeclaring(s, 43, { roleId: 8 })).toBe(`${ROLE_URN}-2`);
    expect(dependencyDeclaring(s, 43, { roleId: 7, name: "Ops" })).toBeUndefined(); // group 42's role
    expect(dependencyDeclaring(s, 42, { roleId: 8, name: "Sales" })).toBeUndefined();
    expect(dependencyDeclaring(s, 42, {})).toBeUndefined();
    expect(dependencyDeclaring(NO_STRUCTURE, 42, { roleId: 7 })).toBeUndefined();
  });
});
