/**
 * An exclusive catalogue is declared after every resource of its group, each in its `dependsOn`
 * (sdk/group-order.ts): the order Pulumi then keeps in the preview and the `up` alike (simulation
 * history 3352). Checked in the program, before anything registers, under the Node SDK's mocks.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { GroupRoles, Role } from "../../sdk";
import * as plugin from "../../sdk/package";

const registered: string[] = [];
beforeAll(() =>
  pulumi.runtime.setMocks({
    newResource: (args) => {
      registered.push(args.name);
      return { id: `${args.name}-id`, state: args.inputs };
    },
    call: (args) => args.inputs,
  }),
);

// Each case uses a group of its own: what the SDK remembers lasts for the run (here, the test file).
describe("an exclusive catalogue and the other resources of its group", () => {
  it("refuses the catalogue that does not depend on a Role of its group, naming it and `dependsOn`", async () => {
    new Role("reader", { groupId: 1, name: "Reader" });
    expect(() => new GroupRoles("owner", { groupId: 1, roles: {}, exclusive: true })).toThrow(
      "GroupRoles resource 'owner' has `exclusive: true` for group 1 but does not depend on Role 'reader' of that group",
    );
    // Refused before it registers: a resource declared after it registers, it never does.
    const probe = new Role("probe", { groupId: 100, name: "Probe" });
    await new Promise((resolve) => probe.id.apply(resolve));
    expect(registered).toContain("probe");
    expect(registered).not.toContain("owner");
  });

  it("accepts it when each resource of the group is in its `dependsOn`, directly or through another's", () => {
    const a = new Role("a", { groupId: 2, name: "A" });
    const other = new GroupRoles("other", { groupId: 2, roles: { b: { name: "B" } } }, { dependsOn: [a] });
    const owner = new plugin.GroupRoles("owner2", { groupId: 2, roles: {}, exclusive: true }, { dependsOn: other });
    expect(pulumi.Resource.isInstance(owner)).toBe(true);
  });

  it("refuses one dependency missing among several, naming only it", () => {
    const a = new Role("c", { groupId: 3, name: "C" });
    new plugin.Role("d", { groupId: 3, name: "D" });
    expect(() => new GroupRoles("owner3", { groupId: 3, roles: {}, exclusive: true }, { dependsOn: [a] })).toThrow(
      /does not depend on Role 'd' of that group\. .*add it to its `dependsOn`/s,
    );
  });

  it("names every missing dependency in prose: `Role 'e' and GroupRoles 'f'`, then `them`", () => {
    new Role("e", { groupId: 8, name: "E" });
    new GroupRoles("f", { groupId: 8, roles: {} });
    expect(() => new GroupRoles("owner8", { groupId: 8, roles: {}, exclusive: true })).toThrow(
      /does not depend on Role 'e' and GroupRoles 'f' of that group\. .*add them to its `dependsOn`/s,
    );
  });

  it("refuses a resource of the group declared after the catalogue, naming the catalogue", () => {
    new GroupRoles("owner4", { groupId: 4, roles: {}, exclusive: true });
    expect(() => new Role("late", { groupId: 4, name: "Late" })).toThrow(
      "Role resource 'late': it is declared after GroupRoles 'owner4', which has `exclusive: true` for group 4",
    );
    expect(() => new plugin.GroupRoles("late2", { groupId: 4, roles: {} })).toThrow(
      "declared after GroupRoles 'owner4'",
    );
  });

  it("refuses a second exclusive catalogue of the group, in either SDK, naming both", () => {
    const first = new plugin.GroupRoles("owner9", { groupId: 9, roles: {}, exclusive: true });
    const message =
      "GroupRoles resource 'second9': GroupRoles 'owner9' already has `exclusive: true` for group 9; each would " +
      "remove the roles the other declares";
    for (const Kind of [GroupRoles, plugin.GroupRoles]) {
      expect(() => new Kind("second9", { groupId: 9, roles: {}, exclusive: true }, { dependsOn: [first] })).toThrow(
        message,
      );
    }
  });

  it("leaves alone other groups, reads (`get`), non-exclusive catalogues and a groupId not known yet", () => {
    new GroupRoles("owner5", { groupId: 5, roles: {}, exclusive: true });
    new Role("elsewhere", { groupId: 6, name: "Elsewhere" });
    Role.get("read", "5/10");
    new GroupRoles("plain", { groupId: 7, roles: {} });
    new Role("after-plain", { groupId: 7, name: "After" });
    new Role("unknown-group", { groupId: pulumi.output(5), name: "Later" });
  });
});
