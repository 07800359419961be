/**
 * `settings` is typed by the settings the service documents (sdk/settings.ts): a typo in an object
 * literal fails `tsc` (`npm run typecheck` compiles this file: an `@ts-expect-error` that no longer
 * meets an error is itself an error), editor completion lists the keys, and every way to set another
 * key a program needs keeps compiling: a map typed `Record<string, boolean>` (read from a file) and the
 * documented cast. Both SDKs (dynamic and `pulumi-grouproles/package`) and both resources.
 */
import type * as pulumi from "@pulumi/pulumi";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { GroupRoleEntry, RoleArgs, RoleSettings } from "../../sdk";
import type * as pkg from "../../sdk/package";
import { type KNOWN_SETTINGS, suggestSetting } from "../../provider/shared/settings-keys";

const fromFile: Record<string, boolean> = JSON.parse('{"viewVideo": true, "newFeature": true}');

describe("typed setting keys", () => {
  it("a typo of a setting name in an object literal does not compile, for Role and GroupRoles entries of both SDKs", () => {
    const role = {
      groupId: 42,
      name: "Support",
      // @ts-expect-error viewVidoe is not a setting: tsc names the property
      settings: { viewVidoe: true },
    } satisfies RoleArgs;
    const entry = {
      name: "Support",
      // @ts-expect-error a setting name in the wrong case is a typo too
      settings: { ViewVideo: true },
    } satisfies GroupRoleEntry;
    const pkgRole = {
      groupId: 42,
      name: "Support",
      // @ts-expect-error the plugin's Role has the same type
      settings: { remoteAsist: true },
    } satisfies pkg.RoleArgs;
    const pkgEntry = {
      name: "Support",
      // @ts-expect-error and so has an entry of the plugin's GroupRoles
      settings: { joinCobrowseSession: false },
    } satisfies pkg.GroupRoleEntry;
    // What tsc refuses, the provider's check refuses in the preview too.
    expect([role, entry, pkgRole, pkgEntry].flatMap((a) => Object.keys(a.settings).map(suggestSetting))).toEqual([
      "viewVideo",
      "viewVideo",
      "remoteAssist",
      "joinCobrowseSessions",
    ]);
  });

  it("every documented setting is a key; another key: a Record read from a file, or the documented cast", () => {
    expectTypeOf<keyof RoleSettings>().toEqualTypeOf<(typeof KNOWN_SETTINGS)[number]>();
    expectTypeOf<RoleSettings["agentAccessibilty"]>().toEqualTypeOf<pulumi.Input<boolean> | undefined>();
    const known = {
      groupId: 42,
      name: "Support",
      settings: { viewVideo: true, remoteAssist: false },
    } satisfies RoleArgs;
    const read = { groupId: 42, name: "From a file", settings: fromFile } satisfies RoleArgs;
    const cast = {
      name: "Beta tester",
      settings: { viewVideo: true, ...({ newFeature: true } as RoleSettings) },
    } satisfies GroupRoleEntry;
    expect([known.settings, read.settings, cast.settings]).toEqual([
      { viewVideo: true, remoteAssist: false },
      { viewVideo: true, newFeature: true },
      { viewVideo: true, newFeature: true },
    ]);
  });
});
