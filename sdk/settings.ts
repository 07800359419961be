/**
 * The type of a role's `settings`: the setting names the service documents, each its own optional key,
 * so that an editor completes them and `tsc` refuses a typo in an object literal (`viewVidoe`).
 *
 * The service's list is open (new features add keys), so a key outside it must stay possible. Only
 * object literals are checked for unknown keys: a map typed `Record<string, boolean>` (read from a
 * file, built in a loop) is accepted as it is, and a key the list lacks is written with a cast,
 * `{ viewVideo: true, ...({ newFeature: true } as RoleSettings) }`, which leaves the other keys checked.
 * The provider's check still refuses near misses of known keys in the preview (docs/role.md).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { KnownSettingName } from "../provider/shared/settings-keys";

export type { KnownSettingName };

/**
 * Permission settings of a role: setting name to enabled, e.g. `{ viewVideo: true, remoteAssist: false }`.
 * The keys are the settings the service documents; another key needs a cast (see the module comment).
 */
export type RoleSettings = { [K in KnownSettingName]?: pulumi.Input<boolean> };
