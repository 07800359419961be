/**
 * The pattern large organisations use: the role catalogue lives in a data file that teams edit in pull
 * requests; this program turns each entry into a Role. The entry's `key` is the Pulumi resource name,
 * so renaming a role (changing `name`) is an update, not a replacement.
 *
 * Entry fields: key, name, description?, settings?, protect?, retainOnDelete?.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { Role } from "pulumi-grouproles";

interface CatalogueEntry {
  key: string;
  name: string;
  description?: string;
  settings?: Record<string, boolean>;
  protect?: boolean;
  retainOnDelete?: boolean;
}
interface Catalogue {
  groupId: number;
  roles: CatalogueEntry[];
}

const config = new pulumi.Config();
const file = path.resolve(__dirname, config.get("catalogue") ?? "roles.json");
const catalogue = JSON.parse(fs.readFileSync(file, "utf8")) as Catalogue;

const keys = new Set<string>();
for (const entry of catalogue.roles) {
  if (keys.has(entry.key)) throw new Error(`${file}: role key "${entry.key}" appears twice`);
  keys.add(entry.key);
}

const roles = catalogue.roles.map(
  (entry) =>
    new Role(
      entry.key,
      { groupId: catalogue.groupId, name: entry.name, description: entry.description, settings: entry.settings },
      { protect: entry.protect, retainOnDelete: entry.retainOnDelete },
    ),
);

/** Role IDs by catalogue key. */
export const roleIds = Object.fromEntries(catalogue.roles.map((entry, i) => [entry.key, roles[i].roleId]));
