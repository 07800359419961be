/**
 * What the plugin serves: its resource and function tokens, and the code behind each (the dynamic
 * providers' methods, the lookups of the SDK's data functions).
 */
import { clientFromConfig } from "../../config/stack-config";
import { groupRolesProvider } from "../group-roles/provider";
import { roleProvider } from "../role/provider";
import { locateVisitor, lookupRole, lookupRoles, lookupVisitorPresence } from "../shared/lookups";
import type { Props } from "../shared/props";

/** The methods behind a resource token: a dynamic provider's, typed as it types its inputs and state. */
type Methods = typeof roleProvider | typeof groupRolesProvider;

/** Resource tokens to the implementation behind them: the dynamic providers' methods. */
const RESOURCES: Record<string, Methods> = {
  "grouproles:index:Role": roleProvider,
  "grouproles:index:GroupRoles": groupRolesProvider,
};

/** Invoke tokens to the lookups the SDK's data functions use too. */
export const INVOKES: Record<string, (args: Props) => Promise<unknown>> = {
  "grouproles:index:getRole": (args) => lookupRole(clientFromConfig(), args as never),
  "grouproles:index:getRoles": (args) => lookupRoles(clientFromConfig(), args as never),
  "grouproles:index:getVisitorPresence": (args) =>
    lookupVisitorPresence(clientFromConfig({}, "presence"), args as never),
  "grouproles:index:findVisitor": (args) => locateVisitor(clientFromConfig({}, "presence"), args as never),
};

/** The resource and function tokens this plugin serves (schema.json must list exactly these). */
export const SERVED_TOKENS = { resources: Object.keys(RESOURCES), functions: Object.keys(INVOKES) };

/** A resource's type token, from its URN. */
export function tokenOf(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

/** The methods of the resource `urn` is one of; a type this plugin does not serve fails, naming those it does. */
export function methodsFor(urn: string): Methods {
  const methods = RESOURCES[tokenOf(urn)];
  if (!methods)
    throw new Error(`unknown resource type ${tokenOf(urn)}; this plugin serves ${Object.keys(RESOURCES).join(", ")}`);
  return methods;
}
